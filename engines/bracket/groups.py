"""Round-robin groups and their standings.

Rules and terms
---------------
group
    Every entrant of a group plays every other once. Groups are filled from
    the seed order in a snake (see :mod:`.seeding`) and numbered from 1.
round, circle method
    With ``m`` entrants (plus a bye when ``m`` is odd) a group plays
    ``m - 1`` rounds (``m`` when odd) of ``m // 2`` mesas: the first entrant
    stays put and the others turn one place round the circle each round. The
    entrant drawn against the bye rests that round; no mesa is emitted for
    it. The first entrant changes side every round so that sides balance.
keys
    Group mesas are in bracket ``G``; a mesa's position counts through the
    round across all groups (group 1's mesas first), so that
    ``(bracket, round, position)`` stays unique in the championship, and
    the spec's ``group`` says which group it belongs to. Group mesas route
    nobody anywhere: their results feed the standings.
standings
    Entrants are ranked by, in order: mesas won; chicas difference (won minus
    lost); points difference (points scored minus conceded, over all chicas);
    head-to-head (mesas won among the entrants still tied). Entrants still
    tied after that share the rank, listed in seed order; the Director
    decides what the reglamento does not (Art. 18).
knockout after the groups
    The best ``advance`` of each group go on to a single elimination
    bracket, seeded place first, then group: the group winners (group 1's
    first) are seeds 1..g, the runners-up g+1..2g, and so on, so that group
    winners get the byes. The runners-up (and the next places) are taken
    from the groups in turn, starting from the group that keeps pairs of
    the same group apart in the first knockout round, when that can be done.
"""

import itertools
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from .elimination import elimination_specs
from .seeding import snake_groups
from .specs import GROUP, SINGLE, BracketError, Key, MatchSpec


