"""A simulator of random legal Cuarenta, and the claim log a perfect juez keeps.

It is the oracle of the engine's property tests: it deals and plays random
legal datas with a seeded :class:`random.Random`, writes the claims a perfect
juez would log (only claims that earn something, each in its window), and
keeps its own tally of the points, written from docs/REGLAS.md independently of
the engine. Replaying the claims through ``engines.rules.replay`` must
accept every claim and end with the same scores, chicas and winner.

Terms and rules it follows (docs/REGLAS.md)
-------------------------------------
seats and turns
    Four players sit A1, B1, A2, B2 counterclockwise (two players: A1, B1).
    The dealer of the first data is given; each next data is dealt by the
    next seat counterclockwise (Art. 3f), across chicas too (ruling). The
    seat after the dealer leads every mano and the dealer plays last (Art. 3e).
data and mano
    A data deals all 40 cards, five to each player per mano: 2 manos with
    four players, 4 with two (seed 003). The juez logs ``mano`` at each deal.
ronda, doble ronda (Art. 7, 8)
    A player dealt three (four) cards of a rank claims ``ronda``
    (``doble_ronda``) before any card of the mano is played. A pair above
    ``ruleset.ronda_limit`` points does not claim a ronda (002 Art. 9).
play
    Each player in turn picks uniformly among every legal capture of every
    card in the hand and every card of the hand that takes nothing
    (``engines.rules.levante.options``). With ``forget`` > 0 a player
    with an escalera sometimes takes only part of it; the forgotten cards are
    set aside for nobody (Art. 16) or taken at once by the opponents
    (002 Art. 13), per ``ruleset.arranche``. Such a play is never a limpia
    (the forgotten cards were on the table), but its caída stands.
play claims
    ``caida`` (Art. 6: a match of the card the previous player left on the
    table, same mano), ``limpia`` (Art. 9: the table is left empty) or
    ``caida_limpia`` (both; ``ruleset.caida_limpia_points``), with pair and
    player, claimed at once. Where ``ruleset.caida_en_ronda`` scores, a
    caída of the rank of a ronda or doble ronda announced in that mano is
    logged as ``caida_en_ronda`` instead (it covers the whole play, limpia
    included). Where ``ruleset.cuatro_caidas`` scores, ``cuatro_caidas`` is
    logged right after a pair's fourth caída in a row: a streak counts the
    pair's consecutive turns that are caídas, across the manos of a data
    (ruling "racha": the leader's first card of a mano falls on nothing, so
    when it takes nothing it neither extends nor breaks the streak), is
    broken by any other turn of the pair that is not a caída and starts
    again at each data; it is awarded once.
conteo
    At the end of a data ``conteo`` gives the cards each pair took (the played
    card goes with the cards it takes). The larger count, if 20 or more,
    scores 6 plus 1 per card over 20, an odd total rounded up to even; equal
    counts give 2 to the pair that deals next (the dealer's opponents,
    "dos por darlas"); else 2 to the pair with more ("mayoría"); a pair with
    no card gives falla (2) to its opponents (Art. 3g, 10, 15f–h).
points and chicas
    A score never goes below 0 (the simulator never loses points: every play
    is legal and every claim earned). The chica ends the moment a pair
    reaches 40, and nothing more of that data is played or scored; the next
    data starts the next chica at 0–0. An award of ``"chica"`` (doble ronda,
    caída en ronda, cuatro caídas where the rule set says so) wins the chica
    at once: the pair is brought to 40, a chica being 40 points (Art. 14c).
    With ``ruleset.treinta_y_ocho`` (002 Art. 11) a pair at 38 scores only
    with caídas (``caida``, ``caida_limpia``, ``caida_en_ronda``,
    ``cuatro_caidas``): "only a caída closes the chica", so its limpias,
    rondas and doble rondas of points, conteo and falla give nothing, and
    the juez logs no such claim. An award of ``"chica"`` is a win, not
    points: a doble ronda that wins the chica still wins it at 38 (ruling
    "38 que no juega", docs/REGLAS.md).
mesa
    Won by the first pair to ``ruleset.chicas_to_win`` chicas (Art. 3g.7).
    Zapatería (Art. 3g.6, 12): a chica loser with fewer than 10 points is
    zapatero; with ``ruleset.zapateria == "ends_mesa"`` (or
    ``"eliminates"``, seed 003, whose zapatero is also out of the
    championship) that ends the mesa after the first chica only, with
    ``"title"`` it is a title after any chica and the mesa goes on (002 Art. 16).

This module imports nothing from Django: the engine is plain Python.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, cast

from engines.rules.cards import INDEX, RANKS, deck
from engines.rules.levante import options
from engines.rules.rules import CHICA, RuleSet

SEATS = {4: ("A1", "B1", "A2", "B2"), 2: ("A1", "B1")}
OTHER = {"A": "B", "B": "A"}
CARDS_PER_MANO = 5
CHICA_POINTS = 40
CAIDA_POINTS = LIMPIA_POINTS = RONDA_POINTS = FALLA_POINTS = DOS_POR_DARLAS = MAYORIA = 2
ZAPATERIA_BELOW = 10
TREINTA_Y_OCHO = 38

_DECK = [INDEX[rank] for rank in deck()]


@lru_cache(maxsize=1 << 16)
def _moves(table: tuple[int, ...], card: int) -> tuple[tuple[int, Any], ...]:
    """A player's choices with ``card``: each capture, or ``None`` when it takes nothing."""
    found = options(table, card)
    return tuple((card, option) for option in found) if found else ((card, None),)


