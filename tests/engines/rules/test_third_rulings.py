"""The rulings added in the third version (docs/REGLAS.md, "Decisiones de la tercera versión").

Each test cites its ruling ("third rulings: …", anchored ``/reglas/#ruling-…``)
and the article it interprets, in every profile it concerns. With the first
dealer A1, the turns of a mano with four players run B1, A2, B2, A1: the
dealer's pair (A) plays last, the leader's pair (B) first.
"""

import pytest

from engines.rules.rules import build_ruleset

from .logs import codes, last, play, scores

PROFILES = ["riobamba", "pichincha", "a_todo_rigor"]
# A at 38, B at 12, and a data dealt: the next claim decides.
NEAR = ["ajuste A 38", "ajuste B 12", "mano"]


# --- ruling-zapateria-rigor: seed 003's zapatería (Art. 3g.6, 12) ---------------


def test_a_first_chica_lost_at_8_ends_the_mesa_a_todo_rigor_art_12_third_rulings_zapateria_seed_003():
    result = play("ajuste B 8", "ajuste A 40", profile="a_todo_rigor")
    state = result.state
    assert (state.finished, state.zapateria, state.winner) == (True, True, "A")
    assert state.chica_results[0]["zapatero"] == "B"
    assert build_ruleset("a_todo_rigor").zapateria == "eliminates"
    assert last(play("ajuste B 8", "ajuste A 40", "mano", profile="a_todo_rigor")).code == "mesa_terminada"


def test_a_later_chica_lost_under_10_does_not_end_the_mesa_a_todo_rigor_third_rulings_zapateria():
    result = play("ajuste B 20", "ajuste A 40", "ajuste A 5", "ajuste B 40", profile="a_todo_rigor")
    state = result.state
    assert (state.finished, state.zapateria, state.chicas) == (False, False, {"A": 1, "B": 1})
    assert state.chica_results[1]["zapatero"] is None


@pytest.mark.parametrize(("profile", "finished"), [("riobamba", True), ("pichincha", False)])
def test_the_other_profiles_keep_their_zapateria_third_rulings_zapateria_art_12_002_art_16(profile, finished):
    result = play("ajuste B 8", "ajuste A 40", profile=profile)
    assert result.state.finished is finished
    assert result.state.chica_results[0]["zapatero"] == "B"


def test_the_organiser_reads_what_zapateria_does_in_a_todo_rigor_third_rulings_zapateria():
    row = next(r for r in build_ruleset("a_todo_rigor").describe("en") if r["name"] == "zapateria")
    assert "out of the championship" in row["value"]
    row = next(r for r in build_ruleset("a_todo_rigor").describe("es") if r["name"] == "zapateria")
    assert "eliminada del campeonato" in row["value"]


# --- ruling-juego-y-veo-nueva-mano: Art. 5a reaches across the new mano ----------


@pytest.mark.parametrize("profile", PROFILES)
def test_juego_y_veo_reaches_the_dealers_last_levante_across_the_new_mano_art_5a_third_rulings(profile):
    # A's caída (turn 1 at the earliest) may be the dealer A1's last card; B1 leads the next mano.
    result = play("mano", "caida A", "mano", "jyv B si 2", profile=profile)
    decision = last(result)
    assert decision.accepted and decision.points["B"] == 2
    assert result.state.scores["B"] == 2


@pytest.mark.parametrize("players", [4, 2])
def test_juego_y_veo_across_the_mano_closes_once_the_protester_has_played_art_5a_third_rulings(players):
    # B's limpia is the leader's card of the new mano: he has thrown it.
    result = play("mano", "caida A", "mano", "limpia B1", "jyv B si 2", players=players)
    assert (last(result).accepted, last(result).code, last(result).article) == (False, "juego_y_veo_cerrado", "Art. 5a")
    # A play of the dealer's pair placed in the new mano shows the leader played too.
    result = play("mano", "caida A", "mano", "caida A", "jyv B si 2", players=players)
    assert last(result).code == "juego_y_veo_cerrado"


