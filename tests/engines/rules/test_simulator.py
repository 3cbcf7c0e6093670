"""The simulator: legal plays, cards that add up, and a tally that follows docs/REGLAS.md."""

import random
from collections import Counter

import pytest

from engines.rules import Header, replay
from engines.rules.cards import INDEX, RANKS, deck
from engines.rules.levante import judge
from engines.rules.rules import build_ruleset
from tests.support.simulator import SEATS, conteo_points, simulate_data, simulate_mesa

PROFILES = ("riobamba", "pichincha", "a_todo_rigor")
CAIDAS = {"caida", "caida_limpia", "caida_en_ronda", "cuatro_caidas"}
ZERO = {"A": 0, "B": 0}


class Rigged(random.Random):
    """A Random whose shuffle deals ``first`` (ranks) on top, the rest of the deck after."""

    def __init__(self, first, seed=0):
        super().__init__(seed)
        rest = Counter(deck()) - Counter(first)
        tail = sorted(rest.elements(), key=INDEX.__getitem__)
        random.Random(seed).shuffle(tail)
        self.order = [INDEX[r] for r in list(first) + tail]

    def shuffle(self, x):
        x[:] = self.order


class Scripted(Rigged):
    """A Rigged deck whose players always take the first choice they have."""

    def random(self):
        return 0.0


def ranks(counts):
    return [RANKS[i] for i, n in enumerate(counts) for _ in range(n)]


def logs(players, profile="riobamba", forget=0.3, seeds=range(40)):
    ruleset = build_ruleset(profile)
    for seed in seeds:
        rng = random.Random(seed)
        dealer = SEATS[players][seed % players]
        yield ruleset, simulate_data(rng, ruleset, players, dealer, ZERO, forget)


# --- cards ---


@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("profile", ["riobamba", "pichincha"])
def test_cards_add_up_to_40_art_3f(players, profile):
    aside = 0
    for ruleset, log in logs(players, profile):
        cards = log.cards
        assert cards["A"] + cards["B"] + cards["table"] + cards["set_aside"] + cards["unplayed"] == 40
        if log.winner is None:
            assert cards["unplayed"] == 0
            assert log.claims[-1] == {"kind": "conteo", "cards": {"A": cards["A"], "B": cards["B"]}}
        aside += cards["set_aside"]
        if ruleset.arranche == "opponents":  # 002 Art. 13: the opponents take them
            assert cards["set_aside"] == 0
    if profile == "riobamba":  # Art. 16: forgotten escalera cards count for nobody
        assert aside > 0


@pytest.mark.parametrize("players", [4, 2])
def test_a_data_has_two_manos_with_four_players_four_with_two_seed_003(players):
    for _, log in logs(players, forget=0):
        if log.winner is None:
            assert sum(c["kind"] == "mano" for c in log.claims) == 40 // (5 * players)
            assert len(log.plays) == 40


# --- every play is legal per the levante checker ---


@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("profile", ["riobamba", "pichincha"])
def test_every_logged_capture_is_legal_art_5(players, profile):
    for ruleset, log in logs(players, profile):
        expected_claims = []
        for play in log.plays:
            table = ranks(play.table)
            previous = RANKS[play.previous] if play.previous is not None else None
            taken = [RANKS[i] for i in play.base + play.escalera]
            verdict = judge(table, RANKS[play.played], previous, taken, ruleset)
            if play.forgotten:
                assert verdict.verdict == "incomplete"
                assert list(verdict.left_behind) == [RANKS[i] for i in play.forgotten]
            else:
                assert verdict.verdict == "legal"
            capture = verdict.capture
            if capture:  # the simulator's caída and limpia are the checker's (Art. 6, 9)
                assert (play.caida, play.limpia) == (capture.caida, capture.limpia)
            if capture and (capture.caida or capture.limpia):
                kind = "caida_limpia" if capture.caida and capture.limpia else ("caida" if capture.caida else "limpia")
                expected_claims.append((kind, play.seat[0], int(play.seat[1])))
        logged = [
            (c["kind"], c["pair"], c["player"]) for c in log.claims if c["kind"] in ("caida", "limpia", "caida_limpia")
        ]
        if profile == "riobamba":  # no 38 que no juega, no caída en ronda: every one is claimed
            assert logged == expected_claims[: len(logged)]
            if log.winner is None:
                assert logged == expected_claims


# --- the tally (docs/REGLAS.md) ---


@pytest.mark.parametrize(
    "a, b, conteo, falla",
    [
        (20, 20, {"A": 0, "B": 2}, ZERO),  # dos por darlas, Art. 3g.3
        (21, 19, {"A": 8, "B": 0}, ZERO),  # seven that gives eight, Art. 3g.4
        (18, 22, {"A": 0, "B": 8}, ZERO),
        (17, 23, {"A": 0, "B": 10}, ZERO),
        (30, 10, {"A": 16, "B": 0}, ZERO),
        (19, 18, {"A": 2, "B": 0}, ZERO),  # mayoría, Art. 15f
        (15, 15, {"A": 0, "B": 2}, ZERO),  # a tie below 20: dos por darlas, Art. 15g
        (34, 0, {"A": 20, "B": 0}, {"A": 2, "B": 0}),  # falla, Art. 10
    ],
)
def test_conteo_points_art_3g_15(a, b, conteo, falla):
    assert conteo_points(a, b, deals_next="B") == (conteo, falla)


