from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Championships")

    def ready(self) -> None:
        from django.contrib.auth import get_user_model

        from audit.context import name_actors
        from live import notify

        from . import audited
        from .models import Mesa
        from .naming import person_name
        from .validators import UsernameValidator

        audited.register_models()
        # A mesa's save changes what the boards and tablets show (``live.notify``).
        post_save.connect(notify.mesa_saved, sender=Mesa, dispatch_uid="live-mesa")
        name_actors(person_name)

        # On the field's own list (not its deconstructed arguments): every
        # form's model validation runs it, and no migration of auth's model follows.
        get_user_model()._meta.get_field("username").validators.append(UsernameValidator())
