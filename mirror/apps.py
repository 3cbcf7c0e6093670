from django.apps import AppConfig
from django.db.models.signals import post_save


class MirrorConfig(AppConfig):
    name = "mirror"

    def ready(self):
        from live import notify
        from refereeing.models import Signature

        from . import codes

        # The planilla codes the mirror checks follow every change of a mesa's record (``codes``).
        notify.changing.connect(codes.mesas_changing, dispatch_uid="mirror-codes")
        post_save.connect(codes.signature_saved, sender=Signature, dispatch_uid="mirror-codes-signature")