def next_dealer(players: int, dealer: str) -> str:
    """The seat that deals the data after ``dealer``'s (Art. 3f)."""
    seats = SEATS[players]
    return seats[(seats.index(dealer) + 1) % players]


def conteo_points(a: int, b: int, deals_next: str) -> tuple[dict[str, int], dict[str, int]]:
    """Points of the conteo and of falla for ``a`` and ``b`` cards taken (Art. 3g, 10, 15f–h)."""
    conteo = {"A": 0, "B": 0}
    if a == b:
        conteo[deals_next] = DOS_POR_DARLAS
    else:
        more, cards = ("A", a) if a > b else ("B", b)
        over = cards - 20
        conteo[more] = 6 + over + over % 2 if over >= 0 else MAYORIA
    falla = {"A": FALLA_POINTS if b == 0 else 0, "B": FALLA_POINTS if a == 0 else 0}
    return conteo, falla


@dataclass(slots=True)
class Play:
    """One card played, for checking the log against the levante checker."""

    seat: str
    table: tuple[int, ...]  # count of each rank on the table before the play
    played: int  # rank index
    previous: int | None  # the previous card's rank index, if still on the table
    base: tuple[int, ...] = ()
    escalera: tuple[int, ...] = ()  # escalera cards taken
    forgotten: tuple[int, ...] = ()  # escalera cards left behind (arranche)
    caida: bool = False
    limpia: bool = False


@dataclass
class DataLog:
    claims: list[dict[str, Any]]
    scores: dict[str, int]  # the chica's scores after the data
    winner: str | None  # the pair that won the chica in this data, if any
    cards: dict[str, int]  # "A", "B" (taken), "table", "set_aside", "unplayed": they add up to 40
    plays: list[Play] = field(default_factory=list)


class _Score:
    """The chica's scores, with the rule set's limits on what can be scored."""

    def __init__(self, ruleset: RuleSet, scores: dict[str, int]) -> None:
        self.ruleset = ruleset
        self.scores = dict(scores)
        self.winner: str | None = None

    def earns(self, pair: str) -> bool:
        """Whether anything but a caída gives ``pair`` points (38 que no juega, 002 Art. 11)."""
        return not self.ruleset.treinta_y_ocho or self.scores[pair] < TREINTA_Y_OCHO

    def gain(self, pair: str, award: int | str) -> None:
        if award == CHICA:  # the chica is 40 points (Art. 14c): the pair is brought to 40
            award = CHICA_POINTS - self.scores[pair]
        self.scores[pair] += cast(int, award)  # the rule set admits no other word than CHICA
        if self.scores[pair] >= CHICA_POINTS:
            self.winner = pair


