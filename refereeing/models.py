"""The claim log of each mesa, and the signatures on its planilla.

Terms
-----
claim
    One event the juez logs, in the engine's format (``{"kind": "caida",
    "pair": "A", "player": 1}``); see ``engines.rules``.
seq
    The claim's number in its mesa's log, from 1, with no gaps.
client id
    A UUID made by the device that sent the claim. A retry carries the same
    id, so the server recognises it and answers with the first answer.

The log is append-only: a correction is a ``void`` claim that names an
earlier seq; nothing is edited or deleted. The engine's decision is stored
with each entry as it was given when the claim arrived.

appeal
    A pair's written objection to one decision of the juez, ruled on by the
    championship's Director (Art. 17; ``refereeing.appeals``).
wrong PIN
    A failed attempt to open a mesa with its table's PIN, kept with its
    network address and its mesa so that guessing slows down
    (``refereeing.access``).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.models import Mesa, Table


class ClaimEntry(models.Model):
    mesa = models.ForeignKey(Mesa, on_delete=models.PROTECT, related_name="claims")
    seq = models.PositiveIntegerField()
    client_id = models.UUIDField(unique=True)
    kind = models.CharField(max_length=20)
    claim = models.JSONField(help_text="The claim in the engine's format, without its seq.")
    decision = models.JSONField(help_text="The engine's decision when the claim arrived.")
    accepted = models.BooleanField()
    juez = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    address = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("claim")
        verbose_name_plural = _("claims")
        ordering = ["mesa", "seq"]
        constraints = [
            models.UniqueConstraint(
                fields=["mesa", "seq"],
                name="claim_seq_unique_in_mesa",
                violation_error_message=_("This mesa's log already has a claim with this number."),
            ),
            models.CheckConstraint(
                condition=models.Q(seq__gte=1),
                name="claim_seq_from_one",
                violation_error_message=_("Claims are numbered from 1."),
            ),
        ]

    def __str__(self):
        return f"{self.mesa} #{self.seq} {self.kind}"


class Signature(models.Model):
    class Role(models.TextChoices):
        PAIR_A = "A", _("Representative of pair A")
        PAIR_B = "B", _("Representative of pair B")
        JUEZ = "juez", _("Juez")

    mesa = models.ForeignKey(Mesa, on_delete=models.PROTECT, related_name="signatures")
    role = models.CharField(max_length=4, choices=Role.choices)
    name = models.CharField(_("name"), max_length=150)
    image = models.TextField(help_text="The signature as a PNG data URL, drawn with a finger.")
    signed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("signature")
        verbose_name_plural = _("signatures")
        constraints = [
            models.UniqueConstraint(
                fields=["mesa", "role"],
                name="one_signature_per_role",
                violation_error_message=_("This planilla already has this signature."),
            ),
        ]

    def __str__(self):
        return f"{self.mesa} {self.get_role_display()}: {self.name}"


# After this many wrong PINs against a table's current PIN, from any address,
# the PIN opens nothing until the organiser prints a new one (``refereeing.access``).
PIN_TABLE_MAX_FAILURES = 10


class PinFailureQuerySet(models.QuerySet):
    def against_current_pins(self):
        """The wrong PINs made since each table's PIN was last printed."""
        return self.filter(
            models.Q(table__pin_issued_at__isnull=True) | models.Q(at__gte=models.F("table__pin_issued_at"))
        )

    def blocked_tables(self, tables):
        """The ids of those of ``tables`` whose PIN is blocked, in one query."""
        counts = (
            self.against_current_pins()
            .filter(table__in=tables)
            .values("table")
            .annotate(n=models.Count("pk"))
            .filter(n__gte=PIN_TABLE_MAX_FAILURES)
        )
        return {row["table"] for row in counts}


class PinFailure(models.Model):
    """A wrong table PIN, kept to slow down guessing (see ``refereeing.access``)."""

    address = models.GenericIPAddressField(null=True, blank=True)
    # The physical table whose PIN was guessed: a guess is always of one table.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    objects = PinFailureQuerySet.as_manager()

    class Meta:
        verbose_name = _("wrong PIN")
        verbose_name_plural = _("wrong PINs")
        indexes = [
            models.Index(fields=["address", "at"], name="pin_failure_by_address"),
            models.Index(fields=["table", "at"], name="pin_failure_by_table"),
        ]

    def __str__(self):
        return f"{self.address} {self.table} {self.at:%Y-%m-%d %H:%M:%S}"


class AppealQuerySet(models.QuerySet):
    def waiting(self):
        """The appeals the Director has not decided yet."""
        return self.filter(status__in=self.model.WAITING)

    def decided(self):
        return self.exclude(status__in=self.model.WAITING)

    def holding(self, championship):
        """The ids of ``championship``'s mesas a waiting appeal holds (the control board marks them)."""
        return set(self.waiting().filter(mesa__championship=championship).values_list("mesa_id", flat=True))


class Appeal(models.Model):
    """A pair's appeal against a decision of the juez (Art. 17); see ``refereeing.appeals``."""

    class Status(models.TextChoices):
        FILED = "filed", _("Filed")
        ADMITTED = "admitted", _("Admitted: mesa suspended")
        NOT_ADMITTED = "not_admitted", _("Not admitted")
        UPHELD = "upheld", pgettext_lazy("appeal", "Upheld")
        REJECTED = "rejected", pgettext_lazy("appeal", "Rejected")

    WAITING = (Status.FILED, Status.ADMITTED)  # for the Director

    mesa = models.ForeignKey(Mesa, on_delete=models.PROTECT, related_name="appeals", verbose_name=_("mesa"))
    client_id = models.UUIDField(
        _("device's request id"), unique=True, help_text="Made by the device, so that a retry files the appeal once."
    )
    pair = models.CharField(_("pair"), max_length=1, choices=[("A", "A"), ("B", "B")])
    seq = models.PositiveIntegerField(
        _("decision appealed"), help_text="The seq of the claim whose decision is appealed."
    )
    reason = models.TextField(_("reason"), max_length=2000)
    name = models.CharField(_("filed by"), max_length=150)
    signature = models.TextField(_("signature"), help_text="The representative's signature, as a PNG data URL.")
    filed_at = models.DateTimeField(_("filed at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.FILED)
    suspended_mesa = models.BooleanField(
        _("suspended the mesa"), default=False, help_text="Admitting it suspended the mesa; the ruling resumes it."
    )
    admitted_at = models.DateTimeField(_("admitted at"), null=True, blank=True)
    ruling = models.TextField(_("ruling"), blank=True, max_length=2000)
    ruled_at = models.DateTimeField(_("ruled at"), null=True, blank=True)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("ruled by"),
    )
    # The pairs read the ruling at the table, on the juez's tablet (Art. 17).
    acknowledged_at = models.DateTimeField(_("read by the pairs at"), null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded as read by"),
        help_text="Empty for a tablet opened with the table PIN.",
    )

    objects = AppealQuerySet.as_manager()

    class Meta:
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")
        ordering = ["filed_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["mesa", "pair", "seq"],
                name="one_appeal_per_pair_and_decision",
                violation_error_message=_("This pair has already appealed this decision."),
            ),
            models.CheckConstraint(
                condition=models.Q(seq__gte=1),
                name="appeal_seq_from_one",
                violation_error_message=_("The decision appealed is numbered from 1."),
            ),
        ]

    def __str__(self):
        return f"{self.mesa} #{self.seq} ({self.pair})"
