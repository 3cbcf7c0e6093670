"""Chica and mesa: 40 points, two chicas, zapatería (Art. 3g.6-7, 12, 15; 002 Art. 16)."""

from .logs import codes, last, play

# Brings A to 38 and B to 12 in data 1 of a chica.
NEAR = ["ajuste A 38", "ajuste B 12", "mano"]


def test_the_chica_ends_the_moment_a_pair_reaches_40_art_15():
    result = play(*NEAR, "caida A", "caida B", "ronda B1", "limpia B", "mano")
    assert result.decisions[3].scores == {"A": 40, "B": 12}
    assert codes(result)[4:7] == ["chica_terminada"] * 3
    assert result.decisions[4].article == "Art. 15"
    assert (last(result).chica, last(result).data, last(result).accepted) == (2, 1, True)


def test_after_a_chica_scores_go_back_to_0_and_chicas_count_art_3g6():
    state = play(*NEAR, "caida A").state
    assert state.scores == {"A": 0, "B": 0} and state.chicas == {"A": 1, "B": 0}
    assert (state.chica, state.data, state.phase, state.finished) == (2, 0, "deal", False)
    assert state.chica_results == [{"chica": 1, "winner": "A", "scores": {"A": 40, "B": 12}, "zapatero": None}]


def test_void_ajuste_suspender_and_reanudar_still_work_after_a_chica_ended_art_16():
    result = play(*NEAR, "caida A", "suspender", "reanudar", "ajuste B 4", "ajuste B 2", "void 8")
    assert codes(result)[4:] == ["ok", "ok", "ok", "anulada", "ok"]
    assert result.state.scores == {"A": 0, "B": 4}


def test_two_chicas_win_the_mesa_art_3g7():
    result = play(*NEAR, "caida A", "ajuste B 12", *NEAR, "caida A")
    state = result.state
    assert state.finished and state.winner == "A" and state.chicas == {"A": 2, "B": 0}
    assert state.phase == "finished" and not state.zapateria
    # The finished mesa keeps the last chica's scores.
    assert state.scores == {"A": 40, "B": 24} and state.chica == 2


def test_chicas_alternate_or_in_a_row_art_3g7():
    result = play(*NEAR, "caida A", "ajuste A 12", "ajuste B 38", "mano", "caida B", *NEAR, "caida A")
    assert result.state.winner == "A" and [r["winner"] for r in result.state.chica_results] == ["A", "B", "A"]


def test_after_the_mesa_every_claim_and_every_void_is_refused_ruling_anulaciones():
    """docs/REGLAS.md, ruling "anulaciones": a finished mesa takes no void (Art. 16, 18)."""
    result = play(*NEAR, "caida A", *NEAR, "caida A", "mano", "ajuste B 2", "suspender", "void 9")
    assert codes(result)[-4:] == ["mesa_terminada"] * 4
    assert result.decisions[9].article == "Art. 16"


def test_a_void_after_the_end_does_not_reopen_the_mesa_ruling_anulaciones():
    result = play(*NEAR, "caida A", *NEAR, "caida A", "void 8", "caida B")
    assert result.state.finished and result.state.chicas == {"A": 2, "B": 0}
    assert codes(result)[-2:] == ["mesa_terminada", "mesa_terminada"]


def test_chicas_to_win_is_a_setting_art_3g7():
    assert play(*NEAR, "caida A", chicas_to_win=1).state.finished


def test_zapateria_ends_the_mesa_after_the_first_chica_art_3g6_12():
    result = play("ajuste A 38", "ajuste B 8", "mano", "caida A", "mano")
    state = result.state
    assert state.finished and state.zapateria and state.winner == "A"
    assert state.chica_results[0]["zapatero"] == "B"
    assert last(result).code == "mesa_terminada"


def test_zapateria_counts_only_in_the_first_chica_art_12():
    result = play(*NEAR, "caida A", "ajuste B 38", "mano", "caida B")
    # B lost chica 1 with 12; A loses chica 2 with 0 and the mesa goes on to the third.
    assert result.state.chicas == {"A": 1, "B": 1} and not result.state.finished
    assert not result.state.zapateria


def test_10_points_is_not_zapateria_art_12():
    result = play("ajuste A 38", "ajuste B 10", "mano", "caida A")
    assert not result.state.finished and not result.state.zapateria


def test_zapateria_is_a_title_after_any_chica_and_the_mesa_goes_on_002_art_16():
    # a_todo_rigor follows seed 003 instead (third rulings: tests/engines/rules/test_third_rulings.py).
    result = play("ajuste A 38", "mano", "caida A", "ajuste B 38", "ajuste A 9", "mano", "caida B", profile="pichincha")
    state = result.state
    assert not state.finished and not state.zapateria
    assert [r["zapatero"] for r in state.chica_results] == ["B", "A"]
