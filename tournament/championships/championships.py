"""A championship's own settings saved as one act: its name, dates, sede, Director and rule set."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from audit.context import acting
from tournament.seating import seating

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from tournament.models import Championship


def save_championship(championship: Championship, *, by: User, address: str | None = None) -> Championship:
    """Save ``championship`` (new or edited) and seat what now waits; ``by`` (from ``address``) is named
    in the entries. Seating turned on, or more tables, seats the waiting mesas now, not at the next result."""
    with transaction.atomic(), acting(by, address):
        championship.save()
        seating.auto_seat(championship, by=by)
    return championship
