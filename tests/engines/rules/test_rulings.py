"""The rulings added after the first version was played (docs/REGLAS.md, its "Decisión" paragraphs).

Each test names the ruling's anchor in the rules document (``/reglas/#ruling-…``)
and the articles it interprets.
"""

import pytest

from .logs import DATA, codes, last, play

# A at 38, B at 12, and a data dealt: the next claim decides.
NEAR = ["ajuste A 38", "ajuste B 12", "mano"]


# --- ruling-conteo: a conteo must agree with the log (Art. 10, 15) -------------


def test_a_pair_that_made_a_limpia_cannot_be_counted_at_0_nor_give_falla_ruling_conteo():
    result = play("mano", "limpia A1", "mano", "conteo 0 40")
    decision = last(result)
    assert (decision.accepted, decision.code, decision.article) == (False, "conteo_contradice_registro", "Art. 10, 15")
    assert decision.detail == {"pair": "A", "plays": 1, "least": 2}
    assert "no puede contarse con menos de 2 cartas" in decision.message
    assert "cannot be counted at fewer than 2 cards" in decision.message_en
    assert result.state.scores == {"A": 2, "B": 0}  # no 26 and no falla for B
    # The juez counts again: the same data takes a conteo that agrees with the log.
    again = play("mano", "limpia A1", "mano", "conteo 0 40", "conteo 2 38")
    assert last(again).accepted and again.state.scores == {"A": 2, "B": 24}


@pytest.mark.parametrize("capture", ["caida", "caida_limpia"])
def test_any_accepted_capture_rules_out_a_count_of_0_ruling_conteo(capture):
    result = play("mano", f"{capture} B1", "mano", "conteo 40 0")
    assert last(result).code == "conteo_contradice_registro"
    assert last(result).detail["pair"] == "B"


def test_a_count_below_two_cards_a_capture_is_impossible_too_ruling_conteo():
    """Each capture takes the card played and at least one more: three caídas, six cards."""
    log = ["mano", "caida B1", "caida B2", "caida B1", "mano"]
    assert last(play(*log, "conteo 35 5")).detail == {"pair": "B", "plays": 3, "least": 6}
    assert last(play(*log, "conteo 34 6")).accepted


def test_the_count_starts_again_each_data_ruling_conteo():
    result = play("mano", "caida A1", "mano", "conteo 30 10", "mano", "mano", "conteo 0 40")
    assert last(result).accepted and last(result).detail["falla"] == {"A": 0, "B": 2}


def test_an_upheld_juego_y_veo_takes_its_capture_out_of_the_count_ruling_conteo_art_5():
    """Art. 5c: the wrongly taken cards go back to the table; nothing shows A took any."""
    result = play("mano", "caida A1", "jyv B si 2", "mano", "conteo 0 30")
    assert last(result).accepted and last(result).detail["falla"] == {"A": 0, "B": 2}


def test_a_voided_capture_does_not_count_ruling_conteo():
    assert last(play("mano", "limpia A1", "void 2", "mano", "conteo 0 40")).accepted


# --- ruling-38: 38 que no juega bars points, not the immediate wins (002 Art. 11) -


@pytest.mark.parametrize("profile", ["pichincha", "a_todo_rigor"])
def test_a_doble_ronda_wins_the_chica_at_38_ruling_38_002_art_15a(profile):
    result = play(*NEAR, "doble_ronda A1", profile=profile)
    decision = result.decisions[3]
    assert decision.accepted and decision.code is None and decision.points == {"A": 2, "B": 0}
    assert decision.article == "002 Art. 15A"
    assert result.state.chicas == {"A": 1, "B": 0}


def test_four_caidas_win_the_chica_at_38_ruling_38_002_art_15b():
    # A at 34: its four caídas (two players) bring it to 38 with a streak to claim.
    result = play(
        "ajuste A 30",
        "ajuste B 12",
        "mano",
        "caida A1",
        "caida A1",
        "caida A1",
        "caida A1",
        "cuatro_caidas A",
        players=2,
        profile="pichincha",
    )
    assert result.decisions[-2].scores["A"] == 38
    assert last(result).accepted and last(result).points == {"A": 2, "B": 0}
    assert result.state.chicas == {"A": 1, "B": 0}


