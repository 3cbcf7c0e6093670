from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class RefereeingConfig(AppConfig):
    name = "refereeing"
    verbose_name = _("Refereeing")

    def ready(self):
        from refereeing.models import Signature
        from refereeing.planilla import store

        # A finished mesa's last signature gets its planilla ready (``planilla.store``).
        post_save.connect(store.on_signature, sender=Signature, dispatch_uid="planilla-ready")