def group_count(n: int, group_size: int) -> int:
    """How many groups ``n`` entrants make with at most ``group_size`` each
    (never a group of one)."""
    if group_size < 2:
        raise BracketError("Un grupo debe admitir al menos dos parejas.", "A group needs room for at least two pairs.")
    return max(1, min(-(-n // group_size), n // 2))


def round_robin_specs(
    ordered: Sequence[Hashable], group_size: int
) -> tuple[dict[int, tuple[Hashable, ...]], list[MatchSpec]]:
    """The groups (number -> entrants) and the specs of all their mesas."""
    if len(ordered) < 2:
        raise BracketError(
            "Un todos contra todos necesita al menos dos parejas.", "A round-robin needs at least two entrants."
        )
    groups = {
        number: tuple(members)
        for number, members in enumerate(snake_groups(ordered, group_count(len(ordered), group_size)), start=1)
    }
    rounds: dict[int, list[tuple[int, Hashable, Hashable]]] = {}
    for number, members in groups.items():
        for round_number, pairing in enumerate(circle_rounds(members), start=1):
            rounds.setdefault(round_number, []).extend((number, a, b) for a, b in pairing)
    specs = [
        MatchSpec(key=Key(GROUP, round_number, position), a=a, b=b, winner_to=None, loser_to=None, group=number)
        for round_number, mesas in sorted(rounds.items())
        for position, (number, a, b) in enumerate(mesas, start=1)
    ]
    return groups, specs


def circle_rounds(members: Sequence[Hashable]) -> list[list[tuple[Hashable, Hashable]]]:
    """The rounds of one group by the circle method: lists of (a, b)."""
    circle: list[Hashable | None] = [*members, *([None] if len(members) % 2 else [])]
    size = len(circle)
    rounds: list[list[tuple[Hashable, Hashable]]] = []
    for number in range(size - 1):
        pairing: list[tuple[Hashable, Hashable]] = []
        for i in range(size // 2):
            a, b = circle[i], circle[size - 1 - i]
            if i == 0 and number % 2:
                a, b = b, a
            if a is not None and b is not None:
                pairing.append((a, b))
        rounds.append(pairing)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


@dataclass(frozen=True)
class GroupResult:
    """A finished group mesa: its pairs, the winning slot, chicas and points
    (points summed over the chicas played)."""

    a: Hashable
    b: Hashable
    winner: str
    chicas_a: int = 0
    chicas_b: int = 0
    points_a: int = 0
    points_b: int = 0


@dataclass(frozen=True)
class Standing:
    entrant: Hashable
    rank: int
    played: int
    won: int
    lost: int
    chicas_won: int
    chicas_lost: int
    points_for: int
    points_against: int

    @property
    def chicas_difference(self) -> int:
        return self.chicas_won - self.chicas_lost

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against


def standings(results: Sequence[GroupResult], entrants: Iterable[Hashable] = ()) -> list[Standing]:
    """The group table from its results (a list of :class:`GroupResult`).
    ``entrants`` (in seed order) lists pairs that have not played yet and
    orders the ties that remain."""
    order: dict[Hashable, int] = {}
    for entrant in entrants:
        order.setdefault(entrant, len(order))
    tally: dict[Hashable, Counter[str]] = {}
    for result in results:
        if result.winner not in ("A", "B"):
            raise BracketError(
                f"El ganador de una mesa de grupo debe ser el lado A o B, no {result.winner!r}.",
                f"A group result's winner must be slot A or B, not {result.winner!r}.",
            )
        if result.a == result.b:
            raise BracketError("Una pareja no puede jugar contra sí misma.", "A pair cannot play itself.")
        for side, entrant in (("A", result.a), ("B", result.b)):
            order.setdefault(entrant, len(order))
            row = tally.setdefault(entrant, Counter())
            own, other = ("a", "b") if side == "A" else ("b", "a")
            row["played"] += 1
            row["won" if result.winner == side else "lost"] += 1
            row["chicas_won"] += getattr(result, f"chicas_{own}")
            row["chicas_lost"] += getattr(result, f"chicas_{other}")
            row["points_for"] += getattr(result, f"points_{own}")
            row["points_against"] += getattr(result, f"points_{other}")

    def primary(entrant: Hashable) -> tuple[int, int, int]:
        row = tally.get(entrant, Counter())
        return (-row["won"], -(row["chicas_won"] - row["chicas_lost"]), -(row["points_for"] - row["points_against"]))

    ranked = sorted(order, key=lambda entrant: (primary(entrant), order[entrant]))
    sort_keys: dict[Hashable, tuple[tuple[int, int, int], int]] = {}
    start = 0
    while start < len(ranked):
        end = start
        while end < len(ranked) and primary(ranked[end]) == primary(ranked[start]):
            end += 1
        tied = set(ranked[start:end])
        for entrant in tied:
            head_to_head = sum(
                1 for r in results if r.a in tied and r.b in tied and (r.a if r.winner == "A" else r.b) == entrant
            )
            sort_keys[entrant] = (primary(entrant), -head_to_head)
        start = end
    ranked.sort(key=lambda entrant: (sort_keys[entrant], order[entrant]))

    table: list[Standing] = []
    for index, entrant in enumerate(ranked):
        row = tally.get(entrant, Counter())
        if not index or sort_keys[entrant] != sort_keys[ranked[index - 1]]:
            rank = index + 1
        table.append(
            Standing(
                entrant=entrant,
                rank=rank,
                played=row["played"],
                won=row["won"],
                lost=row["lost"],
                chicas_won=row["chicas_won"],
                chicas_lost=row["chicas_lost"],
                points_for=row["points_for"],
                points_against=row["points_against"],
            )
        )
    return table


def knockout_order(ranked_groups: Mapping[int, Sequence[Hashable]], advance: int) -> list[Hashable]:
    """The seed order of the knockout after the groups: ``ranked_groups``
    maps group number -> entrants in standing order."""
    if advance < 1:
        raise BracketError(
            "Al menos una pareja por grupo debe pasar a la eliminatoria.",
            "At least one pair per group must go on to the knockout.",
        )
    short = [number for number, ranked in ranked_groups.items() if len(ranked) < advance]
    if short:
        raise BracketError(
            f"El grupo {short[0]} tiene menos de {advance} parejas para clasificar.",
            f"Group {short[0]} has fewer than {advance} pairs to send on.",
        )
    numbers = sorted(ranked_groups)
    group_of = {entrant: number for number in numbers for entrant in ranked_groups[number][:advance]}
    count = len(numbers)
    if len(group_of) != count * advance:
        raise BracketError("Una pareja figura en dos grupos.", "A pair is ranked in two groups.")
    if len(group_of) < 2:
        raise BracketError("La eliminatoria necesita al menos dos parejas.", "The knockout needs at least two pairs.")
    if count ** (advance - 1) <= 512:
        turns: Iterator[tuple[int, ...]] = itertools.product(range(count), repeat=advance - 1)
    else:  # too many to try them all: turn each place a little more than the one above
        turns = (tuple(turn * place % count for place in range(1, advance)) for turn in range(count))
    best: tuple[int, list[Hashable]] | None = None
    for turn in turns:
        order = [ranked_groups[number][0] for number in numbers] + [
            ranked_groups[number][place]
            for place, shift in enumerate(turn, start=1)
            for number in numbers[shift:] + numbers[:shift]
        ]
        clashes = sum(
            1
            for spec in elimination_specs(order, SINGLE)
            if spec.a is not None and spec.b is not None and group_of[spec.a] == group_of[spec.b]
        )
        if best is None or clashes < best[0]:
            best = (clashes, order)
        if not clashes:
            break
    assert best is not None  # turns is never empty: count >= 1
    return best[1]