def test_a_caida_en_ronda_wins_the_chica_at_38_a_todo_rigor_ruling_38_seed_003():
    result = play(*NEAR, "doble_ronda B1", "caida_en_ronda A", profile="a_todo_rigor")
    # B's doble ronda wins first under a todo rigor; take the ronda by A instead at 38.
    assert result.state.chicas == {"A": 0, "B": 1}
    result = play(
        "ajuste A 28", "ajuste B 12", "mano", "ronda A1", "ajuste A 8", "caida_en_ronda A", profile="a_todo_rigor"
    )
    assert result.decisions[-2].scores["A"] == 38
    assert last(result).accepted and result.state.chicas == {"A": 1, "B": 0}


def test_doble_ronda_of_points_is_still_barred_at_38_ruling_38_002_art_11():
    result = play(*NEAR, "doble_ronda A1", profile="pichincha", doble_ronda=4)
    assert last(result).code == "treinta_y_ocho" and last(result).points == {"A": 0, "B": 0}


@pytest.mark.parametrize("profile", ["pichincha", "a_todo_rigor"])
def test_a_pair_brought_below_38_scores_normally_again_ruling_38(profile):
    result = play(*NEAR, "limpia A1", "pedir_mal A", "limpia A1", profile=profile)
    assert codes(result)[3:] == ["treinta_y_ocho", "ok", "ok"]
    assert [d.scores["A"] for d in result.decisions[3:]] == [38, 36, 38]


# --- ruling-chica-a-media-data: the chica's end ends the data ----------------


def test_a_chica_won_mid_data_ends_that_data_ruling_chica_a_media_data_art_15():
    result = play(*NEAR, "caida A1", "limpia B1", "conteo 10 30", "mano", "conteo 20 20")
    assert codes(result)[4:6] == ["chica_terminada", "chica_terminada"]
    new = result.decisions[6]
    # The next dealer (B1 after A1) deals data 1 of chica 2, from 0-0.
    assert (new.chica, new.data, new.mano, new.dealer, new.scores) == (2, 1, 1, "B1", {"A": 0, "B": 0})
    assert last(result).code == "conteo_prematuro"  # the new data has its own manos
    # Nothing of the abandoned data counts: chica 1 ended 40-12.
    assert result.state.chica_results[0]["scores"] == {"A": 40, "B": 12}


# --- ruling-anulaciones: how far back a void reaches (Art. 16, 18) ---------------


def test_voiding_a_void_restores_the_voided_claim_ruling_anulaciones():
    result = play("mano", "caida A1", "void 2", "void 3")
    assert result.decisions[1].accepted and result.state.scores == {"A": 2, "B": 0}


def test_a_void_reaches_into_the_current_chica_ruling_anulaciones():
    result = play(*NEAR, "caida A1", "ajuste B 12", *DATA, "mano", "caida B1", "void 8")
    assert last(result).accepted and result.state.scores["B"] == 12 + 2 - 0


def test_a_void_of_the_previous_chica_is_the_directors_ruling_anulaciones_art_18():
    result = play(*NEAR, "caida A1", "mano", "void 2")
    decision = last(result)
    assert (decision.accepted, decision.code, decision.article) == (False, "anulacion_fuera_de_alcance", "Art. 18")
    assert "lo corrige el Director" in decision.message
    assert result.state.chicas == {"A": 1, "B": 0}  # B's 12 stays in chica 1


def test_the_claim_that_ended_the_chica_can_be_voided_at_once_and_reopens_it_ruling_anulaciones():
    result = play(*NEAR, "caida A1", "void 4", "caida B1")
    assert result.decisions[4].accepted
    assert result.state.chicas == {"A": 0, "B": 0} and result.state.scores == {"A": 38, "B": 14}
    assert (result.state.chica, result.state.data) == (1, 1)  # the data goes on


def test_once_the_new_chica_has_a_claim_the_ender_is_out_of_reach_ruling_anulaciones():
    result = play(*NEAR, "caida A1", "mano", "void 4")
    assert last(result).code == "anulacion_fuera_de_alcance"
    assert result.state.chicas == {"A": 1, "B": 0}


def test_a_reopened_chica_can_be_closed_again_by_voiding_the_void_ruling_anulaciones():
    result = play(*NEAR, "caida A1", "void 4", "void 5")
    assert result.decisions[3].accepted and result.state.chicas == {"A": 1, "B": 0}
    assert (result.state.chica, result.state.phase) == (2, "deal")


def test_a_finished_mesa_takes_no_void_ruling_anulaciones():
    result = play("ajuste A 40", "void 1")  # zapatería: B under 10 after the first chica
    assert result.state.finished and last(result).code == "mesa_terminada"
