"""The referee: replays a mesa's claim log and decides every claim.

The replay is deterministic and derived from the log alone: the same header
and claims always give the same decisions and state. A refused claim
changes nothing. The rules and rulings are those of docs/REGLAS.md.

Voids (Art. 16; rulings "anulaciones", "sin jugada", "anular", "suspendida", see ``voids``)
    A void is decided where it stands in the log: it reaches into the
    current chica, or to the claim that ended the previous chica when it is
    the very next claim (``anulacion_fuera_de_alcance``, Art. 18,
    otherwise); a finished mesa takes none (``mesa_terminada``), a
    suspended one only the Director's (``mesa_suspendida``). A refused
    claim (``anulacion_de_negativa``), a ``suspender`` or ``reanudar``
    (``anulacion_de_suspension``) is never voided, a ``mano`` only by the
    claim right after it (``anulacion_de_mano``). An
    accepted void makes its target never have happened: the log is decided
    again from the earliest claim it changes (the referee keeps a copy of
    itself just before each claim a void names), so voiding the last claim
    costs no more than deciding it.

Datas, manos and the deal (Art. 3)
    The first ``mano`` (at the start, after a conteo, after a chica ended,
    after mal repartidas) opens a data: 2 manos with 4 players, 4 with 2.
    Another ``mano`` when all are dealt is refused until the conteo
    (``conteo_pendiente``, Art. 3f); a conteo before that is refused
    (``conteo_prematuro``). The header's first dealer deals data 1; after
    each data (ended by conteo, mal repartidas or a chica won mid-data) the
    deal passes to the next seat counterclockwise, across chicas too
    (ruling). The seat after the dealer leads each mano; the dealer plays
    last (Art. 3d-e). Datas count within a chica, manos within a data.

Points (Art. 15, riobamba; other profiles through the rule set)
    caída 2 (Art. 6), limpia 2 (Art. 9), caída y limpia
    ``caida_limpia_points`` (Art. 9a), ronda 2 (Art. 7), doble ronda
    ``doble_ronda`` (Art. 8; ``"chica"`` gives 40 minus the score), pedir
    mal -2 (Art. 11; only in a data, from its first mano to its conteo:
    ``pedir_mal_fuera_de_data``, ruling "pedir mal data"), mal repartidas +10 to the pair that did not deal, and
    the data ends (Art. 4c), conteo (``conteo``), ajuste (Art. 18, may be
    negative, not limited by 38 que no juega). A score never goes below 0;
    a decision keeps the delta actually applied. 38 que no juega
    (002 Art. 11): from 38 a pair gains only from a caída (caída, caída y
    limpia, caída en ronda, and four caídas in a row) or an immediate win
    (an award of ``"chica"``: ruling "38", it bars points, not wins);
    anything else is accepted with 0 and code ``treinta_y_ocho``;
    deductions still apply, and a pair brought below 38 scores again.
    The conteo must agree with the log (ruling "conteo", Art. 10, 15): each
    accepted capture of the data (a play claim, less those upheld in a juego
    y veo) took at least two cards, so a pair is counted at no fewer
    (``conteo_contradice_registro``), which also rules out falla against it.

Chica and mesa (Art. 3g.6-7, 12, 15)
    The chica ends the moment a pair reaches 40 (scores are not cut at 40);
    within one claim the points are applied in order and stop there
    (juego y veo: the offender's loss, then the protester's gain; conteo:
    the pair that won the count, its count and falla together, then the
    other pair), but a conteo that would bring both pairs to 40 adds both:
    the higher total wins, on equal totals the pair that deals next
    (ruling "ambas 40"). Until the next ``mano``
    every claim but void, ajuste, suspender and reanudar is refused
    (``chica_terminada``), and a juego y veo of the other pair, as the very
    next claim, against the claim that ended the chica, however it ended
    (ruling "juego y veo chica", ``_ender_target``): the chica's end ends the data, the next seat
    deals the next one and nothing of the abandoned data is counted
    (ruling "chica a media data"). ``chicas_to_win`` chicas win the mesa.
    Zapatería ``ends_mesa`` (and ``eliminates``, seed 003, whose zapatero the
    bracket also puts out): the loser of the first chica below 10 ends the
    mesa; ``title`` (002 Art. 16): the loser of any chica below 10 is
    recorded as ``zapatero`` and the mesa goes on. Once the mesa is over,
    every claim but void is refused (``mesa_terminada``; a juego y veo with
    ``juego_y_veo_mesa_terminada``, which sends the pair to the Director,
    Art. 17, ruling "juego y veo mesa"); the state keeps
    the last chica's scores.

Turns (Art. 3e, 6, 7, 13)
    There is no "card played" event, so each mano keeps a lower bound of
    the turns already played (turns run leader, ..., dealer, five times).
    A play claim (caída, limpia, caída y limpia, caída en ronda) is placed
    at the earliest turn at or after the bound where its player (or, if
    none is given, its pair) plays and the play is possible: a caída needs
    the opponent's card just before in this mano, not known to be a
    capture; a plain limpia cannot be a data's first card (the table starts
    empty). No such turn: ``sin_turno``. The placement is never later than
    the real turn (the bound only moves to placed turns, and a placed
    capture just before a turn was really there), so a juez's true log
    never runs out of turns.
    A ronda comes before the player's first card (``ronda_tarde``, Art. 7a;
    a protester has thrown his after his juego y veo, Art. 5b, ruling
    "juego y veo carta": ``ronda_bound``, a bound the rondas alone read)
    and not once everyone has played (``ronda_cerrada``, Art. 7b); one per
    player per mano; ``ronda_limit`` refuses a ronda (not a doble ronda) to
    a pair above it (002 Art. 9).

Juego y veo (Art. 5; 002 Art. 13), caída streaks (002 Art. 15B) and
caída en ronda (seed 003) are described at their methods.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final, cast

from .claims import CAIDAS, PLAYS, RONDAS, ClaimError, check_claim
from .conteo import MAX_CARDS, conteo
from .messages import CODES, DIRECTOR_ARTICLES, KIND_ARTICLES
from .rules import CHICA, RuleSet
from .state import SEATS, Decision, Header, Replay, State
from .voids import Voids

CHICA_POINTS = 40
ZAPATERIA_BELOW = 10
TREINTA_Y_OCHO = 38
CAIDA = LIMPIA = RONDA = JUEGO_Y_VEO = PEDIR_MAL = 2
MAL_REPARTIDAS = 10
CARDS_PER_HAND = 5

# Claims that need a mano in play. Not mal repartidas: a misdeal is found
# while the cards are dealt (Art. 4a-c), before the juez logs the mano.
IN_MANO = PLAYS | RONDAS | {"cuatro_caidas", "juego_y_veo", "pedir_mal", "conteo"}
OTHER = {"A": "B", "B": "A"}
# Never the target of the juez's "void the last claim": a void (undoing it
# would restore what it voided) and the acts their opposite corrects.
UNDONE_OTHERWISE = {"void", "suspender", "reanudar"}
ARTICLES = {code: texts[2] for code, texts in CODES.items()}


# An accepted play of the current mano, for juego y veo: a tuple
# (seq, pair, the points it gave, the seats it may stand for, what it gave
# as a win, its turn), the cheapest thing to build; the protested ones are
# in Referee.protested. A ronda is kept the same way (turn -1: no card),
# for the juego y veo against the ronda that ended a chica.
# Final, so that a play's fields keep their own types when read by these indexes.
SEQ: Final = 0
PAIR: Final = 1
POINTS: Final = 2
WHO: Final = 3
# An award of "chica" is a win, not points (ruling "juego y veo chica"): the delta it applied.
WIN: Final = 4
TURN: Final = 5
Play = tuple[int, str, int, tuple[int, ...], int, int]


class Referee:
    """The mesa as the claims leave it; :meth:`decide` takes one effective claim."""

    def __init__(self, header: Header) -> None:
        rules = header.ruleset
        self.delta = {"A": 0, "B": 0}
        self.won: str | None = None
        self.note: str | None = None
        self.rules = rules
        self.players = n = header.players
        self.seats = SEATS[n]
        self.pair_of = [seat[0] for seat in self.seats]
        self.manos_per_data = 2 if n == 4 else 4
        self.turns = CARDS_PER_HAND * n
        self._deal(self.seats.index(header.first_dealer))
        self.scores = {"A": 0, "B": 0}
        self.chicas = {"A": 0, "B": 0}
        self.chica, self.data, self.mano = 1, 0, 0
        self.in_data = False
        self.chica_over = False
        self.finished = False
        self.winner: str | None = None
        self.zapateria = False
        self.suspended = False
        self.results: list[dict[str, Any]] = []
        # The seats a claim may stand for: its player's, or its pair's.
        self.claim_seats = {
            (pair, player): tuple(
                s for s, seat in enumerate(self.seats) if seat[0] == pair and (player is None or int(seat[1]) == player)
            )
            for pair in OTHER
            for player in (None, 1, 2)
        }
        self.treinta_y_ocho = rules.treinta_y_ocho
        # Points, CHICA, or None for a caída en ronda the rule set leaves out (_caida refuses it first).
        self.play_points: dict[str, int | str | None] = {
            "caida": CAIDA,
            "limpia": LIMPIA,
            "caida_limpia": rules.caida_limpia_points,
            "caida_en_ronda": rules.caida_en_ronda,
        }
        self.articles = dict(KIND_ARTICLES)
        if rules.doble_ronda == CHICA:
            self.articles["doble_ronda"] = "002 Art. 15A"
        if rules.juego_y_veo_upheld == "penalty":
            self.articles["juego_y_veo"] = "002 Art. 13"
        self.captured = {"A": 0, "B": 0}
        self.chica_ender: int | None = None  # the seq of the claim that ended the last chica
        # The seq a juego y veo may name against that claim: the play or ronda
        # itself, or the last caída of the four that won (see _ender_target).
        self.ender_target: int | None = None
        self.last_seq = 0  # the seq of the last claim decided, void or not
        self.closing: Referee | None = None  # the referee as that claim left it, before the chica ended
        self._new_data()
        self._new_mano()
        self._reset_streak()

    def copy(self) -> Referee:
        """An independent copy: deciding on it leaves this referee as it is."""
        other = object.__new__(Referee)
        values = self.__dict__.copy()
        # The containers a decision changes in place; what they hold is not
        # changed (results and plays are written once).
        for name in ("scores", "chicas", "captured", "delta", "plays", "last_play"):
            values[name] = values[name].copy()
        for name in ("results", "ronda_seats", "protested", "rondas"):
            values[name] = values[name].copy()
        other.__dict__ = values
        return other

    def trial(self, seq: int, claim: dict[str, Any]) -> tuple[Decision, str | None]:
        """What ``claim`` would get as claim ``seq``, and what it would end: the referee stays as it is.

        Returns ``(decision, ends)``; ``ends`` is ``"mesa"``, ``"chica"`` or None.
        """
        other = self.copy()
        decision = other.decide(seq, claim)
        ends = None
        if other.won:
            ends = "mesa" if other.finished else "chica"
        return decision, ends

    # -- bookkeeping -------------------------------------------------------

    def _new_data(self) -> None:
        self.protested: set[int] = set()  # the seqs of the plays protested, this data
        self.past_plays: frozenset[int] = frozenset()  # the seqs of the plays of this data's earlier manos
        self.carried: Play | None = None  # the play the new mano's leader may still protest (ruling, Art. 5a)

    def _new_mano(self) -> None:
        self.bound = 0  # turns of this mano known to be played
        self.captures = 0  # bit t: turn t of this mano is known to be a capture
        self.ronda_seats: set[int] = set()
        self.rondas: dict[int, Play] = {}  # seq -> the accepted rondas of this mano, not found wrong
        # Turns known played for the rondas alone: a protester throws his card
        # after his juego y veo (Art. 5b), yet a capture with it is still to be claimed.
        self.ronda_bound = 0
        self.plays: dict[int, Play] = {}  # seq -> play (see SEQ...), this mano
        self.last_play: dict[str, Play | None] = {"A": None, "B": None}

    def _reset_streak(self) -> None:
        self.streak_pair: str | None = None
        self.streak_count, self.streak_awarded = 0, False
        self.streak_mano = self.streak_last = self.streak_seq = 0
        self.streak_delta = 0  # what the four caídas gave once awarded
        # Whether a seat named in the streak pins its turns (four players):
        # a streak of pair-only claims may still slide by one pair turn.
        self.streak_fixed = False

    def _leads(self, pair: str | None) -> bool:
        """Whether ``pair`` holds the seat after the dealer, who leads each mano."""
        return self.pair_of[self.dealer] != pair

    def _streak_alive(self) -> bool:
        """Whether the streak can still be claimed or extended (see _cuatro_caidas)."""
        if not self.streak_count:
            return False
        if self.mano == self.streak_mano:
            return True
        # Into the next mano of the data (ruling "racha"), from the pair's
        # last turn of a mano: the dealer's last (turns - 1), or his
        # partner's for the leading pair (turns - 2). A seat named in the
        # streak must be that one.
        n = self.players
        last = self.turns - (2 if self._leads(self.streak_pair) else 1)
        return self.mano == self.streak_mano + 1 and (not self.streak_fixed or self.streak_last % n == last % n)

    def _extends_streak(self, pair: str, turn: int) -> bool:
        """Whether a caída of ``pair`` placed at ``turn`` is the streak's next."""
        if self.streak_pair != pair or not self._streak_alive():
            return False
        if self.mano != self.streak_mano:
            # The pair's first turn that can be a caída: the leader's card
            # opens the mano and falls on nothing (a caída lapses at a new
            # mano, Art. 6), so it neither extends nor breaks the streak.
            return turn == (2 if self._leads(pair) else 1)
        # Four players: a streak of pair-only claims slides to the other seat.
        slides = self.players == 4 and not self.streak_fixed
        return turn == self.streak_last + 2 or (slides and turn == self.streak_last + 4)

    def _award(
        self, pair: str, amount: int | str, caida: bool = False, ajuste: bool = False, settle: bool = True
    ) -> int:
        """Add ``amount`` (or win the chica) to ``pair``; return the delta applied.

        ``settle=False``: reaching 40 does not end the chica yet (the conteo
        settles who wins once both pairs have their points).
        """
        if self.won:
            return 0
        score = self.scores[pair]
        if amount == CHICA:
            # An immediate win, not points: 38 que no juega does not bar it (ruling).
            amount = max(0, CHICA_POINTS - score)
            caida = True
        amount = cast(int, amount)  # CHICA is the only word a rule set gives
        if self._barred(pair, amount, caida or ajuste):
            self.note = "treinta_y_ocho"
            return 0
        new = score + amount
        if new < 0:
            new = 0
        self.scores[pair] = new
        if new >= CHICA_POINTS and settle:
            self.won = pair
        delta = new - score
        self.delta[pair] += delta
        return delta

    def _barred(self, pair: str, amount: int, caida: bool = False) -> bool:
        """Whether 38 que no juega (002 Art. 11) bars ``pair`` from the points ``amount`` now.

        ``caida``: the points come from a caída, an immediate win or the Director's ajuste, which it never bars.
        """
        return amount > 0 and self.treinta_y_ocho and self.scores[pair] >= TREINTA_Y_OCHO and not caida

    def _deal(self, dealer: int) -> None:
        """``dealer`` deals the next data: the seat after him leads (Art. 3e)."""
        n = self.players
        self.dealer = dealer
        self.dealer_seat = self.seats[dealer]
        # Each seat's first turn in a mano: turns run leader, ..., dealer.
        self.first_turn = [(seat - dealer - 1) % n for seat in range(n)]

    def _end_data(self) -> None:
        self.in_data = False
        self._deal((self.dealer + 1) % self.players)
        self._reset_streak()
        self._new_data()

    def _end_chica(self, winner: str) -> None:
        loser = OTHER[winner]
        rules = self.rules
        result = {"chica": self.chica, "winner": winner, "scores": dict(self.scores), "zapatero": None}
        self.results.append(result)
        self.chicas[winner] += 1
        if self.in_data:
            self._end_data()
        if self.scores[loser] < ZAPATERIA_BELOW:
            if rules.zapateria == "title":
                result["zapatero"] = loser
            elif self.chica == 1:
                result["zapatero"] = loser
                self.zapateria = True
                self.finished = True
        if self.chicas[winner] >= rules.chicas_to_win:
            self.finished = True
        if self.finished:
            self.winner = winner
            return
        self.chica += 1
        self.data = self.mano = 0
        self.scores = {"A": 0, "B": 0}
        self.chica_over = True

    # -- decisions ---------------------------------------------------------

    def decide(self, seq: int, claim: dict[str, Any]) -> Decision:
        self.last_seq = seq
        kind = claim["kind"]
        self.delta = delta = {"A": 0, "B": 0}
        self.won = self.note = None
        self.detail: dict[str, Any] = {}
        self.data_over = False
        code = self.gate(kind)
        if code == "chica_terminada" and self._protests_ender(seq, claim):
            code = None
        code = code or HANDLERS[kind](self, seq, claim)
        if code is None:
            accepted, code = True, self.note
        else:
            accepted = False
        scores = self.scores
        decision = Decision(
            seq,
            kind,
            accepted,
            delta,
            code,
            self.cite(kind, code, claim),
            None,
            self.chica,
            self.data,
            self.mano,
            self.dealer_seat,
            {"A": scores["A"], "B": scores["B"]},
            self.detail,
        )
        # The data and the chica end after the decision, which belongs to them.
        if self.won:
            self.closing = self.copy()
            self.chica_ender = seq
            self.ender_target = self._ender_target(kind, seq)
            self._end_chica(self.won)
        elif self.data_over:
            self._end_data()
        return decision

    def reach(self, seq: int, claim: dict[str, Any], decision: Decision) -> str | None:
        """The code that refuses void ``claim`` (claim ``seq``) of a claim decided as ``decision`` here, or None.

        A finished mesa takes no void; a suspended one only the Director's
        (ruling "suspendida"). A refused claim, a ``suspender`` or a
        ``reanudar`` is never voided, a ``mano`` only by the claim right
        after it (ruling "anular"). A void reaches into the current chica,
        or to the claim that ended the previous chica by the claim right
        after it (ruling "sin jugada"); older is the Director's (Art. 18).
        """
        if self.finished:
            return "mesa_terminada"
        if self.suspended and not claim.get("director"):
            return "mesa_suspendida"
        target = decision.seq
        if not decision.accepted:
            return "anulacion_de_negativa"
        if decision.kind in ("suspender", "reanudar"):
            return "anulacion_de_suspension"
        if decision.kind == "mano" and seq != target + 1:
            return "anulacion_de_mano"
        if decision.chica == self.chica:
            return None
        if target == self.chica_ender and seq == target + 1:
            return None
        return "anulacion_fuera_de_alcance"

    def undo(self, decisions: Sequence[Decision]) -> tuple[int | None, str | None]:
        """The juez's "void the last claim" as the next claim: ``(target, code)``.

        ``target`` is the seq of the last claim still standing that a void
        may cancel (accepted, not voided, neither a void nor a suspender or
        reanudar, which the opposite act corrects), or None; ``code`` is the
        refusal the void would get (``reach``), or None.
        """
        for decision in reversed(decisions):
            if decision.accepted and decision.voided_by is None and decision.kind not in UNDONE_OTHERWISE:
                seq = self.last_seq + 1
                return decision.seq, self.reach(seq, {"kind": "void", "target": decision.seq}, decision)
        return None, None

    def _ender_target(self, kind: str, seq: int) -> int | None:
        """What a juego y veo may name against claim ``seq`` of ``kind``, which ends the chica (ruling "juego y veo chica").

        The play or the ronda itself; for four caídas, their last caída (002
        Art. 15B: upheld, it breaks the run); nothing for the other claims
        (a conteo, mal repartidas, a juego y veo, an ajuste), which are no levante.
        """
        if kind in PLAYS or kind in RONDAS:
            return seq
        if kind == "cuatro_caidas":
            return self.streak_seq
        return None

    def _protests_ender(self, seq: int, claim: dict[str, Any]) -> bool:
        """Whether ``claim`` protests the claim that just ended the chica (ruling "juego y veo chica").

        It is taken from the other pair right after that claim, before the
        next chica has any claim.
        """
        assert self.chica_ender is not None  # asked only when the gate says a chica has ended
        return (
            claim["kind"] == "juego_y_veo"
            and seq == self.chica_ender + 1
            and self.ender_target is not None
            and claim.get("against") == self.ender_target
            and claim["pair"] != self.results[-1]["winner"]
        )

    def _reopen(self) -> None:
        """The chica the protested play won goes on, as the play left it (see _juego_y_veo)."""
        delta, detail = self.delta, self.detail
        assert self.closing is not None  # a chica has ended: decide() kept the referee before it
        self.__dict__.update(self.closing.copy().__dict__)
        self.delta, self.detail = delta, detail
        self.won = self.note = None
        self.data_over = False

    def protestable(self, protester: str) -> list[int]:
        """The seqs of the plays ``protester`` can protest by juego y veo as the next claim, oldest first.

        Asked of the referee itself (see _juego_y_veo), so that the screen offers exactly what it takes.
        """
        claim = {"kind": "juego_y_veo", "pair": protester, "upheld": True}
        return [seq for seq in self.candidates() if self.trial(self.last_seq + 1, dict(claim, against=seq))[0].accepted]

    def candidates(self) -> list[int]:
        """The seqs a juego y veo might name as the next claim, oldest first: the ones ``protestable`` tries."""
        candidates = set(self.plays)
        if self.ender_target is not None:
            candidates.add(self.ender_target)
        if self.carried is not None:
            candidates.add(self.carried[SEQ])
        return sorted(candidates)

    def gate(self, kind: str) -> str | None:
        """The refusal of any claim of ``kind`` here, whatever its fields, or None."""
        if self.finished:
            # The play that ended the mesa is the Director's, on appeal (ruling, Art. 17).
            return "juego_y_veo_mesa_terminada" if kind == "juego_y_veo" else "mesa_terminada"
        if self.suspended and kind not in ("reanudar", "ajuste", "suspender"):
            return "mesa_suspendida"
        if kind in IN_MANO and not self.in_data:
            if kind == "pedir_mal":
                # Logged in the data where it happened (ruling, Art. 11).
                return "pedir_mal_fuera_de_data"
            return "chica_terminada" if self.chica_over else "sin_mano"
        if kind == "conteo" and self.mano < self.manos_per_data:
            return "conteo_prematuro"
        return None

    def cite(self, kind: str, code: str | None, claim: dict[str, Any]) -> str:
        """The article a decision rests on: its code's, else its kind's (the Director's, for the Director's claim)."""
        if code:
            return ARTICLES[code]
        return DIRECTOR_ARTICLES[kind] if claim.get("director") else self.articles[kind]

    def passive(
        self, seq: int, kind: str, accepted: bool, code: str | None, claim: dict[str, Any], voided_by: int | None = None
    ) -> Decision:
        """The decision of a void, or of a voided claim: it changes nothing."""
        self.last_seq = seq
        return Decision(
            seq,
            kind,
            accepted,
            {"A": 0, "B": 0},
            code,
            self.cite(kind, code, claim),
            voided_by,
            self.chica,
            self.data,
            self.mano,
            self.seats[self.dealer],
            dict(self.scores),
            {},
        )

    def _mano(self, seq: int, claim: dict[str, Any]) -> str | None:
        if self.in_data:
            if self.mano >= self.manos_per_data:
                return "conteo_pendiente"
            self.mano += 1
            # The leader may still protest the levante of the dealer, who
            # played just before him, until he throws his own card (ruling, Art. 5a).
            last = self.last_play[self.pair_of[self.dealer]]
            carried = last if last is not None and self.dealer in last[WHO] else None
            self.past_plays = self.past_plays.union(self.plays)
            self._new_mano()
            self.carried = carried
            return None
        self._open_data()
        return None

    def _open_data(self) -> None:
        """The data the dealer deals: its first mano."""
        self.in_data = True
        self.chica_over = False
        self.data += 1
        self.mano = 1
        self.captured = {"A": 0, "B": 0}
        self._new_mano()

    def _ronda(self, seq: int, claim: dict[str, Any]) -> str | None:
        pair = claim["pair"]
        limit = self.rules.ronda_limit
        if claim["kind"] == "ronda" and limit is not None and self.scores[pair] > limit:
            return "ronda_limite"
        played = max(self.bound, self.ronda_bound)
        if played >= self.players:
            return "ronda_cerrada"
        seats = self.claim_seats[pair, claim.get("player")]
        free = [s for s in seats if s not in self.ronda_seats]
        if not free:
            return "ronda_repetida"
        first_turn = self.first_turn
        timely = [s for s in free if first_turn[s] >= played]
        if not timely:
            return "ronda_tarde"
        seat = min(timely, key=first_turn.__getitem__)
        self.ronda_seats.add(seat)
        points = RONDA if claim["kind"] == "ronda" else self.rules.doble_ronda
        delta = self._award(pair, points)
        win = delta if points == CHICA else 0
        self.rondas[seq] = (seq, pair, delta - win, (seat,), win, -1)
        return None

    _doble_ronda = _ronda

    def _place(self, kind: str, seats: Iterable[int]) -> int | None:
        """The earliest possible turn for a play by one of ``seats``, or None."""
        turns = self.turns
        n = self.players
        captures = self.captures
        caida = kind in CAIDAS
        # A plain limpia needs a card on the table: the table is empty at
        # the first turn of a data.
        low = 1 if kind == "limpia" and self.mano == 1 else 0
        best: int | None = None
        first_turn = self.first_turn
        for seat in seats:
            turn = first_turn[seat]
            start = max(self.bound, low)
            if turn < start:
                turn += (start - turn + n - 1) // n * n
            while turn < turns and caida and (turn == 0 or captures >> (turn - 1) & 1):
                turn += n
            if turn < turns and (best is None or turn < best):
                best = turn
        return best

    def _caida(self, seq: int, claim: dict[str, Any]) -> str | None:
        """A play: caída (Art. 6), limpia (Art. 9), caída y limpia (Art. 9a), caída en ronda.

        Caída en ronda (seed 003) is a caída made with, or on, a card of the
        rank of a ronda announced in that mano: refused where the rule set
        does not score it (the juez logs a plain caída) and when no ronda
        or doble ronda was accepted in this mano.
        """
        kind = claim["kind"]
        pair = claim["pair"]
        rules = self.rules
        if kind == "caida_en_ronda":
            if rules.caida_en_ronda is None:
                return "caida_en_ronda_no_aplica"
            if not self.rondas:
                return "caida_en_ronda_sin_ronda"
        turn = self._place(kind, self.claim_seats[pair, claim.get("player")])
        if turn is None:
            return "sin_turno"
        caida = kind in CAIDAS
        if caida:
            fixed = self.players == 4 and "player" in claim
            if self._extends_streak(pair, turn):
                self.streak_count += 1
                self.streak_fixed = self.streak_fixed or fixed
            else:
                self._reset_streak()
                self.streak_pair, self.streak_count, self.streak_fixed = pair, 1, fixed
            self.streak_mano, self.streak_last, self.streak_seq = self.mano, turn, seq
        else:
            self._reset_streak()
        self.bound = turn + 1
        self.captures |= 1 << turn
        self.captured[pair] += 1
        award = cast(int | str, self.play_points[kind])
        delta = self._award(pair, award, caida)
        win = delta if award == CHICA else 0
        play = (seq, pair, delta - win, self.claim_seats[pair, claim.get("player")], win, turn)
        self.plays[seq] = play
        self.last_play[pair] = play
        return None

    _limpia = _caida_limpia = _caida_en_ronda = _caida

    def _cuatro_caidas(self, seq: int, claim: dict[str, Any]) -> str | None:
        """Four caídas in a row by one pair (002 Art. 15B).

        The streak counts the pair's caídas at its consecutive turns (two
        turns apart), across the manos of a data, and is awarded once.
        Turns are placed at their earliest (a lower bound), so the streak
        is broken only by what shows a gap: any other play claim between
        (the opponents' card under a caída takes nothing, and each turn of
        the pair is a caída), a caída of the pair placed further than its
        next turn (one turn further is allowed while no claim of the streak
        names a player: the streak may slide), or a new data. It carries
        into the next mano (ruling "racha"): the dealer's pair goes on at
        turn 1, the leader's at turn 2 (the lead falls on nothing, Art. 6),
        if the streak can end on the pair's last turn of the mano. An
        upheld juego y veo against the streak's last caída breaks it: that
        turn no longer counts as a caída.
        """
        pair = claim["pair"]
        award = self.rules.cuatro_caidas
        if award is None:
            return "cuatro_caidas_no_aplica"
        if not (self._streak_alive() and self.streak_pair == pair and self.streak_count >= 4):
            return "cuatro_caidas_sin_racha"
        if self.streak_awarded:
            return "cuatro_caidas_otorgada"
        self.streak_awarded = True
        # Four caídas are caídas: they close the chica from 38 (002 Art. 11).
        self.streak_delta = self._award(pair, award, True)
        return None

    def _juego_y_veo(self, seq: int, claim: dict[str, Any]) -> str | None:
        """Juego y veo (Art. 5): the pair protests the other pair's last play.

        ``against`` (optional) names the protested claim (``_protested``).
        Rejected: -2 to the protester. Upheld, ``retract`` (Art. 5c): +2 to
        the protester and the offender loses what that claim gave it;
        ``penalty`` (002 Art. 13): -2 to the offender, +2 to the protester.
        Either way what the play gave as a win (an award of ``"chica"``)
        goes too: a win is not points (ruling "juego y veo chica"). Upheld
        against a caída of the run, it breaks the run, and takes back what
        the run's four caídas gave (002 Art. 15B). Without ``against`` the
        protest is about a capture that claimed no points.

        Against the claim that ended the chica, as the very next claim (see
        ``decide``), it is judged as the chica stood: upheld, the chica goes
        on from that claim, which the protest then undoes; rejected, the −2
        falls on the new chica (ruling "juego y veo rechazado").
        Accepted, the protester has thrown his card (Art. 5b, ``_thrown``).
        """
        protester = claim["pair"]
        offender = OTHER[protester]
        if not self.in_data:
            assert self.closing is not None  # decide let it through: a chica has just ended
            found = self.closing._protested(claim, ender=True)
            if isinstance(found, str):
                return found
            if not claim["upheld"]:
                self._award(protester, -JUEGO_Y_VEO)
                return None
            self._reopen()
        else:
            found = self._protested(claim)
            if isinstance(found, str):
                return found
        play = found
        if play is not None:
            self.protested.add(play[SEQ])
        self._thrown(protester, play)
        if not claim["upheld"]:
            self._award(protester, -JUEGO_Y_VEO)
            return None
        if play is not None:
            if play[TURN] < 0:
                # A ronda found wrong is none: no caída en ronda on it (seed 003).
                del self.rondas[play[SEQ]]
            else:
                # The protested capture no longer shows in the conteo's check.
                self.captured[offender] -= 1
            if play[WIN]:
                self._award(offender, -play[WIN])
            if play[SEQ] == self.streak_seq:
                if self.streak_awarded:
                    self._award(offender, -self.streak_delta)
                self._reset_streak()
        if self.rules.juego_y_veo_upheld == "retract":
            if play is not None:
                self._award(offender, -play[POINTS])
        else:
            self._award(offender, -JUEGO_Y_VEO)
        self._award(protester, JUEGO_Y_VEO)
        return None

    def _protested(self, claim: dict[str, Any], ender: bool = False) -> Play | str | None:
        """The play juego y veo ``claim`` names (None when it names none), or the code that refuses it.

        An accepted play of the other pair in this mano, its most recent,
        not yet protested; or, in the next mano of the data until a play
        shows the leader has thrown his card, the dealer's pair's last play
        if the dealer may have made it (ruling "juego y veo en la mano
        nueva", Art. 5a: ``juego_y_veo_cerrado`` otherwise). ``ender``: asked
        of the referee as the claim that ended the chica left it, where the
        ronda that ended it may be named too (ruling "juego y veo chica").
        """
        if "against" not in claim:
            return None
        against = claim["against"]
        play = self.plays.get(against)
        carried = self.carried
        if play is None and ender and against in self.rondas:
            play = self.rondas[against]
        elif play is None and carried is not None and carried[SEQ] == against:
            if self.bound:
                return "juego_y_veo_cerrado"
            play = carried
        elif play is None:
            return "juego_y_veo_cerrado" if against in self.past_plays else "juego_y_veo_sin_jugada"
        elif self.last_play[play[PAIR]] is not play:
            return "juego_y_veo_no_ultima"
        if play[PAIR] == claim["pair"]:
            return "juego_y_veo_sin_jugada"
        if play[SEQ] in self.protested:
            return "juego_y_veo_repetido"
        return play

    def _thrown(self, protester: str, play: Play | None) -> None:
        """After his juego y veo the protester throws his card (Art. 5b): his ronda of this mano is late (Art. 7a).

        His turn is the one after the protested play's; the leader's, across
        the new mano; for a capture not logged, his pair's first turn not
        known played that someone played before. A lower bound, as every turn
        here: only the rondas read it, since a capture with that card is
        still to be claimed. A ronda protested is no card played.
        """
        if play is None:
            turn = max(self.bound, 1)
            if self.pair_of[(self.dealer + 1 + turn) % self.players] != protester:
                turn += 1
        elif play is self.carried:
            turn = 0
        elif play[TURN] < 0:
            return
        else:
            turn = play[TURN] + 1
        self.ronda_bound = max(self.ronda_bound, turn + 1)

    def _pedir_mal(self, seq: int, claim: dict[str, Any]) -> str | None:
        self._award(claim["pair"], -PEDIR_MAL)
        return None

    def _mal_repartidas(self, seq: int, claim: dict[str, Any]) -> str | None:
        """Cartas mal repartidas (Art. 4): +10 to the pair that did not deal; the data ends.

        Found while dealing (Art. 4a-b: blocks of the wrong size, or dealt
        from the wrong side), before the juez logs the mano, it is the data
        being dealt that ends: the misdealt data counts as one, with the
        dealer who misdealt, and the rewarded pair deals the next (Art. 4c).
        """
        if not self.in_data:
            self._open_data()
        self._award(self.pair_of[(self.dealer + 1) % self.players], MAL_REPARTIDAS)
        self.data_over = True
        return None

    def _conteo(self, seq: int, claim: dict[str, Any]) -> str | None:
        cards = claim["cards"]
        a, b = cards["A"], cards["B"]
        if a + b > MAX_CARDS:
            return "conteo_invalido"
        for pair in ("A", "B"):
            # Each accepted capture took the card played and at least one
            # more: the log shows at least that many cards (ruling, Art. 10, 15).
            least = 2 * self.captured[pair]
            if cards[pair] < least:
                self.detail = {"pair": pair, "plays": self.captured[pair], "least": least}
                return "conteo_contradice_registro"
        deals_next = self.pair_of[(self.dealer + 1) % self.players]
        self.detail = detail = conteo(a, b, deals_next)
        points, falla = detail["conteo"], detail["falla"]
        gains = {pair: points[pair] + falla[pair] for pair in ("A", "B")}
        # Each pair's count and falla come together; the pair that won the
        # count goes first, and the chica ends the moment a pair reaches 40
        # (Art. 15). Both gain only when neither took a card; when both would
        # reach 40, both are added, the higher total wins, and on equal totals
        # the pair that deals next (ruling "ambas 40").
        both = all(
            not self._barred(pair, gains[pair]) and self.scores[pair] + gains[pair] >= CHICA_POINTS
            for pair in ("A", "B")
        )
        first = "B" if points["B"] else "A"
        for pair in (first, OTHER[first]):
            if gains[pair]:
                self._award(pair, gains[pair], settle=not both)
        if both:
            self.won = detail["winner"] = max(("A", "B"), key=lambda pair: (self.scores[pair], pair == deals_next))
        self.data_over = True
        return None

    def _ajuste(self, seq: int, claim: dict[str, Any]) -> str | None:
        self._award(claim["pair"], claim["points"], ajuste=True)
        return None

    def _suspender(self, seq: int, claim: dict[str, Any]) -> str | None:
        if self.suspended:
            return "ya_suspendida"
        self.suspended = True
        return None

    def _reanudar(self, seq: int, claim: dict[str, Any]) -> str | None:
        if not self.suspended:
            return "no_suspendida"
        self.suspended = False
        return None

    # -- the state -----------------------------------------------------------

    def counters(self) -> dict[str, Any]:
        """The chica, data, mano and dealer of the mano in play, or, between datas, of the data dealt next (Art. 3f)."""
        between = not (self.in_data or self.finished)
        return {
            "chica": self.chica,
            "data": self.data + 1 if between else self.data,
            "mano": 1 if between else self.mano,
            "dealer": self.seats[self.dealer],
        }

    def state(self) -> State:
        if self.finished:
            phase = "finished"
        elif not self.in_data:
            phase = "deal"
        else:
            phase = "conteo" if self.mano >= self.manos_per_data else "play"
        played = max(self.bound, self.ronda_bound)
        window = (
            self.in_data
            and not self.finished
            and any(s not in self.ronda_seats and self.first_turn[s] >= played for s in range(self.players))
        )
        alive = self._streak_alive()
        if self.finished:
            step = "finished"
        elif self.suspended:
            step = "resume"
        elif not self.in_data:
            step = "deal"
        elif self.bound < self.turns:
            step = "last_mano" if self.mano >= self.manos_per_data else "play"
        else:
            # Every card of the mano is known played (a capture placed at the dealer's last turn).
            step = "conteo" if self.mano >= self.manos_per_data else "mano"
        return State(
            scores=dict(self.scores),
            chicas=dict(self.chicas),
            chica=self.chica,
            data=self.data,
            mano=self.mano,
            dealer=self.seats[self.dealer],
            finished=self.finished,
            winner=self.winner,
            zapateria=self.zapateria,
            suspended=self.suspended,
            phase=phase,
            ronda_window=window,
            caida_streak={"pair": self.streak_pair if alive else None, "count": self.streak_count if alive else 0},
            chica_results=[dict(r) for r in self.results],
            players=self.players,
            seats=list(self.seats),
            next=step,
            counters=self.counters(),
            ended="mesa" if self.finished else "chica" if self.chica_over else None,
            referee=self,
        )


