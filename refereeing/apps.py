from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RefereeingConfig(AppConfig):
    name = "refereeing"
    verbose_name = _("Refereeing")
