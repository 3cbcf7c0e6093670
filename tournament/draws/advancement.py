"""A championship's bracket state, decided by the bracket engine alone.

The one adapter between the ``Mesa`` rows and ``engines.bracket``: it
turns a championship's mesas into the engine's specs, results and seated
pairs, asks :func:`engines.bracket.advance`, and writes back what the
engine says. Nothing here decides who goes where.

Terms
-----
spec of a mesa
    Its key (bracket, round, position), its routes (``winner_to`` and
    ``loser_to``, each with its slot) and its draw occupants: the pair in
    each slot that no route feeds (placed by the draw, or there by a bye).
    A slot that a route feeds starts empty; the engine fills it.
result
    A decided mesa's winning slot (finished, or a walkover).
disqualified
    A decided mesa won by zapatería under a rule set whose zapatería
    eliminates (the mesa's own rules: ``a_todo_rigor``, seed 003): its loser
    is out of the championship at once, even in double elimination.
seated
    The pairs of a mesa that has started (``Mesa.has_started``): they stay
    whatever the routes now say. They differ only after the Director
    overrode a correction (Art. 18) of a mesa whose dependents had started.
settle
    After every result or correction, in its transaction: the pairs of
    every mesa that has not started are set to the engine's occupants (a
    mesa that loses a pair goes back to waiting), the reset that will not
    be played (the grand final won by slot A) is left without pairs, and the
    championship's champion is written (None until the last mesa is
    decided). The championship's row is locked first, so two results of one
    championship settle one after the other, each seeing the other's. Each
    mesa it changes has its entry in the audit trail (``pairs_settled``:
    its pairs and status before and after), under the actor and reason of
    the act it follows, even inside the tablets' API: the claim logs of the
    mesas it changes do not show it.
dependents
    The mesas a mesa's result reaches, directly or through other mesas
    (:func:`engines.bracket.dependents`): the ones a correction changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from django.db import transaction

from audit.context import record, recording
from engines import bracket
from engines.rules.rules import ELIMINATES
from live import notify
from tournament.locking import locked
from tournament.models import Championship, Mesa


def key_of(mesa: Mesa) -> bracket.Key:
    return bracket.Key(mesa.bracket, mesa.round, mesa.position)


def specs(mesas: Sequence[Mesa]) -> list[bracket.MatchSpec]:
    """The engine's specs of ``mesas`` (all of a championship's), in the order the draw made them."""
    mesas = sorted(mesas, key=lambda m: m.pk)
    by_pk = {m.pk: m for m in mesas}
    fed: set[tuple[int, str]] = set()
    for mesa in mesas:
        for target, slot in ((mesa.winner_to_id, mesa.winner_to_slot), (mesa.loser_to_id, mesa.loser_to_slot)):
            if target is not None:
                fed.add((target, slot))

    def route(target: int | None, slot: str) -> bracket.Route | None:
        return None if target is None else bracket.Route(key_of(by_pk[target]), slot)

    return [
        bracket.MatchSpec(
            key=key_of(m),
            a=None if (m.pk, "A") in fed else m.pair_a_id,
            b=None if (m.pk, "B") in fed else m.pair_b_id,
            winner_to=route(m.winner_to_id, m.winner_to_slot),
            loser_to=route(m.loser_to_id, m.loser_to_slot),
            group=m.group,
            conditional=m.bracket == Mesa.Bracket.RESET,
        )
        for m in mesas
    ]


def progress(mesas: Sequence[Mesa]) -> bracket.Progress:
    """The engine's :class:`engines.bracket.Progress` of ``mesas`` as they stand."""
    decided = [m for m in mesas if m.status in Mesa.DECIDED]
    results = {key_of(m): "A" if m.winner_id == m.pair_a_id else "B" for m in decided}
    seated = {key_of(m): (m.pair_a_id, m.pair_b_id) for m in mesas if m.has_started}
    disqualified = frozenset(key_of(m) for m in decided if m.zapateria and m.ruleset.zapateria == ELIMINATES)
    return bracket.advance(specs(mesas), results, seated, disqualified)


def void_ids(mesas: Sequence[Mesa]) -> set[int]:
    """The ids of ``mesas`` that will not be played (the reset, once slot A won the grand final)."""
    void = progress(mesas).void
    return {m.pk for m in mesas if key_of(m) in void}


def dependents(mesa: Mesa, mesas: Sequence[Mesa]) -> list[Mesa]:
    """The mesas among ``mesas`` that ``mesa``'s result reaches, in playing order."""
    by_key = {key_of(m): m for m in mesas}
    return [by_key[key] for key in bracket.dependents(specs(mesas), key_of(mesa))]


def settle(championship: Championship) -> bracket.Progress:
    """Write back the engine's occupants and champion (see *settle* above); inside a transaction."""
    with transaction.atomic(), recording():
        championship = locked(Championship.objects.filter(pk=championship.pk)).get()
        mesas = list(championship.mesas.all())
        state = progress(mesas)
        names = None
        for mesa in mesas:
            if mesa.has_started:
                continue
            # The engine's entrants are the pairs' ids it was given.
            a, b = cast("tuple[int | None, int | None]", state.occupants[key_of(mesa)])
            if (a, b) == (mesa.pair_a_id, mesa.pair_b_id):
                continue
            status = mesa.status if a is not None and b is not None else Mesa.Status.WAITING
            # The row may have started since it was read (a first claim): then it keeps its pairs.
            if Mesa.objects.filter(pk=mesa.pk).settle_pairs(a, b, status):
                names = names if names is not None else dict(championship.pairs.values_list("pk", "name"))
                record(mesa, "pairs_settled", _changes(mesa, a, b, status, names))
            notify.changed(championship.pk, [mesa.pk])
        if championship.champion_id != state.champion:
            # Recorded by its save (``recording`` above: inside the tablets' API too).
            championship.champion_id = cast("int | None", state.champion)
            championship.save(update_fields=["champion"])
        return state


def _changes(mesa: Mesa, a: int | None, b: int | None, status: str, names: dict[int, str]) -> dict[str, list[str]]:
    """What settling changed on ``mesa``: its pairs by name ("" for none), and its status."""
    changes = {
        field: ["" if pair is None else names.get(pair, "") for pair in (before, after)]
        for field, before, after in (("pair_a", mesa.pair_a_id, a), ("pair_b", mesa.pair_b_id, b))
        if before != after
    }
    if status != mesa.status:
        changes["status"] = [mesa.status, status]
    return changes