def test_juego_y_veo_across_the_mano_only_against_who_played_just_before_art_5a_third_rulings():
    # A2 never plays just before the leader B1: his levante is out of reach once the mano is new.
    result = play("mano", "caida A2", "mano", "jyv B si 2")
    assert last(result).code == "juego_y_veo_cerrado"
    # The dealer's own pair cannot protest its own play, nor A protest across the mano at all.
    assert last(play("mano", "caida B", "mano", "jyv A si 2")).code == "juego_y_veo_cerrado"


def test_a_new_data_closes_juego_y_veo_art_5a_third_rulings():
    result = play("mano", "mano", "caida A", "conteo 20 18", "mano", "jyv B si 3")
    assert last(result).accepted is False
    assert result.state.scores == {"A": 2 + 6, "B": 0}


def test_juego_y_veo_across_the_mano_is_taken_once_art_5_third_rulings():
    result = play("mano", "caida A", "jyv B no 2", "mano", "jyv B si 2")
    assert last(result).code == "juego_y_veo_repetido"


def test_an_upheld_juego_y_veo_across_the_mano_takes_the_capture_out_of_the_count_art_5c_third_rulings():
    result = play("mano", "caida A", "mano", "jyv B si 2", "conteo 0 30")
    assert last(result).accepted and last(result).detail["falla"] == {"A": 0, "B": 2}


# --- ruling-suspendida: a suspended mesa takes nothing but reanudar (Art. 16) ----


def test_a_suspended_mesa_takes_no_void_art_16_third_rulings_suspendida():
    result = play("mano", "caida A1", "suspender", "void 2")
    decision = last(result)
    assert (decision.accepted, decision.code, decision.article) == (False, "mesa_suspendida", "Art. 16")
    assert result.state.scores == {"A": 2, "B": 0}
    # Resumed, the juez may void it.
    assert last(play("mano", "caida A1", "suspender", "reanudar", "void 2")).accepted


@pytest.mark.parametrize("kind", ["caida A1", "mano", "conteo 20 20", "suspender", "mal_repartidas"])
def test_a_suspended_mesa_takes_nothing_but_reanudar_art_16_third_rulings_suspendida(kind):
    result = play("mano", "mano", "suspender", kind, "reanudar")
    assert codes(result)[3:] == [
        "ya_suspendida" if kind == "suspender" else "mesa_suspendida",
        "ok",
    ]


def test_the_directors_acts_are_taken_while_the_mesa_waits_art_17_18_third_rulings_suspendida():
    result = play("mano", "caida A1", "suspender", {"kind": "void", "target": 2, "director": True}, "ajuste B 4")
    assert codes(result)[3:] == ["ok", "ok"]
    assert result.state.scores == {"A": 0, "B": 4} and result.state.suspended


# --- ruling-sin-jugada: "no claim yet" means no claim at all (Art. 16, 18) --------


def test_a_refused_claim_after_the_chica_ended_puts_its_ender_out_of_reach_third_rulings_art_18():
    result = play(*NEAR, "caida A1", "caida B1", "void 4")
    assert codes(result)[4:] == ["chica_terminada", "anulacion_fuera_de_alcance"]
    assert result.state.chicas == {"A": 1, "B": 0}


def test_a_refused_void_after_the_chica_ended_puts_its_ender_out_of_reach_third_rulings_art_18():
    result = play(*NEAR, "caida A1", "void 9", "void 4")
    assert codes(result)[4:] == ["anulacion_sin_objetivo", "anulacion_fuera_de_alcance"]


def test_the_ender_is_still_voided_right_away_third_rulings_art_16():
    result = play(*NEAR, "caida A1", "void 4")
    assert last(result).accepted and result.state.chicas == {"A": 0, "B": 0}


# --- ruling-anular: what a void may cancel (Art. 16) -----------------------------


