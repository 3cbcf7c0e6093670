"""Claims of the other profiles: caída en ronda (seed 003), four caídas (002 Art. 15B).

With A1 dealing, pair B plays the even turns (B1 0, B2 2, B1 4...) and
pair A the odd ones (A2 1, A1 3...): a pair's consecutive turns are two apart.
"""

import pytest

from .logs import codes, last, play

FOUR_A = ["mano", "caida A", "caida A", "caida A", "caida A"]  # turns 1, 3, 5, 7


def test_caida_en_ronda_is_refused_where_the_rule_set_does_not_score_it_seed_003():
    for profile in ("riobamba", "pichincha"):
        result = play("mano", "ronda A1", "caida_en_ronda A", profile=profile)
        assert last(result).code == "caida_en_ronda_no_aplica"


def test_caida_en_ronda_needs_a_ronda_in_this_mano_seed_003():
    result = play("mano", "ronda B1", "mano", "caida_en_ronda A", profile="a_todo_rigor")
    assert last(result).code == "caida_en_ronda_sin_ronda"


def test_caida_en_ronda_wins_the_chica_a_todo_rigor_seed_003():
    result = play("ajuste A 12", "ajuste B 20", "mano", "ronda B1", "caida_en_ronda A", profile="a_todo_rigor")
    assert last(result).points == {"A": 28, "B": 0} and result.state.chicas["A"] == 1


def test_caida_en_ronda_scores_4_in_todo_dos_seed_003():
    result = play("mano", "ronda A1", "caida_en_ronda A2", profile="pichincha", caida_en_ronda=4)
    assert last(result).points == {"A": 4, "B": 0}


def test_caida_en_ronda_is_a_caida_it_plays_at_38_and_takes_a_turn_seed_003_002_art_11():
    at_38 = play("ajuste A 38", "mano", "ronda B1", "caida_en_ronda A", profile="a_todo_rigor")
    assert last(at_38).points["A"] == 2 and at_38.state.chicas["A"] == 1
    leader = play("mano", "ronda B1", *["caida_en_ronda B1"] * 5, profile="pichincha", caida_en_ronda=4)
    assert codes(leader)[-1] == "sin_turno"


@pytest.mark.parametrize("profile", ["pichincha", "a_todo_rigor"])
def test_four_caidas_in_a_row_win_the_chica_002_art_15b(profile):
    result = play("ajuste A 10", *FOUR_A, "cuatro_caidas A", profile=profile)
    assert last(result).points == {"A": 22, "B": 0} and result.state.chicas["A"] == 1
    assert last(result).article == "002 Art. 15B"


def test_four_caidas_score_nothing_in_the_reglamento():
    result = play(*FOUR_A, "cuatro_caidas A")
    assert last(result).code == "cuatro_caidas_no_aplica"
    assert result.state.caida_streak == {"pair": "A", "count": 4}


def test_the_streak_counts_the_pairs_consecutive_turns_002_art_15b():
    result = play("mano", "caida B2", "caida B1", "caida B2", "caida B1")
    assert result.state.caida_streak == {"pair": "B", "count": 4}
    gap = play("mano", "caida A2", "caida A2", "caida A1", "caida A2", "cuatro_caidas A", profile="pichincha")
    # A2 at 1, A2 at 5 (A1's turn 3 passed without a caída), A1 at 7, A2 at 9.
    assert last(gap).code == "cuatro_caidas_sin_racha"
    assert gap.state.caida_streak == {"pair": "A", "count": 3}


def test_a_limpia_breaks_the_streak_002_art_15b():
    result = play("mano", "caida A", "caida A", "limpia A", "caida A")
    assert result.state.caida_streak == {"pair": "A", "count": 1}


def test_the_streak_runs_across_the_manos_of_a_data_002_art_15b():
    # B1 falls at 4, 8, 12; A at 15, 17, 19 and, in mano 2, 21 (its turn 1).
    result = play(
        "mano",
        "caida B1",
        "caida B1",
        "caida B1",
        "caida A",
        "caida A",
        "caida A",
        "mano",
        "caida A",
        "cuatro_caidas A",
        profile="pichincha",
    )
    assert last(result).accepted and result.state.chicas["A"] == 1


def test_the_streak_of_the_leading_pair_goes_into_the_next_mano_from_its_last_seat_only_002_art_15b():
    # Third rulings, "racha": the run carries across the manos of one data. B's
    # caídas, placed at 2, 4, 6, 8 at the earliest, may have been its last four.
    carried = play("mano", *["caida B"] * 4, "mano")
    assert carried.state.caida_streak == {"pair": "B", "count": 4}
    ends = play(
        "mano", "caida B2", "caida B1", "caida B2", "caida B1", "caida B2", "caida B1", "caida B2", "caida B1", "mano"
    )
    # B1 fell last, at 16: B2's turn 18 passed without a caída.
    assert ends.state.caida_streak == {"pair": None, "count": 0}


