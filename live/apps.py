from django.apps import AppConfig
from django.db.models.signals import post_save


class LiveConfig(AppConfig):
    name = "live"

    def ready(self):
        from refereeing.models import Appeal
        from tournament.models import Mesa

        from . import notify

        post_save.connect(notify.mesa_saved, sender=Mesa, dispatch_uid="live-mesa")
        post_save.connect(notify.appeal_saved, sender=Appeal, dispatch_uid="live-appeal")