def test_a_refused_claim_cannot_be_voided_art_16_third_rulings_anular():
    result = play("mano", "conteo 20 20", "void 2")
    decision = last(result)
    assert (decision.accepted, decision.code, decision.article) == (False, "anulacion_de_negativa", "Art. 16")
    assert "no hay nada que anular" in decision.message
    assert "nothing to cancel" in decision.message_en


def test_a_mano_is_voided_only_while_nothing_is_logged_in_it_art_16_third_rulings_anular():
    result = play("mano", "void 1")
    assert last(result).accepted and result.state.phase == "deal"
    result = play("mano", "caida A1", "void 1")
    assert (last(result).code, last(result).article) == ("anulacion_de_mano", "Art. 16")
    assert result.state.scores == {"A": 2, "B": 0}
    # A refused claim is logged in the mano too.
    assert last(play("mano", "conteo 20 20", "void 1")).code == "anulacion_de_mano"
    assert last(play("mano", "mano", "void 1")).code == "anulacion_de_mano"
    assert last(play("mano", "mano", "void 2")).accepted


@pytest.mark.parametrize("target", [2, 3])
def test_suspender_and_reanudar_are_never_voided_art_16_third_rulings_anular(target):
    result = play("mano", "suspender", "reanudar", f"void {target}")
    decision = last(result)
    assert (decision.accepted, decision.code) == (False, "anulacion_de_suspension")
    assert "el acto contrario" in decision.message


def test_voiding_an_accepted_void_still_restores_its_target_art_16_third_rulings_anular():
    result = play("mano", "caida A1", "void 2", "void 3")
    assert last(result).accepted and result.state.scores == {"A": 2, "B": 0}


# --- ruling-mal-repartidas-tarde: a misdeal found late (Art. 4) -------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_a_misdeal_found_late_keeps_the_points_and_ends_the_data_art_4_third_rulings(profile):
    result = play("mano", "caida A1", "mano", "caida B1", "mal_repartidas", "conteo 20 20", "mano", profile=profile)
    assert codes(result)[4:] == ["ok", "sin_mano", "ok"]
    assert result.decisions[4].points == {"A": 0, "B": 10}
    assert scores(result) == (2, 12)
    new = last(result)
    # B, the rewarded pair, deals the next data: B1 after the dealer A1 (Art. 4c).
    assert (new.data, new.mano, new.dealer) == (2, 1, "B1")


def test_a_misdeal_found_late_with_two_players_art_4_third_rulings():
    result = play("mano", "mano", "mano", "caida A1", "mal_repartidas", "mano", players=2)
    assert scores(result) == (2, 10) and (last(result).data, last(result).dealer) == (2, "B1")


# --- ruling-cuatro-caidas-dos: four caídas with two players (seed 003) -----------


def test_four_caidas_on_the_single_opponent_win_the_chica_two_players_a_todo_rigor_002_art_15b_third_rulings():
    result = play(
        "mano", "caida A1", "caida A1", "caida A1", "caida A1", "cuatro_caidas A", players=2, profile="a_todo_rigor"
    )
    assert last(result).accepted and result.state.chicas == {"A": 1, "B": 0}
    assert result.state.chica_results[0]["scores"]["A"] == 40


# --- ruling-racha: a run of caídas across the manos of one data (002 Art. 15B) ---


@pytest.mark.parametrize("pair", ["A", "B"])
@pytest.mark.parametrize("profile", ["pichincha", "a_todo_rigor"])
def test_a_run_of_caidas_carries_from_the_first_mano_to_the_second_002_art_15b_third_rulings(pair, profile):
    result = play(
        "mano",
        f"caida {pair}",
        f"caida {pair}",
        "mano",
        f"caida {pair}",
        f"caida {pair}",
        f"cuatro_caidas {pair}",
        profile=profile,
    )
    assert last(result).accepted and result.state.chicas[pair] == 1


@pytest.mark.parametrize("pair", ["A", "B"])
def test_a_run_of_caidas_carries_across_manos_with_two_players_002_art_15b_third_rulings(pair):
    log = ["mano", f"caida {pair}", f"caida {pair}", "mano", f"caida {pair}", f"caida {pair}"]
    assert last(play(*log, f"cuatro_caidas {pair}", players=2, profile="pichincha")).accepted


