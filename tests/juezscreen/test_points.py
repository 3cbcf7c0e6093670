"""The screen's nominal points (static/refereeing/points.js), run in the browser.

They only draw the PROVISIONAL score and the conteo preview; the engine
decides. Still, they must agree with the rules they preview.
"""

import pytest

from refereeing.engine.rules import build_ruleset

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def points(live_server, page):
    page.goto(live_server.url)
    page.add_script_tag(url=f"{live_server.url}/static/refereeing/points.js")

    def call(function, *args):
        return page.evaluate(f"args => CuarentaPoints.{function}(...args)", list(args))
    return call


@pytest.mark.parametrize("cards, expected", [(20, 6), (21, 8), (22, 8), (23, 10), (25, 12), (30, 16)])
def test_conteo_scores_6_for_20_cards_and_1_per_card_over_rounded_up(points, cards, expected):
    # Art. 15h: an odd total is rounded up. (Two cards stayed on the table.)
    assert points("conteo", {"A": cards, "B": 38 - cards}, "A")["points"] == {"A": expected, "B": 0}


def test_conteo_mayoria_dos_por_darlas_and_falla(points):
    # Art. 15f: both under 20, the larger gets 2.
    assert points("conteo", {"A": 19, "B": 15}, "A")["points"] == {"A": 2, "B": 0}
    # Art. 3g.3, 15g: a tie gives 2 to the pair that deals next.
    assert points("conteo", {"A": 20, "B": 20}, "B") == {
        "points": {"A": 0, "B": 2}, "notes": [{"note": "dos_por_darlas", "pair": "B"}]}
    # Art. 10: a pair with no card gives falla (2) to the other.
    assert points("conteo", {"A": 0, "B": 30}, "A")["points"] == {"A": 0, "B": 18}


def test_the_next_data_is_dealt_by_the_other_pair(points):
    # Art. 3f: the data chip passes counterclockwise, A1 -> B1 -> A2 -> B2.
    assert points("nextDealingPair", {"dealer": "A2"}) == "B"
    assert points("nextDealingPair", {"dealer": "B1"}) == "A"


def test_nominal_points_follow_the_rule_set(points):
    riobamba, rigor = build_ruleset("riobamba").settings(), build_ruleset("a_todo_rigor").settings()
    state = {"scores": {"A": 12, "B": 30}, "dealer": "B1"}
    assert points("nominal", {"kind": "caida_limpia", "pair": "A"}, riobamba, state) == {"A": 2, "B": 0}  # Art. 9a
    assert points("nominal", {"kind": "caida_limpia", "pair": "A"}, rigor, state) == {"A": 4, "B": 0}
    assert points("nominal", {"kind": "doble_ronda", "pair": "A"}, riobamba, state) == {"A": 4, "B": 0}  # Art. 8
    # A "chica" award fills the pair's score to 40 (002 Art. 15A).
    assert points("nominal", {"kind": "doble_ronda", "pair": "A"}, rigor, state) == {"A": 28, "B": 0}
    # Art. 4: mal repartidas gives 10 to the pair that did not deal.
    assert points("nominal", {"kind": "mal_repartidas"}, riobamba, state) == {"A": 10, "B": 0}
    assert points("nominal", {"kind": "pedir_mal", "pair": "B"}, riobamba, state) == {"A": 0, "B": -2}  # Art. 11
    # Art. 5: juego y veo upheld, retract (riobamba) or penalty (002 Art. 13).
    jyv = {"kind": "juego_y_veo", "pair": "A", "upheld": True}
    assert points("nominal", jyv, riobamba, state) == {"A": 2, "B": 0}
    assert points("nominal", jyv, rigor, state) == {"A": 2, "B": -2}
    assert points("nominal", {**jyv, "upheld": False}, riobamba, state) == {"A": -2, "B": 0}


def test_38_que_no_juega_leaves_only_the_caida(points):
    pichincha = build_ruleset("pichincha").settings()
    state = {"scores": {"A": 38, "B": 0}, "dealer": "B1"}
    assert points("nominal", {"kind": "limpia", "pair": "A"}, pichincha, state) == {"A": 0, "B": 0}  # 002 Art. 11
    assert points("nominal", {"kind": "caida", "pair": "A"}, pichincha, state) == {"A": 2, "B": 0}


def test_the_provisional_score_never_goes_below_zero(points):
    riobamba = build_ruleset().settings()
    state = {"scores": {"A": 2, "B": 0}, "dealer": "A1"}
    claims = [{"kind": "pedir_mal", "pair": "B"}, {"kind": "caida", "pair": "B"}, {"kind": "limpia", "pair": "A"}]
    assert points("provisional", state, claims, riobamba) == {"A": 4, "B": 2}


def test_the_conteo_preview_agrees_with_the_engine_everywhere(points, page):
    from refereeing.engine.conteo import conteo
    cases = [(a, b, deals) for a in range(41) for b in range(41 - a) for deals in "AB"]
    previews = page.evaluate(
        "cases => cases.map(([a, b, d]) => CuarentaPoints.conteo({A: a, B: b}, d).points)", cases)
    for (a, b, deals), preview in zip(cases, previews):
        engine = conteo(a, b, deals)
        expected = {side: engine["conteo"][side] + engine["falla"][side] for side in "AB"}
        assert preview == expected, (a, b, deals)
