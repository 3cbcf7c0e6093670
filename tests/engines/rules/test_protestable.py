"""What the screen may offer to protest by juego y veo (Art. 5): the engine says it with every state.

With the first dealer A1, the turns of a mano with four players run B1, A2,
B2, A1: the dealer's pair (A) plays last, the leader's pair (B) first.
"""

import pytest

from .logs import play

PROFILES = ["riobamba", "pichincha", "a_todo_rigor"]
NEAR = ["ajuste A 38", "ajuste B 12", "mano"]


@pytest.mark.parametrize("profile", PROFILES)
def test_only_the_other_pairs_last_play_of_the_mano_art_5(profile):
    # Seqs: 1 mano, 2 caída A, 3 limpia B, 4 caída A.
    state = play("mano", "caida A", "limpia B", "caida A", profile=profile).state
    assert state.protestable == {"A": [3], "B": [4]}
    assert state.as_dict()["protestable"] == {"A": [3], "B": [4]}


def test_rondas_and_four_caidas_are_no_play_to_protest_art_5():
    state = play("mano", "ronda A1", profile="riobamba").state
    assert state.protestable == {"A": [], "B": []}


def test_a_play_protested_once_is_offered_no_more_art_5():
    assert play("mano", "caida A", "jyv B no 2").state.protestable == {"A": [], "B": []}


def test_across_the_new_mano_the_dealers_last_levante_until_the_leader_plays_art_5a_third_rulings():
    assert play("mano", "caida A", "mano").state.protestable == {"A": [], "B": [2]}
    assert play("mano", "caida A", "mano", "limpia B1").state.protestable["B"] == []


def test_the_play_that_reached_40_until_the_next_claim_art_5c_third_rulings():
    assert play(*NEAR, "caida A1").state.protestable == {"A": [], "B": [4]}
    assert play(*NEAR, "caida A1", "mano").state.protestable == {"A": [], "B": []}


def test_a_suspended_mesa_offers_nothing_art_16_third_rulings():
    assert play("mano", "caida A", "suspender").state.protestable == {"A": [], "B": []}
