from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class RefereeingConfig(AppConfig):
    name = "refereeing"
    verbose_name = _("Refereeing")

    def ready(self):
        from audit.registration import register
        from live import notify
        from refereeing.models import Appeal, PinFailure, Signature
        from refereeing.planilla import store
        from tournament.models import Mesa
        from tournament.seating import marks

        register(
            Appeal,
            lambda a: (Mesa.objects.filter(pk=a.mesa_id).values_list("championship_id", flat=True).first(), a.mesa_id),
            exclude_fields=["signature"],
        )

        # An appeal filed or ruled changes what the boards show (``live.notify``).
        post_save.connect(notify.appeal_saved, sender=Appeal, dispatch_uid="live-appeal")
        # A finished mesa's last signature gets its planilla ready (``planilla.store``).
        post_save.connect(store.on_signature, sender=Signature, dispatch_uid="planilla-ready")

        # The control board and the tables page mark what only refereeing knows (``tournament.seating.marks``).
        marks.answer("appealed_mesas", Appeal.objects.holding)
        marks.answer("blocked_tables", PinFailure.objects.blocked_tables)
