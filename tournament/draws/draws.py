"""Drawing a championship's mesas, and ranking its round-robin groups.

Terms
-----
present
    A pair checked in at the venue (``tournament.pairs.checkin``). The draw
    takes the present pairs only; the draw page lists the pairs still
    expected, and the organiser waits for them or draws without them (the
    withdrawn are not asked about). A pair absent from a later mesa loses it
    by walkover.
draw
    Turning the present pairs into the bracket's mesas, in one
    transaction, with the bracket engine (``engines.bracket.draw``). The
    random seed of the draw is kept on the championship, so the same pairs
    and seed give the same bracket again. Pairs with a bye go straight into
    their second mesa. The championship's row is locked first: of two draws
    at once, the second finds the bracket drawn and is refused.
knockout after groups
    Once every group mesa is decided, the single elimination of the best
    ``advance_per_group`` pairs of each group, ranked by the engine.
draw order
    The drawn pairs from seed 1 down, as the engine placed them
    (``Championship.draw_order``). The engine places an order the same way
    every time, so the order is the draw.
correction
    Until the first mesa starts, the organiser may add a late pair (it takes
    the order's next place: the bye of the pair it now meets is replaced;
    or the seeded place its rating gives it, whose pair takes the next),
    withdraw one (the last of the order takes its place, so one bye more and
    every other pair where it was) or swap two; the order so edited is drawn
    again, and only the mesas whose pairs change are written (a mesa keeps
    its table, juez and PIN). The preview lists those mesas before the
    organiser confirms. A pair not in the bracket once play has started did
    not enter it: its page and the desk say so.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from django.db import transaction
from django.db.models import Count, F
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from audit.context import acting, record
from engines import bracket
from live import notify
from tournament.errors import ActionRefused
from tournament.language import speak
from tournament.locking import locked, reload_locked
from tournament.models import Championship, Mesa, Pair
from tournament.seating import seating
from tournament.seating.seating import bracket_order

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable, Mapping, Sequence

    from django.contrib.auth.models import User
    from django.db.models import QuerySet


def attendance(championship: Championship) -> dict[str, int]:
    """How many of the championship's pairs are in each state of arrival: ``{"expected": n, "present": n,
    "withdrawn": n}``."""
    counts = championship.pairs.values("arrival").annotate(n=Count("id")).order_by()
    return dict.fromkeys(Pair.Arrival.values, 0) | {row["arrival"]: row["n"] for row in counts}


def expected_pairs(championship: Championship) -> QuerySet[Pair]:
    """The registered pairs still expected (neither present nor withdrawn): a draw now leaves them out."""
    return championship.pairs.filter(arrival=Pair.Arrival.EXPECTED).order_by(F("seed").asc(nulls_last=True), "name")


def draw_bracket(
    championship: Championship, seed: int | None = None, *, by: User, address: str | None = None
) -> list[Mesa]:
    """Create every mesa of the championship's bracket from its present pairs.

    The bracket engine (``engines.bracket``) places seeded pairs by their
    seed and shuffles the rest with ``seed``, the random draw's seed (a new
    one when None), which is kept on the championship. Pairs with a bye go
    straight into their second mesa. Refused when the bracket is already
    drawn or the engine refuses the draw. Audited by the championship's save of its seed.
    """
    with transaction.atomic(), acting(by, address):
        reload_locked(championship)
        pairs = list(championship.pairs.filter(arrival=Pair.Arrival.PRESENT).order_by("seed", "name"))
        if championship.mesas.exists():
            raise ActionRefused(_("The bracket is already drawn."))
        if len(pairs) < 2:
            raise ActionRefused(_("At least two pairs must be present (checked in) to draw the bracket."))
        try:
            result = bracket.draw(
                [p.pk for p in pairs],
                championship.bracket_format,
                seeds={p.pk: p.seed for p in pairs if p.seed is not None},
                random_seed=bracket.new_random_seed() if seed is None else seed,
                third_place=championship.third_place,
                group_size=championship.group_size,
            )
        except bracket.BracketError as error:
            raise ActionRefused(speak(error)) from None
        championship.draw_seed = result.random_seed
        championship.draw_order = list(result.order)
        # Audited by this save (its seed, before and after), as the acting organiser's.
        championship.save(update_fields=["draw_seed", "draw_order"])
        return _seat(championship, _write_mesas(championship, result.specs))


def draw_knockout(championship: Championship, *, by: User, address: str | None = None) -> list[Mesa]:
    """After round-robin groups, draw the single elimination of the best
    ``advance_per_group`` pairs of each group (ranked by the bracket engine:
    wins, chica difference, point difference, head-to-head). Audited."""
    with transaction.atomic(), acting(by, address):
        reload_locked(championship)
        mesas = list(championship.mesas.all())
        groups = [m for m in mesas if m.bracket == Mesa.Bracket.GROUP]
        if not groups:
            raise ActionRefused(_("The groups have not been drawn."))
        if any(m.bracket != Mesa.Bracket.GROUP for m in mesas):
            raise ActionRefused(_("The knockout is already drawn."))
        pending = [m for m in groups if m.status not in Mesa.DECIDED]
        if pending:
            raise ActionRefused(
                ngettext(
                    "%(n)d group mesa has no result yet.",
                    "%(n)d group mesas have no result yet.",
                    len(pending),
                )
                % {"n": len(pending)}
            )
        ranked = {group: [row.entrant for row in rows] for group, rows in group_standings(groups).items()}
        try:
            result = bracket.knockout_after_groups(ranked, championship.advance_per_group, championship.third_place)
        except bracket.BracketError as error:
            raise ActionRefused(speak(error)) from None
        mesas = _seat(championship, _write_mesas(championship, result.specs))
        record(championship, "knockout_drawn")
        return mesas


def group_standings(mesas: Iterable[Mesa]) -> dict[int, list[bracket.Standing]]:
    """{group: [bracket.Standing]} from the decided group mesas among ``mesas``."""
    results: dict[int, list[bracket.GroupResult]] = {}
    entrants: dict[int, list[int]] = {}
    for mesa in mesas:
        if mesa.group is None:
            continue
        entrants.setdefault(mesa.group, []).extend(p for p in (mesa.pair_a_id, mesa.pair_b_id) if p)
        if mesa.winner_id is None:
            continue
        points = {"A": 0, "B": 0}
        for chica in (mesa.state or {}).get("chica_results", []):
            for side in points:
                points[side] += chica["scores"][side]
        results.setdefault(mesa.group, []).append(
            bracket.GroupResult(
                a=mesa.pair_a_id,
                b=mesa.pair_b_id,
                winner="A" if mesa.winner_id == mesa.pair_a_id else "B",
                chicas_a=mesa.chicas_a,
                chicas_b=mesa.chicas_b,
                points_a=points["A"],
                points_b=points["B"],
            )
        )
    return {group: bracket.standings(results.get(group, []), members) for group, members in sorted(entrants.items())}


def drawn_pair_ids(championship: Championship) -> set[int]:
    """The pairs the bracket holds: every pair of one of its mesas."""
    ids: set[int] = set()
    for a, b in championship.mesas.values_list("pair_a_id", "pair_b_id"):
        ids.update(p for p in (a, b) if p is not None)
    return ids


def play_started(championship: Championship) -> bool:
    """Whether a mesa of the championship has started: the draw can no longer be corrected."""
    return championship.mesas.exclude(**Mesa.NOT_STARTED).exists()


ADD, WITHDRAW, SWAP = "add", "withdraw", "swap"
CORRECTIONS = {
    ADD: gettext_lazy("Add a late pair"),
    WITHDRAW: gettext_lazy("Withdraw a pair"),
    SWAP: gettext_lazy("Swap two pairs"),
}


@dataclass(frozen=True)
class MesaChange:
    """A mesa a correction changes: its place, and its pairs before and after (``None``: no mesa there)."""

    mesa: str
    before: tuple[str, ...] | None
    after: tuple[str, ...] | None


@dataclass(frozen=True)
class Correction:
    seen: str  # the digest of the order it was planned from (:func:`digest`)
    order: list[int]
    specs: tuple[bracket.MatchSpec, ...]
    changes: list[MesaChange]  # in bracket order


def digest(order: Iterable[object]) -> str:
    """A short fingerprint of a draw order: a confirmation names the order its preview showed."""
    return hashlib.sha256(",".join(map(str, order)).encode()).hexdigest()[:16]


def plan_correction(
    championship: Championship, action: str, pair: Pair, other: Pair | None = None, place: int | None = None
) -> Correction:
    """What ``action`` (:data:`CORRECTIONS`) on ``pair`` (and ``other``, for a swap) would make of the
    bracket, without saving it: the new order, the specs and the mesas that change. Refused as the
    correction would be (see *correction* above). ``place``: the place of the order a late pair takes
    (its strength's, ``tournament.ratings.seeding.late_place``), the pair that held it taking the next."""
    mesas = list(championship.mesas.select_related("pair_a", "pair_b"))
    if not mesas:
        raise ActionRefused(_("The bracket is not drawn yet: the draw takes every present pair."))
    if any(m.has_started for m in mesas):
        raise ActionRefused(_("A mesa has started: the draw can no longer be corrected."))
    if any(m.bracket != Mesa.Bracket.GROUP for m in mesas) and any(m.bracket == Mesa.Bracket.GROUP for m in mesas):
        raise ActionRefused(_("The knockout is already drawn."))
    if any(each is not None and each.championship_id != championship.pk for each in (pair, other)):
        raise ActionRefused(_("This pair is registered in another championship."))
    order = _order(championship, mesas)
    seen = digest(order)
    if action == ADD:
        if pair.pk in order:
            raise ActionRefused(_("%(pair)s is already in the bracket.") % {"pair": pair})
        order.append(pair.pk)
        if place is not None:
            if not 1 <= place < len(order):
                raise ActionRefused(_("The place must be from 1 to %(n)d.") % {"n": len(order) - 1})
            order[place - 1], order[-1] = order[-1], order[place - 1]
    elif action in (WITHDRAW, SWAP):
        for each in (pair, other) if action == SWAP else (pair,):
            if each is None or each.pk not in order:
                raise ActionRefused(_("%(pair)s is not in the bracket.") % {"pair": each or "—"})
        if action == WITHDRAW:
            if len(order) <= 2:
                raise ActionRefused(_("A bracket needs at least two pairs."))
            last = order.pop()
            if last != pair.pk:
                order[order.index(pair.pk)] = last
        elif other is None:  # a swap's other pair was checked above
            raise AssertionError
        elif pair.pk == other.pk:
            raise ActionRefused(_("Choose two different pairs to swap."))
        else:
            i, j = order.index(pair.pk), order.index(other.pk)
            order[i], order[j] = order[j], order[i]
    else:
        raise ActionRefused(_("Unknown correction."))
    try:
        # No seeds and no random seed: the engine places the order as it is.
        specs = bracket.draw(
            order,
            championship.bracket_format,
            third_place=championship.third_place,
            group_size=championship.group_size,
        ).specs
    except bracket.BracketError as error:
        raise ActionRefused(speak(error)) from None
    names = dict(championship.pairs.filter(pk__in={*order, pair.pk}).values_list("pk", "name"))
    return Correction(seen, order, specs, _changes(mesas, specs, names))


def _order(championship: Championship, mesas: Iterable[Mesa]) -> list[int]:
    if championship.draw_order:
        return list(championship.draw_order)
    # Drawn before the order was kept: the same pairs, seeds and random seed give it again.
    drawn = {p for m in mesas for p in (m.pair_a_id, m.pair_b_id) if p is not None}
    pairs = championship.pairs.filter(pk__in=drawn)
    order = bracket.draw(
        [p.pk for p in pairs],
        championship.bracket_format,
        seeds={p.pk: p.seed for p in pairs if p.seed is not None},
        random_seed=championship.draw_seed,
        group_size=championship.group_size,
    ).order
    return [cast(int, entrant) for entrant in order]  # the engine's entrants are the ids it was given


def _changes(mesas: Iterable[Mesa], specs: Sequence[bracket.MatchSpec], names: Mapping[int, str]) -> list[MesaChange]:
    before = {(m.bracket, m.round, m.position): (m.pair_a_id, m.pair_b_id) for m in mesas}
    after: dict[tuple[str, int, int], tuple[int | None, int | None]] = {
        spec.key: (_pair_id(spec.a), _pair_id(spec.b)) for spec in specs
    }
    changes: list[MesaChange] = []
    for key in sorted(
        before.keys() | after.keys(), key=lambda k: bracket_order(Mesa(bracket=k[0], round=k[1], position=k[2]))
    ):
        old, new = before.get(key), after.get(key)
        if old == new or not any(old or ()) and not any(new or ()):
            continue
        shown = [
            None if pairs is None else tuple("" if p is None else names.get(p, "") for p in pairs)
            for pairs in (old, new)
        ]
        changes.append(MesaChange(str(Mesa(bracket=key[0], round=key[1], position=key[2])), *shown))
    return changes


def correct_draw(
    championship: Championship,
    action: str,
    pair: Pair,
    other: Pair | None = None,
    place: int | None = None,
    *,
    seen: str | None = None,
    by: User,
    address: str | None = None,
) -> Correction:
    """Correct the draw before play (see *correction* above): planned again under the championship's
    lock, the mesas written, the added pair marked present and the withdrawn one withdrawn, audited.
    ``seen``: the :attr:`Correction.seen` of the preview confirmed; refused when the draw has changed
    since (a second tap on a swap would swap back). Returns the :class:`Correction`."""
    with transaction.atomic(), acting(by, address):
        reload_locked(championship)
        correction = plan_correction(championship, action, pair, other, place)
        if seen is not None and seen != correction.seen:
            raise ActionRefused(_("The draw has changed since this preview: check the new one."))
        mesas = list(locked(championship.mesas.all()))
        _seat(championship, _write_mesas(championship, correction.specs, mesas))
        championship.draw_order = correction.order
        championship.save(update_fields=["draw_order"])
        if action in (ADD, WITHDRAW):
            arrival = Pair.Arrival.PRESENT if action == ADD else Pair.Arrival.WITHDRAWN
            Pair.objects.filter(pk=pair.pk).update(arrival=arrival)
        record(
            championship,
            "draw_corrected",
            {
                str(CORRECTIONS[action]): ["", " ↔ ".join(p.name for p in (pair, other) if p is not None)],
                "mesas": ["", "; ".join(c.mesa for c in correction.changes)],
            },
        )
        return correction


def _pair_id(entrant: Hashable | None) -> int | None:
    """A pair's id as the bracket engine hands it back: its entrants are the ids it was given."""
    return cast("int | None", entrant)


def _seat(championship: Championship, made: list[Mesa]) -> list[Mesa]:
    """The mesas ``made``, once those the championship seats automatically are seated (``seating.auto_seat``)."""
    seating.auto_seat(championship, by=None)
    return made


def _write_mesas(
    championship: Championship, specs: Sequence[bracket.MatchSpec], current: Iterable[Mesa] = ()
) -> list[Mesa]:
    """The mesas of ``specs``: the ``current`` ones of the same place get the spec's pairs (keeping
    their table, juez and PIN), the others are created and the ``current`` ones left out deleted;
    then the routes between them."""
    by_key = {(m.bracket, m.round, m.position): m for m in current}
    for spec in specs:
        mesa = by_key.get(spec.key)
        if mesa is None or (mesa.pair_a_id, mesa.pair_b_id) == (spec.a, spec.b):
            continue
        mesa.pair_a_id, mesa.pair_b_id = _pair_id(spec.a), _pair_id(spec.b)
        if spec.a is None or spec.b is None:
            mesa.status = Mesa.Status.WAITING  # a ready mesa waits again for its second pair
        mesa.save(update_fields=["pair_a", "pair_b", "status"])
    wanted = {spec.key for spec in specs}
    gone = [m.pk for key, m in by_key.items() if key not in wanted]
    if gone:
        # Not started (the correction checked): no claim, appeal or signature holds them.
        Mesa.objects.filter(pk__in=gone).remove_unstarted()
    created = Mesa.objects.bulk_create(
        [
            Mesa(
                championship=championship,
                bracket=spec.key.bracket,
                round=spec.key.round,
                position=spec.key.position,
                group=spec.group,
                pair_a_id=_pair_id(spec.a),
                pair_b_id=_pair_id(spec.b),
            )
            for spec in specs
            if spec.key not in by_key
        ]
    )
    by_key.update({(m.bracket, m.round, m.position): m for m in created})
    mesas = [by_key[spec.key] for spec in specs]
    for spec, mesa in zip(specs, mesas):
        for name in ("winner_to", "loser_to"):
            route = getattr(spec, name)
            setattr(mesa, name, None if route is None else by_key[route.key])
            setattr(mesa, name + "_slot", "" if route is None else route.slot)
    Mesa.objects.bulk_update(mesas, ["winner_to", "winner_to_slot", "loser_to", "loser_to_slot"], batch_size=500)
    notify.changed(championship.pk)
    return mesas
