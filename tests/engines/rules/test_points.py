"""Points of each claim (Art. 15) under each profile, the floor at 0 and 38 que no juega."""

import pytest

from .logs import codes, last, play, scores


def test_caida_scores_2_art_6():
    result = play("mano", "caida A")
    assert last(result).accepted and last(result).points == {"A": 2, "B": 0}
    assert last(result).article == "Art. 6"


def test_limpia_scores_2_art_9():
    assert last(play("mano", "limpia B")).points == {"A": 0, "B": 2}


@pytest.mark.parametrize("profile, points", [("riobamba", 2), ("pichincha", 2), ("a_todo_rigor", 4)])
def test_caida_y_limpia_scores_the_rule_sets_points_art_9a(profile, points):
    """Art. 9a: 2 (not 4) in the reglamento and 002 Art. 8; 4 a todo rigor (seed 003)."""
    assert last(play("mano", "caida_limpia A", profile=profile)).points["A"] == points


def test_ronda_scores_2_art_7a():
    decision = last(play("mano", "ronda B1"))
    assert decision.points == {"A": 0, "B": 2} and decision.article == "Art. 7a"


def test_doble_ronda_scores_4_in_the_reglamento_art_8():
    assert last(play("mano", "doble_ronda A1")).points == {"A": 4, "B": 0}


@pytest.mark.parametrize("profile", ["pichincha", "a_todo_rigor"])
def test_doble_ronda_wins_the_chica_in_pichincha_002_art_15a(profile):
    result = play("ajuste A 12", "ajuste B 20", "mano", "doble_ronda A1", profile=profile)
    decision = last(result)
    assert decision.points == {"A": 28, "B": 0} and decision.scores == {"A": 40, "B": 20}
    assert decision.article == "002 Art. 15A"
    assert result.state.chicas == {"A": 1, "B": 0}
    assert "gana la chica 1" in decision.message and "wins chica 1" in decision.message_en


def test_pedir_mal_takes_2_from_the_pair_art_11():
    result = play("ajuste A 6", "mano", "pedir_mal A")
    assert last(result).points == {"A": -2, "B": 0} and scores(result) == (4, 0)


def test_a_score_never_goes_below_0_and_the_delta_applied_is_logged_ruling():
    result = play("ajuste B 1", "mano", "pedir_mal B", "pedir_mal B")
    assert [d.points["B"] for d in result.decisions[2:]] == [-1, 0]
    assert scores(result) == (0, 0)


def test_mal_repartidas_gives_10_to_the_pair_that_did_not_deal_art_4c():
    """Art. 4c: +10 to the opponents, never -10 to the dealer; the data ends."""
    result = play("ajuste A 8", "mano", "mal_repartidas", "mano")
    misdeal, next_mano = result.decisions[2], result.decisions[3]
    assert misdeal.points == {"A": 0, "B": 10} and misdeal.dealer == "A1"
    assert scores(result) == (8, 10)
    # The deal passes to the rewarded pair: the next seat, B1, deals data 2.
    assert (next_mano.data, next_mano.mano, next_mano.dealer) == (2, 1, "B1")


def test_mal_repartidas_by_a_b_dealer_rewards_a_art_4c():
    assert last(play("mano", "mal_repartidas", first_dealer="B2")).points == {"A": 10, "B": 0}


@pytest.mark.parametrize("profile", ["pichincha", "a_todo_rigor"])
def test_38_que_no_juega_only_a_caida_scores_002_art_11(profile):
    """Limpia, conteo: 0 from 38 (a doble ronda wins the chica: see test_rulings)."""
    result = play("ajuste A 38", "mano", "limpia A", "limpia A", "mano", "pedir_mal B", "conteo 30 5", profile=profile)
    for decision in result.decisions[2:4]:
        assert decision.accepted and decision.points["A"] == 0 and decision.code == "treinta_y_ocho"
        assert "38 que no juega" in decision.message and decision.article == "002 Art. 11"
    conteo = last(result)
    assert conteo.code == "treinta_y_ocho" and conteo.points == {"A": 0, "B": 0}
    assert conteo.detail["conteo"] == {"A": 16, "B": 0}
    closing = play("ajuste A 38", "mano", "caida A", profile=profile)
    assert last(closing).points["A"] == 2 and closing.state.chicas["A"] == 1


def test_38_que_no_juega_still_applies_deductions_002_art_11():
    result = play("ajuste A 38", "mano", "pedir_mal A", "limpia A1", profile="pichincha")
    assert [d.points["A"] for d in result.decisions[2:]] == [-2, 2]
    assert scores(result) == (38, 0)


def test_38_que_no_juega_also_blocks_mal_repartidas_and_juego_y_veo_002_art_11():
    result = play("ajuste B 38", "mano", "mal_repartidas", "mano", "jyv B si", profile="pichincha")
    assert codes(result)[2:] == ["treinta_y_ocho", "ok", "treinta_y_ocho"]
    assert scores(result) == (0, 38)


def test_in_the_reglamento_38_plays_on_art_15():
    """Art. 15, last line: any points can reach 40 and win the chica."""
    result = play("ajuste A 38", "mano", "limpia A")
    assert last(result).points["A"] == 2 and result.state.chicas["A"] == 1


def test_ajuste_may_be_negative_is_floored_and_ignores_38_art_18():
    result = play("ajuste A 38", "ajuste A -50", "ajuste A 38", "ajuste A 2", profile="pichincha")
    assert [d.points["A"] for d in result.decisions] == [38, -38, 38, 2]
    assert result.state.chicas["A"] == 1


def test_ajuste_reaching_40_mid_data_closes_the_chica_and_the_data_art_18():
    result = play("ajuste A 10", "mano", "ajuste B 40", "mano")
    assert result.decisions[2].scores == {"A": 10, "B": 40}
    assert (last(result).chica, last(result).data, last(result).dealer) == (2, 1, "B1")
