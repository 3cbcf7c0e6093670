"""Single and double elimination brackets.

Rules and terms
---------------
round
    Winners' bracket round ``r`` (1 = first) has ``size / 2**r`` mesas, where
    ``size`` is the number of entrants rounded up to a power of two. Its
    winners meet in round ``r + 1``: the winners of positions ``2p - 1`` and
    ``2p`` meet at position ``p`` (slots A and B).
single elimination
    An entrant is out at its first defeat. With a third-place mesa (``3P``)
    the two semi-final losers play for third place.
double elimination (the default)
    An entrant is out at its second defeat: a zapatería does not eliminate at
    a first defeat (Art. 12). A loser in the winners' bracket (``W``) drops
    into the losers' bracket (``L``); a loser there is out. The losers'
    bracket has ``2 * (R - 1)`` rounds for ``R`` winners' rounds:

    * losers' round 1 pairs the losers of winners' round 1;
    * even losers' round ``2(r - 1)`` is a *drop round*: the survivors of the
      losers' bracket (slot B) meet the losers of winners' round ``r``
      (slot A, as they come from the winners' bracket);
    * odd losers' rounds after that pair the survivors among themselves.

    The order in which the losers of a winners' round drop in alternates
    (reversed, halves swapped, each half reversed, as given; see
    :func:`drop_order`, after brackets-manager.js and Challonge) so that an
    entrant does not meet again, soon after dropping, the pairs it played in
    the winners' bracket.
rematches
    Two pairs that have met cannot meet again in the losers' bracket before
    round 2 (4 places), 3 (8), 4 (16), 5 (32), 7 (64) or 8 (128 places) of
    its 2, 4, 6, 8, 10 or 12 rounds (tests/engines/bracket/test_properties.py proves
    it by following every pair's possible past opponents along every path). Some rematch before the losers' final cannot be
    avoided at all from 8 places up: with 8, the four pairs left in the
    losers' semi-final come from the whole bracket, and whichever way the
    round-2 losers drop in, one of them can meet there the pair it beat in
    round 1.
grand final, reset
    The grand final (``GF``) puts the winners' bracket champion in slot A
    and the losers' bracket champion in slot B. If A wins, A is champion and
    B has its second defeat. If B wins, each finalist has lost once, so the
    reset (``GR``) is played, with the same pairs on the same sides, and its
    winner is champion. The grand final's spec routes its winner to the
    reset's slot B and its loser to slot A (which keeps the sides when B has
    won); the reset is marked ``conditional``.
mesas
    Without byes double elimination has ``2n - 2`` mesas plus the reset,
    single elimination ``n - 1`` (plus the third-place mesa when there are at
    least 4 entrants). Byes remove mesas without changing these counts,
    because every mesa played gives exactly one defeat.
keys
    Mesas keep the key they have in the full bracket of ``size`` places, so
    with byes some positions (even a whole first losers' round) have no mesa.
"""

from collections.abc import Hashable, Sequence

from .seeding import bracket_size, placement
from .specs import (
    DOUBLE,
    GRAND_FINAL,
    LOSERS,
    RESET,
    THIRD_PLACE,
    WINNERS,
    BracketError,
    Key,
    MatchSpec,
    Route,
)

# Where a mesa's side comes from: ("entrant", id), ("winner" | "loser", an earlier mesa's Key), or a bye.
Source = tuple[Hashable, ...]
_BYE: Source = ("bye",)


def drop_order(winners_round: int, count: int) -> list[int]:
    """Losers' bracket positions, in the order the losers of winners' round
    ``winners_round`` (2 or later, ``count`` mesas) drop into them: the loser
    of winners' position ``p`` goes to losers' position ``order[p - 1]``."""
    positions = list(range(1, count + 1))
    half = count // 2
    pattern = (winners_round - 2) % 4
    if count == 1 or pattern == 0:
        return positions[::-1]
    if pattern == 1:
        return positions[half:] + positions[:half]
    if pattern == 2:
        return positions[:half][::-1] + positions[half:][::-1]
    return positions


