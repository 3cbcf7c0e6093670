"""Turns in a mano: where each play falls, and the ronda window (Art. 3e, 6, 7, 8, 9, 13).

With A1 dealing, 4 players play B1, A2, B2, A1, B1, ... (turns 0, 1, 2, 3, 4, ...):
the seat after the dealer leads and the dealer plays last (Art. 3e).
"""

import pytest

from .logs import codes, last, play


def test_no_caida_at_a_manos_first_turn_so_the_leader_has_four_art_6():
    """A caída takes the card the opponent just played: the leader's first card takes none."""
    result = play("mano", *["caida B1"] * 5)
    assert codes(result)[1:] == ["ok"] * 4 + ["sin_turno"]
    assert last(result).article == "Art. 13"
    # The second seat can have five, one a round.
    assert codes(play("mano", *["caida A2"] * 5))[1:] == ["ok"] * 5


def test_the_caida_lapses_at_a_new_mano_art_6():
    result = play("mano", "mano", *["caida B1"] * 5)
    assert codes(result)[-1] == "sin_turno"


def test_no_caida_on_a_card_that_took_cards_art_6():
    """The capturing card leaves the table with its capture: nothing to fall on."""
    # A2 at 1, B2 at 6 (not 2), A1 at 11, B1 at 16, then A2 has no turn left.
    result = play("mano", "caida A2", "caida B2", "caida A1", "caida B1", "caida A2")
    assert codes(result)[1:] == ["ok"] * 4 + ["sin_turno"]


def test_a_play_of_a_pair_falls_at_its_earliest_possible_turn_art_13():
    # "caida A" is A2's caída at turn 1: B2 (turn 2) may still claim ronda, B1 (turn 0) not.
    result = play("mano", "caida A", "ronda B2", "ronda B1")
    assert codes(result)[1:] == ["ok", "ok", "ronda_tarde"]


def test_a_limpia_cannot_be_the_first_card_of_a_data_art_9():
    """The table is empty when a data starts: the leader B1's limpia is at turn 4, not 0."""
    first = play("mano", "limpia B1", "ronda A1")
    assert last(first).code == "ronda_cerrada"
    # Cards of the first mano may still be on the table when the second starts.
    second = play("mano", "mano", "limpia B1", "ronda A1")
    assert last(second).accepted


def test_a_limpia_can_come_later_in_the_first_round_art_9():
    """B2 (turn 2) can take B1's and A2's cards by a sum: a limpia at each of its turns."""
    result = play("mano", *["limpia B2"] * 5)
    assert codes(result)[1:] == ["ok"] * 5


def test_a_caida_y_limpia_can_take_the_first_card_of_a_data_art_9a():
    result = play("mano", "caida_limpia A2", "ronda B2")
    assert codes(result)[1:] == ["ok", "ok"]


def test_ronda_comes_before_the_players_first_card_art_7a():
    result = play("mano", "caida A2", "ronda B1", "ronda B2", "ronda A1")
    assert codes(result)[2:] == ["ronda_tarde", "ok", "ok"]
    assert result.decisions[2].article == "Art. 7a"


def test_no_ronda_once_every_player_has_played_art_7b():
    result = play("mano", "caida B1", "ronda A1", "doble_ronda B")
    assert codes(result)[2:] == ["ronda_cerrada", "ronda_cerrada"]
    assert result.decisions[2].article == "Art. 7b"


def test_one_ronda_per_player_per_mano_art_7_8():
    result = play("mano", "ronda A1", "doble_ronda A1", "ronda A2", "mano", "ronda A1")
    assert codes(result)[1:] == ["ok", "ronda_repetida", "ok", "ok", "ok"]


def test_a_ronda_of_a_pair_stands_for_one_of_its_players_art_7():
    result = play("mano", "ronda A", "doble_ronda A", "ronda A", "ronda A1")
    assert codes(result)[1:] == ["ok", "ok", "ronda_repetida", "ronda_repetida"]
    late = play("mano", "caida A2", "ronda A", "ronda A")
    assert codes(late)[2:] == ["ok", "ronda_tarde"]


def test_one_ronda_per_pair_with_two_players_seed_003():
    result = play("mano", "ronda A", "ronda A1", "doble_ronda B1", players=2)
    assert codes(result)[1:] == ["ok", "ronda_repetida", "ok"]


def test_the_ronda_window_in_the_state_art_7():
    assert play("mano").state.ronda_window
    assert not play("mano", "ronda A", "ronda A", "ronda B", "ronda B").state.ronda_window
    assert not play("mano", "caida B1").state.ronda_window
    assert play("mano", "caida A2").state.ronda_window  # B2 and A1 have not played
    assert not play("mano", "mano", "conteo 20 20").state.ronda_window


@pytest.mark.parametrize("profile", ["pichincha", "a_todo_rigor"])
def test_no_ronda_for_a_pair_above_30_002_art_9(profile):
    result = play("ajuste A 32", "ajuste B 30", "mano", "ronda A1", "ronda B1", "doble_ronda A2", profile=profile)
    assert codes(result)[3:] == ["ronda_limite", "ok", "ok"]
    assert result.decisions[3].article == "002 Art. 9"


def test_the_reglamento_has_no_ronda_limit_art_7():
    assert last(play("ajuste A 36", "mano", "ronda A1")).points["A"] == 2


def test_two_players_take_turns_one_to_one_seed_003():
    """A1 deals: B1 leads, A1 plays last; five turns each."""
    result = play("mano", *["caida B"] * 5, players=2)
    assert codes(result)[1:] == ["ok"] * 4 + ["sin_turno"]
    assert codes(play("mano", *["caida A"] * 5, players=2))[1:] == ["ok"] * 5
