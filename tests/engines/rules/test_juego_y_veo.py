"""Juego y veo: a pair protests the other pair's capture (Art. 5; 002 Art. 13)."""

import pytest

from .logs import codes, last, play


def test_a_rejected_protest_costs_the_protester_2_art_5c():
    result = play("ajuste A 6", "mano", "caida B1", "jyv A no 3")
    assert last(result).accepted and last(result).points == {"A": -2, "B": 0}
    assert last(result).article == "Art. 5c"


def test_a_rejected_protest_is_floored_at_0_ruling():
    assert last(play("mano", "jyv A no")).points == {"A": 0, "B": 0}


def test_upheld_in_the_reglamento_the_offender_loses_what_the_play_gave_art_5c():
    """+2 to the protester; the offending pair loses the points it claimed with that play."""
    result = play("mano", "caida_limpia B1", "jyv A si 2", caida_limpia_points=4)
    assert last(result).points == {"A": 2, "B": -4}
    assert result.state.scores == {"A": 2, "B": 0}


@pytest.mark.parametrize("profile", ["pichincha", "a_todo_rigor"])
def test_upheld_in_pichincha_the_offender_pays_2_and_keeps_the_play_002_art_13(profile):
    result = play("mano", "caida_limpia B1", "jyv A si 2", caida_limpia_points=4, profile=profile)
    assert last(result).points == {"A": 2, "B": -2}
    assert result.state.scores == {"A": 2, "B": 2}
    assert last(result).article == "002 Art. 13"


def test_upheld_without_a_named_claim_art_5c():
    """Without ``against`` the protest is about a capture that claimed no points."""
    assert last(play("mano", "caida B1", "jyv A si")).points == {"A": 2, "B": 0}
    assert last(play("mano", "caida B1", "jyv A si", profile="pichincha")).points == {"A": 2, "B": -2}


def test_the_protested_claim_must_be_a_play_of_the_other_pair_in_this_mano_art_5():
    cases = [
        ("mano", "caida B1", "jyv B si 2"),  # its own pair's play
        ("mano", "ronda B1", "jyv A si 2"),  # not a play
        ("mano", "caida B1", "jyv A si 9"),  # no such claim
    ]
    for log in cases:
        assert last(play(*log)).code == "juego_y_veo_sin_jugada", log
    # An earlier mano's play is out of reach (but the dealer's last: third rulings).
    assert last(play("mano", "caida B1", "mano", "jyv A si 2")).code == "juego_y_veo_cerrado"


def test_a_refused_or_voided_play_cannot_be_protested_art_5():
    refused = play("mano", *["caida B1"] * 5, "jyv A si 6")
    assert codes(refused)[5:] == ["sin_turno", "juego_y_veo_sin_jugada"]
    voided = play("mano", "caida B1", "void 2", "jyv A si 2")
    assert last(voided).code == "juego_y_veo_sin_jugada"


def test_a_play_is_protested_once_art_5():
    result = play("mano", "caida B1", "jyv A no 2", "jyv A si 2")
    assert codes(result)[2:] == ["ok", "juego_y_veo_repetido"]


def test_only_the_other_pairs_most_recent_play_art_5a():
    result = play("mano", "caida B1", "caida B1", "jyv A si 2", "jyv A si 3")
    assert codes(result)[3:] == ["juego_y_veo_no_ultima", "ok"]


def test_the_play_that_won_the_chica_is_protested_right_after_it_art_5_third_rulings():
    result = play("ajuste B 38", "ajuste A 10", "mano", "caida B1", "jyv A si 4")
    assert last(result).accepted and result.state.chicas == {"A": 0, "B": 0}
    result = play("ajuste B 38", "ajuste A 10", "mano", "caida B1", "mano", "jyv A si 4")
    assert last(result).code == "juego_y_veo_sin_jugada" and result.state.chicas == {"A": 0, "B": 1}
