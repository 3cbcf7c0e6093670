"""A mesa's result: recorded from the engine's state, a walkover, or corrected.

Terms
-----
decided
    Finished (by the rules engine's state, Art. 3g.7) or a walkover (a
    no-show). Only a mesa that has started can finish; a walkover needs
    both pairs known.
advance
    Every result is followed by ``advancement.settle``: the bracket engine
    sends the winner and the loser on (Art. 12: in double elimination a
    first defeat does not eliminate), voids the grand final's reset when the
    winners' bracket champion wins it, and names the champion. Then, where
    the championship seats automatically, the mesas that now have both
    pairs, or the table and juez the result freed, are seated
    (``seating.auto_seat``), in the same transaction.
correction
    A decided mesa's result changed. Refused, naming the blocking mesas,
    while any mesa its result reaches (its dependents) has started; the
    championship's Director may override (Art. 18): the dependents that
    have started keep their pairs, the others get the corrected ones.
rating
    A mesa finished at the table rates its players (``ratings``), in the
    same transaction; a correction rebuilds the ratings from its place in
    the order the mesas ended. A walkover rates no one.

Each act takes the user who does it (``by``) and writes its audit entries,
with its reason, in its own transaction. Every function here either does
all it says or raises ``ActionRefused``
and saves nothing. Each locks the mesa's row and reads it again before it
checks anything, so that two acts on one mesa at once (two walkovers, a
walkover and a correction, a double submit) take turns: the second sees the
first's result and is refused, or changes nothing that needs an entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from audit.context import acting, because
from tournament.draws import advancement
from tournament.errors import ActionRefused
from tournament.locking import reload_locked
from tournament.models import Mesa
from tournament.naming import mesa_at_table, mesa_label
from tournament.policy import EMERGENCY_RESULT, OVERRIDE, may
from tournament.ratings import ratings
from tournament.seating import seating

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def record_result(mesa: Mesa) -> None:
    """Write the engine's finished state into the mesa, and advance its pairs.

    Called by the claim log inside its transaction once ``mesa.state`` says
    the mesa is finished (two chicas, or a zapatería: Art. 3g.6–7).
    """
    state = mesa.state or {}
    # The saved row, not the caller's copy, says whether a result is already
    # recorded: the claim log may have copied the engine's state into its copy.
    if Mesa.objects.filter(pk=mesa.pk, status__in=Mesa.DECIDED).exists():
        raise ActionRefused(_("%(mesa)s already has a result.") % {"mesa": mesa_label(mesa)})
    if not mesa.has_started:
        raise ActionRefused(_("%(mesa)s has not started; it cannot have a result yet.") % {"mesa": mesa_label(mesa)})
    if not state.get("finished") or state.get("winner") not in ("A", "B"):
        raise ActionRefused(_("%(mesa)s is not finished: no pair has won it yet.") % {"mesa": mesa_label(mesa)})
    chicas = state.get("chicas") or {}
    with transaction.atomic():
        _decide(
            mesa,
            Mesa.Status.FINISHED,
            state["winner"],
            chicas.get("A", 0),
            chicas.get("B", 0),
            bool(state.get("zapateria")),
        )
        _advance(mesa)
        # Last: on PostgreSQL the ratings' lock is then held only until the commit.
        ratings.mesa_decided(mesa)


def record_walkover(mesa: Mesa, winner_side: str, *, by: User, reason: str = "") -> None:
    """A no-show: the pair on ``winner_side`` wins the mesa without playing."""
    with transaction.atomic(), acting(by), because(reason):
        reload_locked(mesa)
        if mesa.status in Mesa.DECIDED:
            raise ActionRefused(_("%(mesa)s already has a result.") % {"mesa": mesa_label(mesa)})
        if mesa.pair_a_id is None or mesa.pair_b_id is None:
            raise ActionRefused(_("%(mesa)s does not know both its pairs yet.") % {"mesa": mesa_label(mesa)})
        if winner_side not in ("A", "B"):
            raise ActionRefused(_("The winner of a walkover must be a pair of the mesa."))
        to_win = mesa.ruleset.chicas_to_win
        _decide(
            mesa,
            Mesa.Status.WALKOVER,
            winner_side,
            to_win if winner_side == "A" else 0,
            to_win if winner_side == "B" else 0,
            False,
        )
        _advance(mesa)


def correct_result(
    mesa: Mesa,
    winner_side: str,
    chicas_a: int,
    chicas_b: int,
    zapateria: bool = False,
    *,
    by: User,
    override: bool = False,
    reason: str = "",
    emergency: bool = False,
) -> None:
    """Correct a decided mesa's result (see *correction* above); ``emergency``: a
    superuser overrides as the Director would (``manage.py emergency_result``).
    An override states its reason (Art. 18), which the audit entries carry."""
    reason = (reason or "").strip()
    overriding = override and (may(by, EMERGENCY_RESULT) if emergency else may(by, OVERRIDE, mesa))
    if overriding and not reason:
        raise ActionRefused(_("The Director's override states its reason (Art. 18)."))
    if emergency:
        reason = _("Emergency result by the Comité: %(reason)s") % {"reason": reason}
    elif overriding:
        reason = _("Director's override (Art. 18): %(reason)s") % {"reason": reason}
    with transaction.atomic(), acting(by), because(reason):
        reload_locked(mesa)
        _check_correction(mesa, winner_side, chicas_a, chicas_b, by, overriding)
        _decide(mesa, mesa.status, winner_side, chicas_a, chicas_b, zapateria)
        _advance(mesa)
        ratings.mesa_changed(mesa)


def _check_correction(mesa: Mesa, winner_side: str, chicas_a: int, chicas_b: int, user: User, overriding: bool) -> None:
    if mesa.status not in Mesa.DECIDED:
        raise ActionRefused(
            _("Only a decided mesa can be corrected; %(mesa)s has no result.") % {"mesa": mesa_label(mesa)}
        )
    if winner_side not in ("A", "B") or mesa.pair(winner_side) is None:
        raise ActionRefused(_("The winner must be a pair of the mesa."))
    to_win = mesa.ruleset.chicas_to_win
    won, lost = (chicas_a, chicas_b) if winner_side == "A" else (chicas_b, chicas_a)
    if not (0 <= lost < won <= to_win):
        raise ActionRefused(_("The winner must have more chicas than the loser, and at most %(n)d.") % {"n": to_win})
    blocking = [d for d in advancement.dependents(mesa, list(mesa.championship.mesas.all())) if d.has_started]
    if not blocking or overriding:
        return
    names = ", ".join(mesa_at_table(d) for d in blocking)
    raise ActionRefused(
        ngettext(
            "The result cannot be corrected: %(mesas)s has already started. Only the Director can override.",
            "The result cannot be corrected: %(mesas)s have already started. Only the Director can override.",
            len(blocking),
        )
        % {"mesas": names},
        blocking,
    )


def _advance(mesa: Mesa) -> None:
    advancement.settle(mesa.championship)
    seating.auto_seat(mesa.championship, by=None)
    seating.auto_seat_others(mesa.championship)


def _decide(mesa: Mesa, status: str, winner_side: str, chicas_a: int, chicas_b: int, zapateria: bool) -> None:
    mesa.status = status
    mesa.winner = mesa.pair(winner_side)
    mesa.chicas_a, mesa.chicas_b, mesa.zapateria = chicas_a, chicas_b, zapateria
    mesa.finished_at = mesa.finished_at or timezone.now()
    mesa.save(update_fields=["status", "winner", "chicas_a", "chicas_b", "zapateria", "finished_at"], deciding=True)
