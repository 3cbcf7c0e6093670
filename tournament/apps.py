from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Championships")

    def ready(self):
        from django.contrib.auth import get_user_model

        from .validators import UsernameValidator

        # On the field's own list (not its deconstructed arguments): every
        # form's model validation runs it, and no migration of auth's model follows.
        get_user_model()._meta.get_field("username").validators.append(UsernameValidator())
