"""Check-in: marking a pair present or absent at the venue, as an explicit intent.

The intent is stated, never toggled: a second tap on "present" (a double
submit, a retry, a stale page) leaves the pair present and writes no second act.
"""

from django.db import transaction

from audit.context import acting
from tournament.locking import locked
from tournament.models import Pair


def check_in(pair, present, *, by, address=None):
    """Mark ``pair`` present (``True``) or absent; return whether anything changed (audited when it does)."""
    with transaction.atomic(), acting(by, address):
        held = locked(Pair.objects.filter(pk=pair.pk)).get()
        if held.checked_in == present:
            return False
        held.checked_in = present
        held.save(update_fields=["checked_in"])
        return True