def check_header(header: object) -> None:
    """Raise :class:`ClaimError` unless ``header`` is a valid :class:`Header`."""
    if not isinstance(header, Header) or not isinstance(header.ruleset, RuleSet):
        raise ClaimError("La cabecera necesita un reglamento (RuleSet).", "The header needs a rule set (RuleSet).")
    if type(header.players) is not int or header.players not in SEATS:
        raise ClaimError(
            f"Una mesa tiene 2 o 4 jugadores, no {header.players!r}.",
            f"A mesa has 2 or 4 players, not {header.players!r}.",
        )
    if header.first_dealer not in SEATS[header.players]:
        seats = ", ".join(SEATS[header.players])
        raise ClaimError(
            f"El primero en dar debe ser uno de {seats}, no {header.first_dealer!r}.",
            f"The first dealer must be one of {seats}, not {header.first_dealer!r}.",
        )


def replay(header: Header, claims: Iterable[dict[str, Any]]) -> Replay:
    """Decide every claim of the log ``claims`` (seq = position, from 1).

    Raises :class:`ClaimError` for a bad header or a malformed claim (the
    message names the claim's seq); nothing is decided then.
    """
    check_header(header)
    players = header.players
    checked = claims if isinstance(claims, list) else list(claims)
    for seq, claim in enumerate(checked, 1):
        try:
            check_claim(claim, players)
        except ClaimError as error:
            raise ClaimError(f"Jugada {seq}: {error.spanish}", f"Claim {seq}: {error.english}") from None
    voids = Voids()
    referee = Referee(header)
    decisions = []
    # The referee just before each claim a void names: an accepted void
    # decides the log again from its earliest change, not from the start.
    targets = {claim["target"] for claim in checked if claim["kind"] == "void"}
    before: dict[int, Referee] = {}

    def decide(seq: int, claim: dict[str, Any], keep: bool = False) -> None:
        # ``keep``: the copy before ``seq`` is still right (nothing before it changed).
        if seq in targets and not keep:
            before[seq] = referee.copy()
        if seq in voids.voided_by:
            decision = referee.passive(seq, claim["kind"], False, "anulada", claim, voids.voided_by[seq])
        elif seq in voids.codes:
            code = voids.codes[seq]
            decision = referee.passive(seq, "void", code is None, code, claim)
        else:
            decision = referee.decide(seq, claim)
        decisions.append(decision)

    for seq, claim in enumerate(checked, 1):
        if claim["kind"] != "void":
            decide(seq, claim)
            continue
        target = claim["target"]
        code = voids.check(seq, target) or referee.reach(seq, claim, decisions[target - 1])
        if code is not None:
            voids.refuse(seq, code)
            decide(seq, claim)
            continue
        # From the earliest claim whose fate the void changes: its target,
        # or down a chain of voids a claim they restore or cancel again.
        changed = voids.accept(seq, target)
        referee = before[changed].copy()
        del decisions[changed - 1 :]
        for again in range(changed, seq + 1):
            decide(again, checked[again - 1], keep=again == changed)
    return Replay(decisions, referee.state(), referee)


# Each claim kind's method (``_caida``...), by kind; a void is no claim of the referee's.
HANDLERS = {kind: getattr(Referee, "_" + kind) for kind in KIND_ARTICLES if kind != "void"}
