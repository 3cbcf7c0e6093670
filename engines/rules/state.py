"""What a replay gives: the header it starts from, one decision per claim, the state.

Terms
-----
header
    What the log starts from: the rule set, the number of players (4, or 2
    as in seed 003) and the seat that deals the first data (Art. 3c).
seat
    ``A1, B1, A2, B2`` counterclockwise (two players: ``A1, B1``); play and
    the deal run counterclockwise, so the next seat is the next in the list.
decision
    The juez's answer to one claim: accepted or refused with a stable
    snake_case ``code``, the points actually applied (a score never goes
    below 0), the Spanish and English message, the article it rests on, and
    where it happened (chica, data, mano, dealer) with the scores after it.
state
    Where the mesa stands after the last claim. ``phase`` is ``deal`` when
    the next claim should be a ``mano`` that opens a data, ``play`` while
    manos of the data remain to be dealt, ``conteo`` while the last mano of
    the data is played (the conteo is due next) and ``finished``.
    What the juez's screen draws is the state's too, so that no rule is
    worked out in the browser: ``next``, the step the juez is expected to
    log (``deal`` a data, ``play`` a mano, the next ``mano``, the
    ``last_mano`` being played, ``conteo`` once every card of the data is
    known played, ``resume`` a suspended mesa, ``finished``); ``counters``,
    the chica, data, mano and dealer of what is played now or dealt next
    (right after a conteo: the next data, mano 1, its dealer); ``ended``,
    ``chica`` from the end of a chica until the next data is dealt, ``mesa``
    once it is over; ``chips``, each score as perros and tantos (Art. 14).
chips
    Points as the scoring chips of Art. 14: perros of 10 and tantos of 2
    (``chips``; the planilla shows them too).

Everything here is JSON-ready through ``as_dict()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .messages import message
from .rules import RuleSet

SEATS = {4: ("A1", "B1", "A2", "B2"), 2: ("A1", "B1")}
PERRO, TANTO = 10, 2  # Art. 14


def chips(points: int) -> dict[str, Any]:
    """``points`` as scoring chips (Art. 14): perros of 10 and tantos of 2."""
    perros, rest = divmod(max(points, 0), PERRO)
    tantos, odd = divmod(rest, TANTO)
    return {"points": points, "perros": perros, "tantos": tantos, "odd": odd}


@dataclass(frozen=True)
class Header:
    ruleset: RuleSet
    players: int = 4
    first_dealer: str = "A1"


@dataclass(slots=True)
class Decision:
    seq: int
    kind: str
    accepted: bool
    points: dict[str, Any]
    code: str | None
    article: str
    voided_by: int | None
    chica: int
    data: int
    mano: int
    dealer: str
    scores: dict[str, Any]
    detail: dict[str, Any]

    @property
    def message(self) -> str:
        return message(self, "es")

    @property
    def message_en(self) -> str:
        return message(self, "en")

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "accepted": self.accepted,
            "points": dict(self.points),
            "code": self.code,
            "message": self.message,
            "message_en": self.message_en,
            "article": self.article,
            "voided_by": self.voided_by,
            "chica": self.chica,
            "data": self.data,
            "mano": self.mano,
            "dealer": self.dealer,
            "scores": dict(self.scores),
            "detail": self.detail,
        }


@dataclass(slots=True)
class State:
    scores: dict[str, Any]
    chicas: dict[str, Any]
    chica: int
    data: int
    mano: int
    dealer: str
    finished: bool
    winner: str | None
    zapateria: bool
    suspended: bool
    phase: str
    ronda_window: bool
    caida_streak: dict[str, Any]
    chica_results: list[dict[str, Any]]
    players: int
    seats: list[str] = field(default_factory=list)
    next: str = "deal"
    counters: dict[str, Any] = field(default_factory=dict)
    ended: str | None = None
    # The referee as the log leaves it: what costs a trial of claims
    # (``protestable``) is asked of it only when the state is read.
    referee: Any = field(default=None, repr=False, compare=False)

    @property
    def protestable(self) -> dict[str, Any]:
        """By protesting pair: the seqs its juego y veo may name now."""
        if self.referee is None:
            return {"A": [], "B": []}
        return {pair: self.referee.protestable(pair) for pair in ("A", "B")}

    def as_dict(self, protestable: dict[str, Any] | None = None) -> dict[str, Any]:
        """``protestable``: the plays each pair may protest, when the caller has them from trials it made already
        (``preview.protestable``): they are not tried again."""
        return {
            "scores": dict(self.scores),
            "chicas": dict(self.chicas),
            "chica": self.chica,
            "data": self.data,
            "mano": self.mano,
            "dealer": self.dealer,
            "finished": self.finished,
            "winner": self.winner,
            "zapateria": self.zapateria,
            "suspended": self.suspended,
            "phase": self.phase,
            "ronda_window": self.ronda_window,
            "caida_streak": dict(self.caida_streak),
            "chica_results": [dict(r, scores=dict(r["scores"])) for r in self.chica_results],
            "players": self.players,
            "seats": list(self.seats),
            "protestable": self.protestable if protestable is None else protestable,
            "next": self.next,
            "counters": dict(self.counters),
            "ended": self.ended,
            "chips": {pair: chips(score) for pair, score in self.scores.items()},
        }


@dataclass(slots=True)
class Replay:
    decisions: list[Decision]
    state: State
    # The referee as the log leaves it, to try claims on (``preview``).
    referee: Any = field(default=None, repr=False, compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {"decisions": [d.as_dict() for d in self.decisions], "state": self.state.as_dict()}
