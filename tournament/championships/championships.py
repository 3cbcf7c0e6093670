"""A championship's own settings saved as one act: its name, dates, sede, Director and rule set."""

from django.db import transaction

from audit.context import acting
from tournament.seating import seating


def save_championship(championship, *, by, address=None):
    """Save ``championship`` (new or edited) and seat what now waits; ``by`` (from ``address``) is named
    in the entries. Seating turned on, or more tables, seats the waiting mesas now, not at the next result."""
    with transaction.atomic(), acting(by, address):
        championship.save()
        seating.auto_seat(championship, by=by)
    return championship