def test_the_leader_is_the_seat_after_the_dealer_art_3e():
    riobamba = build_ruleset("riobamba")
    for dealer, claim in [
        ("A1", {"kind": "ronda", "pair": "B", "player": 1}),
        ("B2", {"kind": "ronda", "pair": "A", "player": 1}),
        ("B1", {"kind": "ronda", "pair": "A", "player": 2}),
    ]:
        log = simulate_data(Rigged("5552K"), riobamba, 4, dealer, ZERO)
        assert log.claims[:2] == [{"kind": "mano"}, claim]


def test_a_ronda_that_reaches_40_ends_the_chica_at_once_art_15():
    log = simulate_data(Rigged("5552K"), build_ruleset("riobamba"), 2, "B1", {"A": 38, "B": 36})
    assert log.claims == [{"kind": "mano"}, {"kind": "ronda", "pair": "A", "player": 1}]
    assert log.winner == "A" and log.scores == {"A": 40, "B": 36}
    assert log.cards["unplayed"] == 40  # nothing more of the data is played or scored


def test_doble_ronda_four_points_art_8_or_the_chica_002_art_15a():
    log = simulate_data(Rigged("55552"), build_ruleset("riobamba"), 2, "B1", {"A": 10, "B": 0})
    assert log.claims[1] == {"kind": "doble_ronda", "pair": "A", "player": 1}  # Art. 8
    log = simulate_data(Rigged("55552"), build_ruleset("riobamba"), 2, "B1", {"A": 36, "B": 0})
    assert log.winner == "A" and log.scores["A"] == 40
    log = simulate_data(Rigged("55552"), build_ruleset("pichincha"), 2, "B1", {"A": 10, "B": 4})
    assert log.winner == "A" and log.scores == {"A": 40, "B": 4}  # 002 Art. 15A: wins the chica (Art. 14c: 40)
    assert len(log.claims) == 2


def test_no_ronda_above_30_in_pichincha_002_art_9():
    pichincha = build_ruleset("pichincha")
    above = simulate_data(Rigged("5552K"), pichincha, 2, "B1", {"A": 32, "B": 0})
    assert {"kind": "ronda", "pair": "A", "player": 1} not in above.claims
    at_30 = simulate_data(Rigged("5552K"), pichincha, 2, "B1", {"A": 30, "B": 0})
    assert at_30.claims[1] == {"kind": "ronda", "pair": "A", "player": 1}


def test_treinta_y_ocho_only_a_caida_closes_the_chica_002_art_11():
    pichincha = build_ruleset("pichincha")
    closed = 0
    for seed in range(120):
        log = simulate_data(random.Random(seed), pichincha, 4, "A1", {"A": 38, "B": 0})
        a_claims = [c["kind"] for c in log.claims if c.get("pair") == "A"]
        assert set(a_claims) <= CAIDAS
        if log.winner == "A":
            closed += 1
            assert log.claims[-1]["kind"] in CAIDAS
        else:
            assert log.scores["A"] == 38  # limpias, rondas and conteo give nothing
    assert closed


POINTS = {"ronda": 2, "doble_ronda": 4, "caida": 2, "limpia": 2, "caida_limpia": 2}


@pytest.mark.parametrize("players", [4, 2])
def test_the_riobamba_tally_is_the_sum_of_the_claims_art_15(players):
    for seed in range(60):
        rng = random.Random(seed)
        start = {"A": 2 * (seed % 15), "B": 2 * (seed % 11)}
        dealer = SEATS[players][seed % players]
        log = simulate_data(rng, build_ruleset("riobamba"), players, dealer, start, forget=0.2)
        scores = dict(start)
        for claim in log.claims:
            assert max(scores.values()) < 40  # nothing is claimed after the chica ends
            if claim["kind"] == "conteo":
                deals_next = "B" if dealer[0] == "A" else "A"
                conteo, falla = conteo_points(claim["cards"]["A"], claim["cards"]["B"], deals_next)
                for pair in "AB":
                    scores[pair] += conteo[pair] + falla[pair]
            elif claim["kind"] in POINTS:
                scores[claim["pair"]] += POINTS[claim["kind"]]
        assert scores == log.scores
        assert (log.winner is not None) == (max(scores.values()) >= 40)


