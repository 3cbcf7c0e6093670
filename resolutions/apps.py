from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ResolutionsConfig(AppConfig):
    name = "resolutions"
    verbose_name = _("Director's resolutions")
