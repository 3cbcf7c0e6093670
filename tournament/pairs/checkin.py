"""Check-in: marking a pair present or absent at the venue, as an explicit intent.

The intent is stated, never toggled: a second tap on "present" (a double
submit, a retry, a stale page) leaves the pair present and writes no second act.
While the organiser keeps it open (``Championship.self_check_in``), a pair
marks itself present from its own page; never absent (only the desk does).
"""

from django.db import transaction
from django.utils.translation import gettext as _

from audit.context import acting, because, record
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


def may_check_in_itself(pair):
    """Whether ``pair``'s own page offers to mark it present now."""
    return pair.championship.self_check_in and not pair.checked_in


def check_in_itself(pair, *, by, address=None):
    """The pair, from its own page, says it is here: present if check-in is open to it; return whether
    it changed (audited with its reason). ``by``: the signed-in user whose browser sent it, or None:
    the pair itself, which the trail names as acting through its private link."""
    with transaction.atomic():
        held = locked(Pair.objects.filter(pk=pair.pk)).select_related("championship").get()
        if not may_check_in_itself(held):
            return False
        actor = by or _("Pair %(name)s (private link)") % {"name": held.name}
        with because(_("The pair checked itself in from its own page.")):
            return check_in(held, True, by=actor, address=address)


def mark_all_present(championship, *, by, address=None):
    """Mark every absent pair of ``championship`` present in one act; return their names (audited
    once, naming them: a bulk update sends no signal)."""
    with transaction.atomic(), acting(by, address):
        absent = locked(championship.pairs.filter(checked_in=False))
        marked = list(absent.order_by("name").values_list("name", flat=True))
        if marked:
            championship.pairs.filter(checked_in=False).update(checked_in=True)
            record(championship, "all_checked_in", {"present": ["", ", ".join(marked)]})
        return marked
