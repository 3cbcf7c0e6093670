"""The conteo at the end of a data (Art. 3g, 10, 15f-h)."""

import pytest

from engines.rules.conteo import conteo, count_points

from .logs import last, play


@pytest.mark.parametrize("cards, points", [(20, 6), (21, 8), (22, 8), (23, 10), (24, 10), (25, 12), (30, 16), (40, 26)])
def test_6_for_20_cards_and_1_more_each_odd_total_rounded_up_art_3g4_15h(cards, points):
    assert count_points(cards) == points


def test_the_pair_with_20_or_more_scores_the_count_art_15h():
    detail = conteo(23, 15, deals_next="A")
    assert detail == {
        "cards": {"A": 23, "B": 15},
        "table": 2,
        "conteo": {"A": 10, "B": 0},
        "falla": {"A": 0, "B": 0},
        "dos_por_darlas": None,
    }


@pytest.mark.parametrize("a, b", [(20, 20), (10, 10), (0, 0), (15, 15)])
def test_equal_cards_give_dos_por_darlas_to_the_pair_that_deals_next_art_3g3_15g(a, b):
    detail = conteo(a, b, deals_next="B")
    assert detail["conteo"] == {"A": 0, "B": 2} and detail["dos_por_darlas"] == "B"


def test_both_below_20_the_pair_with_more_scores_2_mayoria_art_15f():
    assert conteo(12, 19, deals_next="A")["conteo"] == {"A": 0, "B": 2}


def test_a_pair_with_no_card_gives_its_opponents_falla_art_10():
    detail = conteo(0, 25, deals_next="A")
    assert detail["conteo"] == {"A": 0, "B": 12} and detail["falla"] == {"A": 0, "B": 2}
    assert conteo(0, 0, deals_next="A")["falla"] == {"A": 2, "B": 2}


def test_conteo_claim_scores_count_and_falla_and_reports_the_detail_art_3g():
    result = play("mano", "mano", "conteo 30 0")
    decision = last(result)
    assert decision.points == {"A": 18, "B": 0} and decision.detail["table"] == 10
    assert decision.detail["falla"] == {"A": 2, "B": 0}


def test_dos_por_darlas_goes_to_the_opponents_of_this_datas_dealer_art_3g3():
    # A1 deals data 1, so B deals next; B1 deals data 2, so A deals next.
    result = play("mano", "mano", "conteo 20 20", "mano", "mano", "conteo 18 18")
    assert result.decisions[2].points == {"A": 0, "B": 2}
    assert result.decisions[2].detail["dos_por_darlas"] == "B"
    assert result.decisions[5].points == {"A": 2, "B": 0}


def test_more_than_40_cards_is_refused_art_3g():
    result = play("mano", "mano", "conteo 30 11")
    assert not last(result).accepted and last(result).code == "conteo_invalido"
    assert last(result).article == "Art. 3g" and result.state.phase == "conteo"


def test_a_pairs_count_and_falla_come_together_art_10_15():
    """B at 20 takes 33 cards to A's none: 20 for the count and 2 of falla, 42."""
    result = play("ajuste A 10", "ajuste B 20", "mano", "mano", "conteo 0 33")
    assert last(result).points == {"A": 0, "B": 22}
    assert result.state.chica_results[0]["scores"] == {"A": 10, "B": 42}


def test_conteo_stops_at_the_chica_art_15():
    """The chica ends the moment a pair reaches 40: the other pair's falla comes too late."""
    result = play("ajuste A 10", "ajuste B 38", "mano", "mano", "conteo 0 0")
    # Dos por darlas and falla to B (A1 dealt) close the chica; A's falla does not score.
    assert last(result).points == {"A": 0, "B": 4}
    assert result.state.chica_results[0]["scores"] == {"A": 10, "B": 42}
