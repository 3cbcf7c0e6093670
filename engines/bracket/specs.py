"""The bracket engine's vocabulary: match keys, routes and match specs.

Terms
-----
entrant
    Whoever plays a mesa: a pair, or one player in the 1-vs-1 variant. The
    engine sees it as an opaque, hashable id (a pair's primary key).
mesa, match
    One match between two entrants (best of three chicas, Art. 3g.7). A
    :class:`MatchSpec` describes one mesa before it is played: where it sits
    in the bracket, who plays it if that is already known, and where its
    winner and its loser go next.
key
    A mesa's place: ``(bracket, round, position)``, unique in a draw, the same
    triple as the ``Mesa`` model's unique constraint. Rounds and positions
    count from 1.
bracket
    ``W`` winners' bracket (every entrant starts there; in single elimination
    it is the only bracket), ``L`` losers' bracket (double elimination: an
    entrant's first defeat sends it there), ``GF`` grand final (the winners'
    bracket champion against the losers' bracket champion), ``GR`` grand
    final reset (played only if the losers' bracket champion wins the grand
    final, because only then has each finalist lost once), ``3P`` third-place
    mesa (single elimination, between the semi-final losers), ``G`` group
    (round-robin).
slot
    Side ``"A"`` or ``"B"`` of a mesa: the engine's names for the two pairs.
route
    Where an entrant goes after a mesa: ``(key, slot)``; ``None`` for a
    winner means champion (or the end of a third-place or group mesa), for a
    loser it means eliminated.
bye
    A place in a bracket with no entrant, when the number of entrants is not a
    power of two. A mesa with a bye is never played and never emitted: its
    entrant goes straight on to the mesa its winner would have gone to, and
    that mesa's spec names it as an initial occupant. So every emitted spec
    is a mesa that two real entrants will play (or the reset, which may be
    skipped).
"""

from collections.abc import Hashable
from dataclasses import dataclass
from typing import NamedTuple

WINNERS, LOSERS, GRAND_FINAL, RESET, THIRD_PLACE, GROUP = "W", "L", "GF", "GR", "3P", "G"
SLOTS = ("A", "B")

DOUBLE, SINGLE, ROUND_ROBIN = "double", "single", "round_robin"
FORMATS = (DOUBLE, SINGLE, ROUND_ROBIN)


class BracketError(ValueError):
    """Bad input to the bracket engine. ``str()`` and ``message`` give the
    Spanish text shown to people, ``message_en`` the English one."""

    def __init__(self, message: str, message_en: str) -> None:
        super().__init__(message)
        self.message = message
        self.message_en = message_en


class Key(NamedTuple):
    bracket: str
    round: int
    position: int

    def __str__(self) -> str:
        return f"{self.bracket} R{self.round}-{self.position}"


class Route(NamedTuple):
    key: Key
    slot: str


@dataclass(frozen=True)
class MatchSpec:
    """One mesa of a draw.

    ``a`` and ``b`` are the entrants known when the draw is made; ``None``
    means the slot is filled later by an earlier mesa's winner or loser.
    ``conditional`` marks the grand final reset: it is played only if the
    grand final's slot B (the losers' bracket champion) wins it.
    """

    key: Key
    a: Hashable | None
    b: Hashable | None
    winner_to: Route | None
    loser_to: Route | None
    group: int | None = None
    conditional: bool = False

    def occupant(self, slot: str) -> Hashable | None:
        return self.a if slot == "A" else self.b
