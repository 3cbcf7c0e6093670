"""Advancement: who plays which mesa, given the results so far.

Rules and terms
---------------
result
    A finished mesa's winning slot, ``"A"`` or ``"B"``, by key. A walkover
    is a result like any other.
occupants
    The two entrants of a mesa once known: the draw's initial occupants,
    then every result sends its winner along ``winner_to`` and its loser
    along ``loser_to``.
defeats, eliminated, champion
    Each lost mesa is one defeat. An entrant is eliminated when it has
    lost a mesa that sends its loser nowhere (the second defeat in double
    elimination, the first in single elimination) and it has nothing left to
    play; the third-place mesa's winner also has nothing left to play and is
    listed with the eliminated. The champion is the winner of the last mesa
    of the bracket: the final, the grand final won by slot A, or the reset.
disqualified
    The decided mesas whose loser is out of the championship at once,
    whatever its route says: a zapatero under a rule set whose zapatería
    eliminates (``a_todo_rigor``, seed 003: "Losing as zapatero immediately
    disqualifies the team"), even where double elimination would give it
    a second life. The slot its route fed is left for nobody.
slot left for nobody
    A mesa one of whose slots no entrant will fill is not played (it is
    listed as void): the entrant in the other slot goes on as past a bye,
    with no defeat for anyone, and the slot its loser's route feeds is left
    for nobody in turn. With both slots left, both routes are.
group mesas
    Their results only count defeats here; the group table is
    :func:`.groups.standings`.
reset
    The grand final reset is needed only if slot B (the losers' bracket
    champion) wins the grand final; if slot A wins, the reset is void.
seated
    The occupants of a mesa that has started, as they sat down: results no
    longer move them (they differ from what the routes say only after the
    Director overrode a correction, Art. 18, and the mesa was already being
    played by the pairs it had).
dependents
    The mesas whose occupants depend, directly or through other mesas, on a
    given mesa's result. A corrected result changes them, so a correction is
    refused while any of them has started; the Director's override resets
    the ones not yet started.
"""

import heapq
from collections import Counter
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .specs import GROUP, SLOTS, THIRD_PLACE, BracketError, Key, MatchSpec, Route


@dataclass(frozen=True)
class Progress:
    occupants: Mapping[Key, tuple[Hashable | None, ...]]  # key -> (entrant in A or None, entrant in B or None)
    ready: tuple[Key, ...]  # keys with both occupants and no result, in playing order
    void: frozenset[Key]  # keys that will not be played (the reset when A wins the grand final)
    defeats: Mapping[Hashable, int]
    eliminated: frozenset[Hashable]
    champion: Hashable | None
    reset_needed: bool | None  # None until the grand final is decided (or without one)


def playing_order(specs: Iterable[MatchSpec]) -> list[MatchSpec]:
    """The specs sorted so that every mesa comes after the mesas feeding it;
    among the mesas free to go, the one given first goes first, so a draw's
    own order is kept."""
    specs = list(specs)
    index = {spec.key: i for i, spec in enumerate(specs)}
    if len(index) != len(specs):
        raise BracketError("Dos mesas tienen el mismo lugar en la llave.", "Two mesas have the same key.")
    feeding: Counter[Key] = Counter()
    for spec in specs:
        for route in (spec.winner_to, spec.loser_to):
            if route is not None:
                if route.key not in index:
                    raise BracketError(
                        f"La mesa {spec.key} envía una pareja a {route.key}, que no está en el sorteo.",
                        f"Mesa {spec.key} sends an entrant to {route.key}, which is not in the draw.",
                    )
                feeding[route.key] += 1
    free = [i for i, spec in enumerate(specs) if not feeding[spec.key]]
    heapq.heapify(free)
    ordered: list[MatchSpec] = []
    while free:
        spec = specs[heapq.heappop(free)]
        ordered.append(spec)
        for route in (spec.winner_to, spec.loser_to):
            if route is not None:
                feeding[route.key] -= 1
                if not feeding[route.key]:
                    heapq.heappush(free, index[route.key])
    if len(ordered) != len(specs):
        raise BracketError("Las rutas de las mesas forman un círculo.", "The mesas' routes go round in a circle.")
    return ordered


