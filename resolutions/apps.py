from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ResolutionsConfig(AppConfig):
    name = "resolutions"
    verbose_name = _("Director's resolutions")

    def ready(self):
        from audit.registration import register

        from .models import Resolution

        # The mesas concerned are known once set (their own entry follows the resolution's).
        register(Resolution, _scope, m2m_fields={"mesas"})


def _scope(resolution):
    first = resolution.mesas.values_list("pk", flat=True).first() if resolution.pk else None
    return resolution.championship_id, resolution.ajuste_mesa_id or first