def test_a_named_seat_that_cannot_close_the_mano_breaks_the_run_002_art_15b_third_rulings():
    # B1 leads: his caída is never the pair's last card of a mano.
    result = play("mano", "caida B2", "caida B1", "mano", "caida B", "caida B", "cuatro_caidas B", profile="pichincha")
    assert last(result).code == "cuatro_caidas_sin_racha"


def test_a_new_data_breaks_the_run_002_art_15b_third_rulings():
    log = ["mano", "mano", "caida B", "caida B", "conteo 0 4", "mano", "caida B", "caida B", "cuatro_caidas B"]
    assert last(play(*log, profile="pichincha")).code == "cuatro_caidas_sin_racha"


def test_another_play_between_breaks_the_run_002_art_15b_third_rulings():
    log = ["mano", "caida B", "caida B", "limpia A", "mano", "caida B", "caida B", "cuatro_caidas B"]
    assert last(play(*log, profile="pichincha")).code == "cuatro_caidas_sin_racha"


def test_an_upheld_juego_y_veo_against_one_of_the_run_breaks_it_002_art_15b_art_5_third_rulings():
    log = ["mano", "caida B", "caida B", "jyv A si 3", "mano", "caida B", "caida B", "cuatro_caidas B"]
    assert last(play(*log, profile="pichincha")).code == "cuatro_caidas_sin_racha"
    # Across the mano too: B1 protests the dealer's pair's last caída before his lead.
    log = ["mano", "caida A", "caida A", "mano", "jyv B si 3", "caida A", "caida A", "cuatro_caidas A"]
    result = play(*log, profile="pichincha")
    assert result.decisions[4].accepted and last(result).code == "cuatro_caidas_sin_racha"


# --- ruling-caida-en-ronda: it needs an accepted ronda of that mano (seed 003) ---


def test_caida_en_ronda_after_no_ronda_is_refused_not_scored_seed_003_third_rulings():
    result = play("mano", "caida_en_ronda A", profile="a_todo_rigor")
    assert (last(result).code, last(result).article) == ("caida_en_ronda_sin_ronda", "seed 003")
    assert scores(result) == (0, 0)


def test_caida_en_ronda_after_a_refused_ronda_is_refused_seed_003_art_7a_third_rulings():
    # A2's ronda comes after his first card (Art. 7a): refused, and so is the caída en ronda.
    result = play("mano", "caida A", "ronda A2", "caida_en_ronda A", profile="a_todo_rigor")
    assert codes(result)[1:] == ["ok", "ronda_tarde", "caida_en_ronda_sin_ronda"]
    assert scores(result) == (2, 0)
    # Refused above 30 (002 Art. 9), the ronda gives no caída en ronda either.
    result = play("ajuste A 32", "mano", "ronda A1", "caida_en_ronda A", profile="a_todo_rigor")
    assert codes(result)[2:] == ["ronda_limite", "caida_en_ronda_sin_ronda"]


def test_caida_en_ronda_needs_a_ronda_of_that_mano_seed_003_third_rulings():
    result = play("mano", "ronda B1", "mano", "caida_en_ronda A", profile="a_todo_rigor")
    assert last(result).code == "caida_en_ronda_sin_ronda"
    result = play("mano", "ronda B1", "caida_en_ronda A", profile="a_todo_rigor")
    assert last(result).accepted and result.state.chicas == {"A": 1, "B": 0}


# --- ruling-juego-y-veo-40: against the play that reached 40 (Art. 5, 15) -------