def simulate_data(
    rng: random.Random, ruleset: RuleSet, players: int, dealer: str, scores: dict[str, int], forget: float = 0.0
) -> DataLog:
    """Deal and play one data from ``scores``; stop when a pair wins the chica."""
    seats = SEATS[players]
    start = seats.index(dealer) + 1
    order = [seats[(start + k) % players] for k in range(players)]  # leader first, dealer last
    deck = _DECK[:]
    rng.shuffle(deck)
    score = _Score(ruleset, scores)
    claims: list[dict[str, Any]] = []
    plays: list[Play] = []
    taken = {"A": 0, "B": 0}
    table = [0] * len(RANKS)
    on_table = 0
    set_aside = 0
    dealt = 0
    streak_pair: str | None = None
    streak = 0

    def result() -> DataLog:
        cards = {
            "A": taken["A"],
            "B": taken["B"],
            "table": on_table,
            "set_aside": set_aside,
            "unplayed": len(_DECK) - taken["A"] - taken["B"] - on_table - set_aside,
        }
        return DataLog(claims, score.scores, score.winner, cards, plays)

    for _ in range(len(_DECK) // (CARDS_PER_MANO * players)):
        claims.append({"kind": "mano"})
        hands = []
        for _seat in order:  # dealt from the leader round to the dealer (Art. 3d)
            hands.append(deck[dealt : dealt + CARDS_PER_MANO])
            dealt += CARDS_PER_MANO
        ronda_ranks: set[int] = set()
        for seat, hand in zip(order, hands):
            pair, player = seat[0], int(seat[1])
            for rank in set(hand):
                same = hand.count(rank)
                if same < 3:
                    continue
                award: int | str
                if same == 3:
                    kind, award = "ronda", RONDA_POINTS
                    if ruleset.ronda_limit is not None and score.scores[pair] > ruleset.ronda_limit:
                        continue
                else:
                    kind, award = "doble_ronda", ruleset.doble_ronda
                if award != CHICA and not score.earns(pair):
                    continue
                claims.append({"kind": kind, "pair": pair, "player": player})
                ronda_ranks.add(rank)
                score.gain(pair, award)
                if score.winner:
                    return result()

        previous = None
        for turn in range(CARDS_PER_MANO):
            for seat, hand in zip(order, hands):
                lead = turn == 0 and seat == order[0]
                pair = seat[0]
                state = tuple(table)
                choices: list[tuple[int, Any]] = []
                for card in set(hand):
                    choices += _moves(state, card)
                card, option = choices[int(rng.random() * len(choices))]
                hand.remove(card)
                play = Play(seat, state, card, previous)
                plays.append(play)
                if option is None:
                    table[card] += 1
                    on_table += 1
                    previous = card
                    if streak_pair == pair and not lead:
                        streak_pair, streak = None, 0
                    continue

                base, escalera, match = option
                if escalera and forget and rng.random() < forget:
                    keep = rng.randrange(len(escalera))
                    escalera, forgotten = escalera[:keep], escalera[keep:]
                    for index in forgotten:
                        table[index] -= 1
                    on_table -= len(forgotten)
                    if ruleset.arranche == "set_aside":
                        set_aside += len(forgotten)
                    else:
                        taken[OTHER[pair]] += len(forgotten)
                    play.forgotten = forgotten
                play.base, play.escalera = base, escalera
                for index in base + escalera:
                    table[index] -= 1
                won = len(base) + len(escalera)
                on_table -= won
                taken[pair] += won + 1
                caida = play.caida = match and card == previous
                limpia = play.limpia = on_table == 0 and not play.forgotten
                previous = None

                if not caida:
                    if streak_pair == pair:
                        streak_pair, streak = None, 0
                    if limpia and score.earns(pair):
                        claims.append({"kind": "limpia", "pair": pair, "player": int(seat[1])})
                        score.gain(pair, LIMPIA_POINTS)
                        if score.winner:
                            return result()
                    continue

                if ruleset.caida_en_ronda is not None and card in ronda_ranks:
                    claims.append({"kind": "caida_en_ronda", "pair": pair})
                    score.gain(pair, ruleset.caida_en_ronda)
                elif limpia:
                    claims.append({"kind": "caida_limpia", "pair": pair, "player": int(seat[1])})
                    score.gain(pair, ruleset.caida_limpia_points)
                else:
                    claims.append({"kind": "caida", "pair": pair, "player": int(seat[1])})
                    score.gain(pair, CAIDA_POINTS)
                if score.winner:
                    return result()
                streak = streak + 1 if streak_pair == pair else 1
                streak_pair = pair
                if streak == 4 and ruleset.cuatro_caidas is not None:
                    claims.append({"kind": "cuatro_caidas", "pair": pair})
                    score.gain(pair, ruleset.cuatro_caidas)
                    if score.winner:
                        return result()

    claims.append({"kind": "conteo", "cards": dict(taken)})
    conteo, falla = conteo_points(taken["A"], taken["B"], OTHER[dealer[0]])
    gains = {pair: conteo[pair] + falla[pair] for pair in "AB"}
    for pair in "AB":
        if gains[pair] and score.earns(pair):
            score.scores[pair] += gains[pair]
    for pair in "AB":
        if score.scores[pair] >= CHICA_POINTS and not score.winner:
            score.winner = pair
    return result()


@dataclass
class MesaLog:
    claims: list[dict[str, Any]]
    expected: dict[str, Any]  # the final state a correct engine reaches (see simulate_mesa)
    datas: list[DataLog]


def simulate_mesa(
    rng: random.Random, ruleset: RuleSet, players: int, first_dealer: str, forget: float = 0.0
) -> MesaLog:
    """Play a whole mesa; ``expected`` holds the final state a correct engine reaches.

    ``scores`` are the last chica's, as it ended; then ``chicas``, ``winner``,
    ``zapateria``, ``chica_results``, ``dealer`` and ``datas``.

    ``chica_results`` rows are ``{"chica", "winner", "scores", "zapatero"}``;
    ``dealer`` is the seat that would deal the next data; ``datas`` counts
    the datas played.
    """
    dealer = first_dealer
    scores = {"A": 0, "B": 0}
    chicas = {"A": 0, "B": 0}
    chica_results: list[dict[str, Any]] = []
    claims: list[dict[str, Any]] = []
    datas: list[DataLog] = []
    zapateria = False
    while True:
        log = simulate_data(rng, ruleset, players, dealer, scores, forget)
        datas.append(log)
        claims.extend(log.claims)
        dealer = next_dealer(players, dealer)
        if not log.winner:
            scores = log.scores
            continue
        loser = OTHER[log.winner]
        first = not chica_results
        zapatero = loser if log.scores[loser] < ZAPATERIA_BELOW and (ruleset.zapateria == "title" or first) else None
        chica_results.append(
            {"chica": len(chica_results) + 1, "winner": log.winner, "scores": dict(log.scores), "zapatero": zapatero}
        )
        chicas[log.winner] += 1
        scores = {"A": 0, "B": 0}
        zapateria = bool(zapatero) and ruleset.zapateria != "title"
        if zapateria or chicas[log.winner] >= ruleset.chicas_to_win:
            expected = {
                "scores": dict(log.scores),
                "chicas": chicas,
                "winner": log.winner,
                "zapateria": zapateria,
                "chica_results": chica_results,
                "dealer": dealer,
                "datas": len(datas),
            }
            return MesaLog(claims, expected, datas)
