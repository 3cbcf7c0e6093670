from django.db import models


class Mark(models.Model):
    """A point of the venue's log (an LSN) and the last claim logged before it.

    The venue writes one each time the desk asks how the mirror is doing;
    once the mirror confirms a mark's LSN, it has every claim up to the
    mark's. Never published.
    """

    lsn = models.BigIntegerField()
    last_claim = models.BigIntegerField()
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["lsn"])]

    def __str__(self):
        return f"{self.lsn} ≥ claim {self.last_claim}"


class PlanillaCode(models.Model):
    """The SHA-256 of each code that verifies a mesa's planilla now (``codes``): published, the codes never are."""

    mesa = models.OneToOneField("tournament.Mesa", on_delete=models.CASCADE, primary_key=True, related_name="+")
    digests = models.JSONField(default=list)

    def __str__(self):
        return f"mesa {self.mesa_id}: {len(self.digests)} codes"