def advance(
    specs: Iterable[MatchSpec],
    results: Mapping[Key, str],
    seated: Mapping[Key, Sequence[Hashable | None]] | None = None,
    disqualified: Collection[Key] = frozenset(),
) -> Progress:
    """Play ``results`` (key -> winning slot) through the draw's ``specs``;
    ``seated`` (key -> (a, b)) holds the mesas that have started;
    ``disqualified`` the keys of results whose loser is out at once."""
    seated = seated or {}
    ordered = playing_order(specs)
    by_key = {spec.key: spec for spec in ordered}
    for key, given in results.items():
        if key not in by_key:
            raise BracketError(
                f"No hay una mesa {_label(key)} en este sorteo.", f"There is no mesa {_label(key)} in this draw."
            )
        if given not in SLOTS:
            raise BracketError(
                f"Mesa {_label(key)}: el ganador debe ser el lado A o B, no {given!r}.",
                f"Mesa {_label(key)}: the winner must be slot A or B, not {given!r}.",
            )
    occupants = {spec.key: [spec.a, spec.b] for spec in ordered}
    for key, pair in seated.items():
        occupants[key] = list(pair)
    defeats: Counter[Hashable] = Counter()
    out: set[Hashable] = set()
    void: set[Key] = set()
    empty: set[Route | tuple[Key, str]] = set()  # (key, slot) left for nobody: the entrant routed there is out
    ready: list[Key] = []
    champion: Hashable | None = None
    reset_needed: bool | None = None
    for spec in ordered:
        key = spec.key
        slot = results.get(key)
        if key in void:
            if slot is not None:
                raise BracketError(
                    f"La mesa {key} no se juega: el lado A ganó la gran final.",
                    f"Mesa {key} is not played: the grand final's slot A won it.",
                )
            continue
        a, b = occupants[key]
        # A mesa that has started keeps the pairs it sat down with.
        left = [] if key in seated else [s for s in SLOTS if (key, s) in empty]
        if left:
            if slot is not None:
                raise BracketError(
                    f"La mesa {key} no se juega: una de sus parejas quedó eliminada por zapatería.",
                    f"Mesa {key} is not played: one of its pairs was put out by zapatería.",
                )
            void.add(key)
            if len(left) == 2:
                empty.update(route for route in (spec.winner_to, spec.loser_to) if route is not None)
                continue
            slot = "B" if left == ["A"] else "A"
            if (a if slot == "A" else b) is None:
                continue  # the entrant who goes on is not known yet
        if slot is None:
            if a is not None and b is not None:
                ready.append(key)
            continue
        if not left and (a is None or b is None):
            raise BracketError(
                f"La mesa {key} tiene resultado pero aún no se conocen sus dos parejas.",
                f"Mesa {key} has a result but its two pairs are not known yet.",
            )
        winner, loser = (a, b) if slot == "A" else (b, a)
        if not left:
            defeats[loser] += 1
        if key.bracket == GROUP:
            continue  # group results go to the standings, not along routes
        winner_to, loser_to = spec.winner_to, spec.loser_to
        if winner_to is not None and by_key[winner_to.key].conditional:
            reset_needed = slot == "B"
            if not reset_needed:
                void.add(winner_to.key)
                winner_to = loser_to = None
        if winner_to is None:
            if key.bracket == THIRD_PLACE:
                out.add(winner)
            else:
                champion = winner
        elif not seated or winner_to.key not in seated:
            occupants[winner_to.key][SLOTS.index(winner_to.slot)] = winner
        if left or key in disqualified:
            if not left:
                out.add(loser)
            if loser_to is not None and loser_to.key not in seated:
                empty.add(loser_to)
        elif loser_to is None:
            out.add(loser)
        elif not seated or loser_to.key not in seated:
            occupants[loser_to.key][SLOTS.index(loser_to.slot)] = loser
    return Progress(
        occupants={key: tuple(pair) for key, pair in occupants.items()},
        ready=tuple(ready),
        void=frozenset(void),
        defeats=dict(defeats),
        eliminated=frozenset(out),
        champion=champion,
        reset_needed=reset_needed,
    )


def _label(key: object) -> str:
    """A key as people read it ("W R2-1"), even when given as a plain tuple."""
    return str(Key(*key)) if isinstance(key, tuple) and len(key) == 3 else repr(key)


def dependents(specs: Iterable[MatchSpec], key: Key) -> list[Key]:
    """The keys of the mesas that depend on ``key``'s result, directly or
    through other mesas, in playing order (``key`` itself excluded)."""
    by_key = {spec.key: spec for spec in specs}
    if key not in by_key:
        raise BracketError(
            f"No hay una mesa {_label(key)} en este sorteo.", f"There is no mesa {_label(key)} in this draw."
        )
    found: set[Key] = set()
    stack = [key]
    while stack:
        spec = by_key[stack.pop()]
        for route in (spec.winner_to, spec.loser_to):
            if route is not None and route.key not in found:
                found.add(route.key)
                stack.append(route.key)
    return [spec.key for spec in playing_order(specs) if spec.key in found]