@pytest.mark.parametrize(("profile", "after"), [("riobamba", (38, 14)), ("pichincha", (38, 14))])
def test_an_upheld_juego_y_veo_against_the_play_that_reached_40_reopens_the_chica_art_5c_third_rulings(profile, after):
    result = play(*NEAR, "caida A1", "jyv B si 4", profile=profile)
    decision = last(result)
    assert decision.accepted and (decision.chica, decision.data, decision.mano) == (1, 1, 1)
    assert result.state.chicas == {"A": 0, "B": 0} and scores(result) == after
    assert result.state.chica_results == [] and result.state.phase == "play"
    # The chica goes on where it was.
    result = play(*NEAR, "caida A1", "jyv B si 4", "caida B1", profile=profile)
    assert last(result).accepted and scores(result) == (after[0], after[1] + 2)


def test_juego_y_veo_against_the_play_that_reached_40_rejected_leaves_the_chica_won_art_5c_third_rulings():
    result = play(*NEAR, "caida A1", "jyv B no 4")
    assert last(result).accepted and result.state.chicas == {"A": 1, "B": 0}
    assert scores(result) == (0, 0)  # the −2 falls on a new chica's 0 (ruling piso-cero)


def test_juego_y_veo_against_the_play_that_reached_40_closes_with_the_next_chicas_first_claim_third_rulings():
    result = play(*NEAR, "caida A1", "mano", "jyv B si 4")
    assert last(result).accepted is False and result.state.chicas == {"A": 1, "B": 0}
    result = play(*NEAR, "caida A1", "caida B1", "jyv B si 4")
    assert last(result).accepted is False and result.state.chicas == {"A": 1, "B": 0}


def test_juego_y_veo_reopening_a_chica_in_a_todo_rigor_art_5_third_rulings():
    # Caída y limpia gives 4 here; upheld, the offender loses 2 (002 Art. 13).
    result = play("ajuste A 36", "ajuste B 12", "mano", "caida_limpia A1", "jyv B si 4", profile="a_todo_rigor")
    assert last(result).accepted and result.state.chicas == {"A": 0, "B": 0}
    assert scores(result) == (38, 14)


# --- ruling-no-obligado, ruling-incompleta: captures (levante) -------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_no_one_is_obliged_to_capture_third_rulings_art_16(profile):
    from engines.rules.levante import judge

    verdict = judge(["5", "3", "2"], "5", None, [], build_ruleset(profile))
    assert (verdict.verdict, verdict.code) == ("legal", "declined")


@pytest.mark.parametrize(
    ("profile", "fate"), [("riobamba", "set_aside"), ("pichincha", "opponents"), ("a_todo_rigor", "opponents")]
)
def test_an_incomplete_capture_keeps_its_caida_and_is_never_a_limpia_art_6_9_third_rulings(profile, fate):
    from engines.rules.levante import judge

    verdict = judge(["5", "6", "7"], "5", "5", ["5", "6"], build_ruleset(profile))
    assert verdict.verdict == "incomplete" and verdict.left_behind == ("7",) and verdict.arranche == fate
    assert verdict.capture.caida and not verdict.capture.limpia


# --- ruling-juego-y-veo-pichincha: the cards go back to the table (002 Art. 13) --


def test_upheld_juego_y_veo_in_pichincha_puts_the_cards_back_002_art_13_art_5c_third_rulings():
    result = play("mano", "caida A1", "jyv B si 2", "mano", "conteo 0 30", profile="pichincha")
    assert last(result).accepted and last(result).detail["falla"] == {"A": 0, "B": 2}
    assert result.decisions[2].points == {"A": -2, "B": 2}


# --- ruling-pedir-mal: a refusal for timing is not pedir mal (Art. 11) ----------


@pytest.mark.parametrize("profile", PROFILES)
def test_a_claim_refused_for_its_timing_costs_nothing_art_11_third_rulings(profile):
    result = play("mano", "caida A", "ronda A2", *["caida B"] * 11, profile=profile)
    assert codes(result)[2] == "ronda_tarde"
    assert "sin_turno" in codes(result)
    assert all(d.points == {"A": 0, "B": 0} for d in result.decisions if not d.accepted)
    assert result.state.scores["A"] == 2
    # Points asked for a play that did not happen are (Art. 11).
    assert last(play("mano", "caida A1", "pedir_mal A")).points == {"A": -2, "B": 0}
