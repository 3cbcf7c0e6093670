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

Everything here is JSON-ready through ``as_dict()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .messages import message
from .rules import RuleSet

SEATS = {4: ("A1", "B1", "A2", "B2"), 2: ("A1", "B1")}


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
    points: dict
    code: str | None
    article: str
    voided_by: int | None
    chica: int
    data: int
    mano: int
    dealer: str
    scores: dict
    detail: dict

    @property
    def message(self) -> str:
        return message(self, "es")

    @property
    def message_en(self) -> str:
        return message(self, "en")

    def as_dict(self) -> dict:
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
    scores: dict
    chicas: dict
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
    caida_streak: dict
    chica_results: list
    players: int
    seats: list = field(default_factory=list)
    protestable: dict = field(default_factory=dict)  # by protesting pair: the seqs its juego y veo may name now

    def as_dict(self) -> dict:
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
            "protestable": {pair: list(seqs) for pair, seqs in self.protestable.items()},
        }


@dataclass(slots=True)
class Replay:
    decisions: list
    state: State
    # The referee as the log leaves it, to try claims on (``preview``).
    referee: object = field(default=None, repr=False, compare=False)

    def as_dict(self) -> dict:
        return {"decisions": [d.as_dict() for d in self.decisions], "state": self.state.as_dict()}