@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("profile", PROFILES)
def test_a_mesa_ends_at_two_chicas_or_zapateria_art_3g(players, profile):
    ruleset = build_ruleset(profile)
    for seed in range(12):
        first = SEATS[players][seed % players]
        mesa = simulate_mesa(random.Random(seed), ruleset, players, first, forget=0.1)
        expected = mesa.expected
        results = expected["chica_results"]
        seats = SEATS[players]
        # Art. 3f: the deal passes counterclockwise every data, across chicas.
        assert expected["dealer"] == seats[(seats.index(first) + expected["datas"]) % players]
        assert sum(c["kind"] == "conteo" for c in mesa.claims) + len(results) >= expected["datas"]
        if expected["zapateria"]:  # Art. 3g.6, 12: zapatería in the first chica ends the mesa
            assert profile != "pichincha" and len(results) == 1
            assert results[0]["scores"][results[0]["zapatero"]] < 10
        else:
            assert expected["chicas"][expected["winner"]] == 2  # Art. 3g.7
        for row in results:
            loser = "B" if row["winner"] == "A" else "A"
            zapatero = row["scores"][loser] < 10 and (profile == "pichincha" or row["chica"] == 1)
            assert row["zapatero"] == (loser if zapatero else None)


def test_every_data_deals_again_and_the_deal_rotates_across_chicas_art_3f():
    # Every data deals the same rigged deck: the leader (the seat after the dealer) holds
    # four 5s, a doble ronda that wins the chica in pichincha (002 Art. 15A) at 40-0.
    mesa = simulate_mesa(Rigged("55552"), build_ruleset("pichincha"), 4, "A1")
    assert mesa.expected == {
        "scores": {"A": 0, "B": 40},
        "chicas": {"A": 1, "B": 2},
        "winner": "B",
        "zapateria": False,
        "dealer": "B2",
        "datas": 3,
        "chica_results": [  # 002 Art. 16: a zapatero after any chica; the mesa goes on
            {"chica": 1, "winner": "B", "scores": {"A": 0, "B": 40}, "zapatero": "A"},
            {"chica": 2, "winner": "A", "scores": {"A": 40, "B": 0}, "zapatero": "B"},
            {"chica": 3, "winner": "B", "scores": {"A": 0, "B": 40}, "zapatero": "A"},
        ],
    }
    assert [c["kind"] for c in mesa.claims] == ["mano", "doble_ronda"] * 3


def test_zapateria_in_the_first_chica_ends_the_mesa_art_12():
    ruleset = build_ruleset("pichincha", {"zapateria": "ends_mesa"})
    mesa = simulate_mesa(Rigged("55552"), ruleset, 4, "A1")
    assert mesa.expected["zapateria"] and mesa.expected["winner"] == "B"
    assert mesa.expected["chica_results"] == [{"chica": 1, "winner": "B", "scores": {"A": 0, "B": 40}, "zapatero": "A"}]


def test_caida_en_ronda_follows_a_ronda_of_its_mano_seed_003():
    rigor = build_ruleset("a_todo_rigor")
    seen = 0
    for seed in range(400):
        log = simulate_data(random.Random(seed), rigor, 4, "A1", ZERO)
        for n, claim in enumerate(log.claims):
            if claim["kind"] == "caida_en_ronda":
                seen += 1
                mano = max(i for i in range(n) if log.claims[i]["kind"] == "mano")
                assert {"ronda", "doble_ronda"} & {c["kind"] for c in log.claims[mano:n]}
                assert log.winner == claim["pair"] and n == len(log.claims) - 1  # wins the chica
    assert seen


def test_cuatro_caidas_after_four_caidas_at_the_pairs_consecutive_turns_002_art_15b():
    # Scripted: both players hold 2 3 4 5 6 and always play their lowest card (a set of
    # small ints iterates in order) with its first capture. B1 leads on an empty table,
    # A1 falls on each card: four caídas y limpias in a row, then the chica (pichincha).
    log = simulate_data(Scripted("2345623456"), build_ruleset("pichincha"), 2, "A1", ZERO)
    caida_limpia = {"kind": "caida_limpia", "pair": "A", "player": 1}
    assert log.claims == [{"kind": "mano"}] + [caida_limpia] * 4 + [{"kind": "cuatro_caidas", "pair": "A"}]
    assert log.winner == "A" and log.scores == {"A": 40, "B": 0}
    # With four points instead (seed 003's custom columns) the data goes on.
    ruleset = build_ruleset("pichincha", {"cuatro_caidas": 4})
    log = simulate_data(Scripted("2345623456"), ruleset, 2, "A1", ZERO)
    assert [c["kind"] for c in log.claims].count("cuatro_caidas") == 1  # once per streak
    assert log.claims[6:] and log.winner is None


@pytest.mark.parametrize("seed", [483, 2067, 2832])
def test_four_caidas_across_a_new_mano_are_awarded_as_the_simulator_claims_them_002_art_15b_third_rulings(seed):
    """Third rulings, "racha": the run carries across the manos of a data (found among 6,000 mesas)."""
    ruleset = build_ruleset("pichincha")
    claims = simulate_mesa(random.Random(seed), ruleset, 2, "A1").claims
    at = next(i for i, c in enumerate(claims) if c["kind"] == "cuatro_caidas")
    caidas = [i for i, c in enumerate(claims[:at]) if c["kind"] in ("caida", "caida_limpia")][-4:]
    assert any(c["kind"] == "mano" for c in claims[caidas[0] : at])
    decision = replay(Header(ruleset, 2, "A1"), claims).decisions[at]
    assert decision.accepted and decision.code is None
