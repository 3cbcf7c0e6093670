"""Check-in: where each pair is on the day, as an explicit intent.

Terms
-----
arrival
    A registered pair is *expected* (on its way, or not heard of yet) until
    the desk marks it *present* (it came) or *withdrawn* (it is not coming,
    or left). The draw takes the present pairs; at the draw the desk sees
    the pairs still expected and chooses to wait for them or to draw without
    them (``tournament.draws``).

The intent is stated, never toggled: a second tap on "present" (a double
submit, a retry, a stale page) leaves the pair present and writes no second act.
While the organiser keeps it open (``Championship.self_check_in``), an expected
pair marks itself present from its own page while it can still play: before
the draw (the draw will take it), or once drawn if the bracket holds it. A
pair the drawn bracket left out cannot (only the desk adds it to the draw,
until play starts), and a pair never marks itself withdrawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from audit.context import acting, because, record
from tournament.locking import locked
from tournament.models import Championship, Mesa, Pair

if TYPE_CHECKING:
    from django.contrib.auth.models import User


Arrival = Pair.Arrival


def set_arrival(pair: Pair, arrival: str, *, by: User | str, address: str | None = None) -> bool:
    """Mark ``pair`` expected, present or withdrawn (:class:`Pair.Arrival`); return whether anything changed
    (audited when it does)."""
    arrival = Arrival(arrival)
    with transaction.atomic(), acting(by, address):
        held = locked(Pair.objects.filter(pk=pair.pk)).get()
        if held.arrival == arrival:
            return False
        held.arrival = arrival
        held.save(update_fields=["arrival"])
        return True


def in_bracket(pair: Pair) -> bool:
    """Whether the bracket holds ``pair``: a mesa of it names the pair."""
    return Mesa.objects.filter(Q(pair_a=pair) | Q(pair_b=pair)).exists()


def may_check_in_itself(pair: Pair) -> bool:
    """Whether ``pair``'s own page offers to mark it present now (see the module's docstring)."""
    if not pair.championship.self_check_in or pair.arrival != Arrival.EXPECTED:
        return False
    return not pair.championship.mesas.exists() or in_bracket(pair)


def check_in_itself(pair: Pair, *, by: User | None, address: str | None = None) -> bool:
    """The pair, from its own page, says it is here: present if check-in is open to it; return whether
    it changed (audited with its reason). ``by``: the signed-in user whose browser sent it, or None:
    the pair itself, which the trail names as acting through its private link."""
    with transaction.atomic():
        held = locked(Pair.objects.filter(pk=pair.pk)).select_related("championship").get()
        if not may_check_in_itself(held):
            return False
        actor = by or _("Pair %(name)s (private link)") % {"name": held.name}
        with because(_("The pair checked itself in from its own page.")):
            return set_arrival(held, Arrival.PRESENT, by=actor, address=address)


def mark_all_present(championship: Championship, *, by: User, address: str | None = None) -> list[str]:
    """Mark every expected pair of ``championship`` present in one act (the withdrawn stay withdrawn); return
    their names (audited once, naming them: a bulk update sends no signal)."""
    with transaction.atomic(), acting(by, address):
        expected = championship.pairs.filter(arrival=Arrival.EXPECTED)
        marked = list(locked(expected).order_by("name").values_list("name", flat=True))
        if marked:
            expected.update(arrival=Arrival.PRESENT)
            record(championship, "all_checked_in", {"present": ["", ", ".join(marked)]})
        return marked
