"""A championship's own settings saved as one act: its name, dates, sede, Director and rule set."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from audit.context import acting
from tournament.models import Championship
from tournament.seating import seating

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def save_championship(
    championship: Championship | None = None, *, by: User, address: str | None = None, **settings: object
) -> Championship:
    """Save ``championship`` (a new one when None) with its ``settings`` (the model's fields: name, dates,
    sede, Director, ``ruleset_profile`` and ``ruleset_overrides``, format...) and seat what now waits; ``by``
    (from ``address``) is named in the entries. The model refuses what play has frozen (its rules, its
    bracket's shape). Seating turned on, or more tables, seats the waiting mesas now, not at the next result."""
    championship = championship or Championship()
    for name, value in settings.items():
        setattr(championship, name, value)
    with transaction.atomic(), acting(by, address):
        championship.save()
        seating.auto_seat(championship, by=by)
    return championship