def test_the_streak_ends_with_the_data_002_art_15b():
    assert play(*FOUR_A, "mano", "conteo 20 20").state.caida_streak == {"pair": None, "count": 0}


def test_four_caidas_are_awarded_once_per_streak_002_art_15b():
    result = play(
        *FOUR_A,
        "cuatro_caidas A",
        "cuatro_caidas A",
        "caida A",
        "cuatro_caidas A",
        profile="pichincha",
        cuatro_caidas=4,
    )
    assert codes(result)[5:] == ["ok", "cuatro_caidas_otorgada", "ok", "cuatro_caidas_otorgada"]
    assert result.state.caida_streak == {"pair": "A", "count": 5}


def test_an_upheld_juego_y_veo_removes_the_caida_from_the_streak_art_5_002_art_15b():
    result = play(*FOUR_A, "jyv B si 5", "cuatro_caidas A", profile="pichincha")
    assert last(result).code == "cuatro_caidas_sin_racha"
    rejected = play(*FOUR_A, "jyv B no 5", "cuatro_caidas A", profile="pichincha")
    assert last(rejected).accepted


def test_four_caidas_with_two_players_seed_003():
    result = play("mano", *["caida A"] * 4, "cuatro_caidas A", players=2, profile="pichincha")
    assert last(result).accepted and result.state.chicas["A"] == 1


def test_a_streak_ending_on_the_pairs_last_turn_of_the_mano_can_be_claimed_002_art_15b():
    # Two players, A1 deals: B1 plays 0, 2, 4, 6, 8 and falls at 2, 4, 6, 8.
    result = play("mano", *["caida B1"] * 4, "cuatro_caidas B", players=2, profile="a_todo_rigor")
    assert last(result).accepted and result.state.chica_results[0]["winner"] == "B"


def test_a_streak_placed_early_may_run_into_the_next_mano_002_art_15b():
    """A1 (dealer, two players) falls at 5, 7, 9 and at turn 1 of the next mano.

    The first three are placed at 1, 3, 5 (their earliest turns); nothing shows
    a gap, so they may be at 5, 7, 9 and the streak goes on.
    """
    result = play("mano", *["caida A1"] * 3, "mano", "caida A1", "cuatro_caidas A", players=2, profile="a_todo_rigor")
    assert last(result).accepted and result.state.chicas == {"A": 1, "B": 0}


def test_a_streak_of_pair_claims_may_slide_a_turn_002_art_15b():
    # "caida A" is placed at A2's turn 1; A2's next caída at 5 shows it was A1's at 3.
    slid = play("mano", "caida A", "caida A2", "caida A1", "caida A2")
    assert slid.state.caida_streak == {"pair": "A", "count": 4}
    # Once a caída names its player, the seats are pinned: A2 at 1 and at 5 is a gap.
    pinned = play("mano", "caida A2", "caida A2")
    assert pinned.state.caida_streak == {"pair": "A", "count": 1}


def test_another_play_between_breaks_the_streak_002_art_15b():
    result = play("mano", "caida A", "caida A", "caida B", "caida A")
    assert result.state.caida_streak == {"pair": "A", "count": 1}


def test_into_the_next_mano_the_dealers_streak_must_end_on_the_dealers_turn_002_art_15b():
    # A2 falls last in mano 1 (A2 never plays turn 19, A1's), so A's turn 1 of mano 2
    # does not continue it.
    result = play("mano", "caida A1", "caida A2", "mano", "caida A2")
    assert result.state.caida_streak == {"pair": "A", "count": 1}
    ends_on_dealer = play("mano", "caida A2", "caida A1", "mano", "caida A2")
    assert ends_on_dealer.state.caida_streak == {"pair": "A", "count": 3}


def test_four_caidas_close_the_chica_from_38_002_art_11_15b():
    """Only a caída closes the chica from 38; four caídas in a row are caídas."""
    result = play(
        "ajuste A 30",
        "ajuste B 12",
        "mano",
        "caida A",
        "caida A",
        "caida A",
        "caida A",
        "cuatro_caidas A",
        profile="pichincha",
    )
    assert result.decisions[6].scores["A"] == 38
    assert last(result).points["A"] == 2 and result.state.chicas["A"] == 1
