"""What the audit trail records, registered with django-auditlog.

Every save of these models outside the tablets' API writes an entry with
the fields it changed (``audit.middleware`` leaves the API out: the claim
log is its own record):

- the championship: its settings and rules, its Director, the draw's seed;
- pairs and players: registration, edits, check-ins, a new private link
  (masked, like the PIN);
- mesas: table, juez, inspector, pairs, result (walkover, correction, the
  Director's override) and the PIN (masked: the trail says it was
  reissued, never what it is). The state the claim log keeps is left out;
- user accounts: names, activation, groups, a new password (masked);
- appeals and the Director's resolutions: every step.

Acts done by bulk updates, which send no signal (a round's start, an
appeal's conditional step), call ``audit.context.record`` where they are done.

The scope of an entry (championship, mesa) is read from the record it
describes, so that the trail can be filtered by either.
"""

from auditlog.registry import auditlog
from django.contrib.auth import get_user_model

MESA_FIELDS = [
    "pair_a",
    "pair_b",
    "table_number",
    "juez",
    "inspector",
    "pin",
    "first_dealer",
    "status",
    "winner",
    "chicas_a",
    "chicas_b",
    "zapateria",
]


def mask(value):
    """Masked fields (a PIN, a password hash) show that they changed, never a character of them."""
    return "••••••"


def register_models():
    from refereeing.models import Appeal
    from resolutions.models import Resolution
    from tournament.models import Championship, Mesa, Pair, Player

    auditlog.register(Championship, exclude_fields=["created_at"])
    auditlog.register(Pair, mask_fields=["token"], mask_callable="audit.registration.mask")
    auditlog.register(Player)
    auditlog.register(Mesa, include_fields=MESA_FIELDS, mask_fields=["pin"], mask_callable="audit.registration.mask")
    auditlog.register(
        get_user_model(),
        include_fields=[
            "username",
            "first_name",
            "last_name",
            "email",
            "is_active",
            "is_staff",
            "is_superuser",
            "password",
        ],
        mask_fields=["password"],
        mask_callable="audit.registration.mask",
        m2m_fields={"groups"},
    )
    auditlog.register(Appeal, exclude_fields=["signature"])
    auditlog.register(Resolution, m2m_fields={"mesas"})


def scope_of(instance):
    """(championship id, mesa id) of the record an entry describes; None where it has none."""
    from refereeing.models import Appeal
    from resolutions.models import Resolution
    from tournament.models import Championship, Mesa, Pair, Player

    if isinstance(instance, Championship):
        return instance.pk, None
    if isinstance(instance, Mesa):
        return instance.championship_id, instance.pk
    if isinstance(instance, Pair):
        return instance.championship_id, None
    if isinstance(instance, Player):
        return Pair.objects.filter(pk=instance.pair_id).values_list("championship_id", flat=True).first(), None
    if isinstance(instance, Appeal):
        return Mesa.objects.filter(pk=instance.mesa_id).values_list(
            "championship_id", flat=True
        ).first(), instance.mesa_id
    if isinstance(instance, Resolution):
        # The mesas concerned are known once set (their own entry follows the resolution's).
        first = instance.mesas.values_list("pk", flat=True).first() if instance.pk else None
        return instance.championship_id, instance.ajuste_mesa_id or first
    return None, None
