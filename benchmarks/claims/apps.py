from django.apps import AppConfig


class ClaimsBenchConfig(AppConfig):
    name = "benchmarks.claims"
    label = "claims_bench"
    default_auto_field = "django.db.models.BigAutoField"
