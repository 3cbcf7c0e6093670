"""What the audit trail records of the championships' records (``audit.registration``), registered by
``TournamentConfig.ready``, with the championship and mesa each entry is about."""

from django.contrib.auth import get_user_model

from audit.registration import register

from .models import Championship, Mesa, Pair, Player, Sede, Table
from .ratings.models import Doubt, Person, PersonChange

MESA_FIELDS = [
    "pair_a",
    "pair_b",
    "table_number",
    "juez",
    "inspector",
    "first_dealer",
    "status",
    "winner",
    "chicas_a",
    "chicas_b",
    "zapateria",
]


def register_models() -> None:
    # The draw's order is pair ids, for the draw's corrections: the trail records the seed and the acts.
    register(Championship, lambda c: (c.pk, None), exclude_fields=["created_at", "draw_order"])
    register(Sede)
    register(Table, mask_fields=["pin"], mask_callable="audit.registration.mask")
    register(Pair, lambda p: (p.championship_id, None), mask_fields=["token"], mask_callable="audit.registration.mask")
    register(
        Player,
        lambda p: (Pair.objects.filter(pk=p.pair_id).values_list("championship_id", flat=True).first(), None),
    )
    register(Mesa, lambda m: (m.championship_id, m.pk), include_fields=MESA_FIELDS)
    # Persons are of no one championship; the desk's answer to a doubt is its player's championship's.
    register(Person, exclude_fields=["name_key", "club_key", "created_at"])
    register(PersonChange, exclude_fields=["at"])
    register(
        Doubt,
        lambda d: (Pair.objects.filter(players=d.player_id).values_list("championship_id", flat=True).first(), None),
    )
    register(
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