def elimination_specs(ordered: Sequence[Hashable], format: str = DOUBLE, third_place: bool = False) -> list[MatchSpec]:
    """The specs of a single or double elimination bracket for ``ordered``
    entrants (seed 1 first)."""
    n = len(ordered)
    if n < 2:
        raise BracketError("Una llave necesita al menos dos parejas.", "A bracket needs at least two entrants.")
    size = bracket_size(n)
    rounds = size.bit_length() - 1
    skeleton: list[tuple[Key, Source, Source]] = []  # in playing order

    places: list[Source] = [("entrant", ordered[seed - 1]) if seed <= n else _BYE for seed in placement(size)]
    for position in range(1, size // 2 + 1):
        skeleton.append((Key(WINNERS, 1, position), places[2 * position - 2], places[2 * position - 1]))
    for r in range(2, rounds + 1):
        for position in range(1, (size >> r) + 1):
            skeleton.append(
                (
                    Key(WINNERS, r, position),
                    ("winner", Key(WINNERS, r - 1, 2 * position - 1)),
                    ("winner", Key(WINNERS, r - 1, 2 * position)),
                )
            )
    final = Key(WINNERS, rounds, 1)

    if format == DOUBLE:
        for position in range(1, size // 4 + 1):
            skeleton.append(
                (
                    Key(LOSERS, 1, position),
                    ("loser", Key(WINNERS, 1, 2 * position - 1)),
                    ("loser", Key(WINNERS, 1, 2 * position)),
                )
            )
        for r in range(2, rounds + 1):
            drop_round = 2 * (r - 1)
            count = size >> r
            dropped_to = drop_order(r, count)
            dropping = {to: p for p, to in enumerate(dropped_to, start=1)}
            for position in range(1, count + 1):
                skeleton.append(
                    (
                        Key(LOSERS, drop_round, position),
                        ("loser", Key(WINNERS, r, dropping[position])),
                        ("winner", Key(LOSERS, drop_round - 1, position)),
                    )
                )
            if r < rounds:
                for position in range(1, count // 2 + 1):
                    skeleton.append(
                        (
                            Key(LOSERS, drop_round + 1, position),
                            ("winner", Key(LOSERS, drop_round, 2 * position - 1)),
                            ("winner", Key(LOSERS, drop_round, 2 * position)),
                        )
                    )
        losers_champion: Source = ("winner", Key(LOSERS, 2 * (rounds - 1), 1)) if rounds > 1 else ("loser", final)
        grand_final = Key(GRAND_FINAL, 1, 1)
        skeleton.append((grand_final, ("winner", final), losers_champion))
        skeleton.append((Key(RESET, 1, 1), ("loser", grand_final), ("winner", grand_final)))
    elif third_place and rounds >= 2:
        skeleton.append(
            (
                Key(THIRD_PLACE, 1, 1),
                ("loser", Key(WINNERS, rounds - 1, 1)),
                ("loser", Key(WINNERS, rounds - 1, 2)),
            )
        )
    return _resolve_byes(skeleton)


def _resolve_byes(skeleton: list[tuple[Key, Source, Source]]) -> list[MatchSpec]:
    """Drop the mesas that have a bye, passing their entrant on, and turn
    the skeleton's sources into initial occupants and routes."""
    outcome: dict[
        Source, Source
    ] = {}  # ("winner" | "loser", key) -> what comes out: entrant, bye, or a played mesa's result
    played: list[tuple[Key, Source, Source]] = []
    for key, *sources in skeleton:
        a, b = (outcome[source] if source[0] in ("winner", "loser") else source for source in sources)
        if a is _BYE or b is _BYE:
            outcome["winner", key] = b if a is _BYE else a
            outcome["loser", key] = _BYE
        else:
            outcome["winner", key] = ("winner", key)
            outcome["loser", key] = ("loser", key)
            played.append((key, a, b))

    routes: dict[Source, Route] = {}
    for key, a, b in played:
        for slot, source in zip("AB", (a, b)):
            if source[0] != "entrant":
                routes[source] = Route(key, slot)
    return [
        MatchSpec(
            key=key,
            a=a[1] if a[0] == "entrant" else None,
            b=b[1] if b[0] == "entrant" else None,
            winner_to=routes.get(("winner", key)),
            loser_to=routes.get(("loser", key)),
            conditional=key.bracket == RESET,
        )
        for key, a, b in played
    ]
