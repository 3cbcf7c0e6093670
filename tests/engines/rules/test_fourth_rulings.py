"""The rulings added in the fourth version (docs/REGLAS.md, "Decisiones de la cuarta versión").

Each test cites its ruling ("fourth rulings: …", anchored ``/reglas/#ruling-…``)
and the article it interprets, in every profile it concerns. With the first
dealer A1, the turns of a mano with four players run B1, A2, B2, A1: the
dealer's pair (A) plays last, the leader's pair (B) first.
"""

import pytest

from engines.rules.preview import localise, preview

from .logs import codes, last, play, scores

PROFILES = ["riobamba", "pichincha", "a_todo_rigor"]
# The profiles where four caídas and the doble ronda win the chica (002 Art. 15A-B).
WINS = ["pichincha", "a_todo_rigor"]
# A at 38, B at 12, and a data dealt: the next claim decides.
NEAR = ["ajuste A 38", "ajuste B 12", "mano"]
# B's four caídas in a row across the data's two manos (seqs 3, 4, 6, 7), then their claim (seq 8).
FOUR_B = ["mano", "caida B", "caida B", "mano", "caida B", "caida B", "cuatro_caidas B"]


# --- ruling-juego-y-veo-chica: against the play that ended a chica, however it ended (Art. 5c, 002 Art. 13) ---


@pytest.mark.parametrize("start", [10, 38])
def test_upheld_against_the_caida_en_ronda_that_won_leaves_nothing_of_the_win_seed_003_002_art_13_fourth_rulings(
    start,
):
    """A win is not points: the offender is back where it stood before the play, then pays 2 (002 Art. 13)."""
    log = [f"ajuste A {start}", "ajuste B 12", "mano", "ronda B1", "caida_en_ronda A"]
    won = play(*log, profile="a_todo_rigor")
    assert won.state.chicas == {"A": 1, "B": 0} and won.state.protestable == {"A": [], "B": [5]}
    result = play(*log, "jyv B si 5", profile="a_todo_rigor")
    decision = last(result)
    assert decision.accepted and decision.chica == 1
    assert result.state.chicas == {"A": 0, "B": 0} and result.state.chica_results == []
    assert scores(result) == (start - 2, 14 + 2)
    assert decision.points == {"A": -(40 - start) - 2, "B": 2}
    assert (result.state.phase, result.state.next) == ("play", "play")


def test_upheld_against_a_winning_caida_en_ronda_in_a_reglamento_that_retracts_art_5c_fourth_rulings():
    """Riobamba's juego y veo (Art. 5c) with caída en ronda set to win: the play's win is taken back, +2."""
    log = ["ajuste A 10", "ajuste B 12", "mano", "ronda B1", "caida_en_ronda A", "jyv B si 5"]
    result = play(*log, caida_en_ronda="chica")
    assert last(result).accepted and result.state.chicas == {"A": 0, "B": 0}
    assert scores(result) == (10, 16)


@pytest.mark.parametrize("profile", WINS)
@pytest.mark.parametrize("players", [4, 2])
def test_upheld_against_the_fourth_caida_that_won_reopens_the_chica_002_art_15b_art_5_fourth_rulings(profile, players):
    """The run's win is undone, the run is broken, and the fourth caída's own 2 points stand (002 Art. 13)."""
    log = ["ajuste A 20", *FOUR_B]
    if players == 2:
        log = ["ajuste A 20", "mano", "caida B1", "caida B1", "caida B1", "caida B1", "cuatro_caidas B"]
    fourth = len(log) - 1
    won = play(*log, profile=profile, players=players)
    assert won.state.chicas == {"A": 0, "B": 1}
    assert won.state.protestable == {"A": [fourth], "B": []}
    result = play(*log, f"jyv A si {fourth}", profile=profile, players=players)
    assert last(result).accepted and result.state.chicas == {"A": 0, "B": 0}
    assert scores(result) == (22, 8 - 2)
    assert result.state.caida_streak == {"pair": None, "count": 0}
    # The run is broken: its four caídas are not claimed again.
    again = play(*log, f"jyv A si {fourth}", "cuatro_caidas B", profile=profile, players=players)
    assert last(again).code == "cuatro_caidas_sin_racha"


@pytest.mark.parametrize("profile", WINS)
def test_upheld_against_the_doble_ronda_that_won_reopens_the_chica_002_art_15a_art_5_fourth_rulings(profile):
    result = play("ajuste A 30", "ajuste B 12", "mano", "doble_ronda A1", "jyv B si 4", profile=profile)
    assert last(result).accepted and result.state.chicas == {"A": 0, "B": 0}
    assert scores(result) == (28, 14)


def test_a_doble_ronda_found_wrong_is_no_ronda_for_a_caida_en_ronda_seed_003_fourth_rulings():
    log = ["ajuste A 30", "ajuste B 12", "mano", "doble_ronda A1", "jyv B si 4", "caida_en_ronda A"]
    assert last(play(*log, profile="a_todo_rigor")).code == "caida_en_ronda_sin_ronda"


@pytest.mark.parametrize(("kind", "start"), [("doble_ronda A1", 36), ("ronda A1", 38)])
def test_upheld_against_the_ronda_that_reached_40_takes_its_points_back_art_5c_fourth_rulings(kind, start):
    result = play(f"ajuste A {start}", "ajuste B 12", "mano", kind, "jyv B si 4")
    assert last(result).accepted and result.state.chicas == {"A": 0, "B": 0}
    assert scores(result) == (start, 14)


@pytest.mark.parametrize("profile", PROFILES)
def test_the_play_that_reached_40_is_still_protested_in_every_profile_art_5c_002_art_13_fourth_rulings(profile):
    result = play(*NEAR, "caida A1", "jyv B si 4", profile=profile)
    # Riobamba takes the caída's 2 back; pichincha and a todo rigor take 2 and leave the play's own.
    assert scores(result) == (38, 14) and result.state.chicas == {"A": 0, "B": 0}


# Chicas ended by each kind of claim a juego y veo may name: (profile, log, the seq it names).
ENDERS = [
    ("riobamba", [*NEAR, "caida A1"], 4),
    ("pichincha", ["ajuste A 20", *FOUR_B], 7),
    ("a_todo_rigor", ["ajuste A 30", "ajuste B 12", "mano", "doble_ronda B1"], 4),
    ("a_todo_rigor", ["ajuste A 12", "mano", "ronda A1", "caida_en_ronda B"], 4),
]


def ended_chica(profile, log):
    """The replay of ``log``, which ends the first chica, and the pair that may protest its last play."""
    ended = play(*log, profile=profile)
    return ended, "A" if ended.state.chica_results[0]["winner"] == "B" else "B"


@pytest.mark.parametrize(("profile", "log", "target"), ENDERS)
def test_the_play_that_ended_a_chica_is_protestable_until_the_next_chica_has_a_claim_art_5_fourth_rulings(
    profile, log, target
):
    ended, protester = ended_chica(profile, log)
    assert ended.state.protestable == {"A": [], "B": [], protester: [target]}
    assert play(*log, "mano", profile=profile).state.protestable == {"A": [], "B": []}
    late = play(*log, "mano", f"jyv {protester} si {target}", profile=profile)
    assert not last(late).accepted and late.state.chicas == ended.state.chicas


def test_the_winner_cannot_protest_its_own_play_that_ended_the_chica_art_5_fourth_rulings():
    for upheld in ("si", "no"):
        result = play(*NEAR, "caida A1", f"jyv A {upheld} 4")
        assert not last(result).accepted and result.state.chicas == {"A": 1, "B": 0}


# --- ruling-juego-y-veo-mesa-terminada: the play that ended the mesa goes to the Director (Art. 17) ---


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("claim", ["jyv B si 6", "jyv B no 6", "jyv B si"])
def test_once_the_mesa_is_finished_juego_y_veo_is_refused_and_the_pair_appeals_art_17_fourth_rulings(profile, claim):
    log = ["ajuste B 12", "ajuste A 40", "ajuste B 12", "ajuste A 38", "mano", "caida A1"]
    ended = play(*log, profile=profile)
    assert ended.state.finished and ended.state.protestable == {"A": [], "B": []}
    result = play(*log, claim, profile=profile)
    decision = last(result)
    assert (decision.accepted, decision.code, decision.article) == (False, "juego_y_veo_mesa_terminada", "Art. 17")
    assert "Director" in decision.message and "apela" in decision.message
    assert "Director" in decision.message_en and "appeals" in decision.message_en
    assert result.state.finished and result.state.winner == "A"


def test_the_mesa_ended_by_zapateria_is_not_reopened_by_juego_y_veo_art_12_17_fourth_rulings():
    log = ["ajuste B 8", "ajuste A 38", "mano", "caida A1", "jyv B si 4"]
    assert last(play(*log)).code == "juego_y_veo_mesa_terminada"
    # In pichincha zapatería is a title and the mesa goes on (002 Art. 16): the protest reopens the chica.
    result = play(*log, profile="pichincha")
    assert last(result).accepted and result.state.chicas == {"A": 0, "B": 0}


# --- ruling-juego-y-veo-rechazado: a rejected protest falls on the new chica (Art. 5c) ---


@pytest.mark.parametrize(("profile", "log", "target"), ENDERS)
def test_a_rejected_protest_against_the_play_that_ended_a_chica_costs_in_the_new_chica_art_5c_fourth_rulings(
    profile, log, target
):
    ended, protester = ended_chica(profile, log)
    result = play(*log, f"jyv {protester} no {target}", profile=profile)
    decision = last(result)
    assert decision.accepted and decision.chica == 2 and decision.points == {"A": 0, "B": 0}
    # The finished chica keeps its scores; the new one starts at 0, and 0 stays 0.
    assert result.state.chica_results == ended.state.chica_results
    assert scores(result) == (0, 0) and result.state.chica == 2


# --- ruling-ambas-40: one claim bringing both pairs to 40 (Art. 3g.3, 10, 15) ---


@pytest.mark.parametrize("players", [4, 2])
def test_a_conteo_that_brings_both_pairs_to_40_adds_both_and_the_higher_wins_art_15_fourth_rulings(players):
    # Neither pair took a card: B deals next (dos por darlas, 2) and both score falla (Art. 10).
    manos = ["mano"] * (2 if players == 4 else 4)
    result = play("ajuste A 39", "ajuste B 36", *manos, "conteo 0 0", players=players)
    decision = last(result)
    assert decision.accepted and decision.points == {"A": 2, "B": 4}
    assert result.state.chica_results[0]["scores"] == {"A": 41, "B": 40}
    assert result.state.chica_results[0]["winner"] == "A" and result.state.chicas == {"A": 1, "B": 0}
    assert "La pareja A gana la chica 1." in decision.message and "pareja B gana" not in decision.message
    assert "Pair A wins chica 1." in decision.message_en and "Pair B wins" not in decision.message_en


def test_on_equal_totals_the_pair_that_deals_next_wins_the_chica_art_3g_3_fourth_rulings():
    result = play("ajuste A 38", "ajuste B 36", "mano", "mano", "conteo 0 0")
    assert last(result).points == {"A": 2, "B": 4}
    assert result.state.chica_results[0]["scores"] == {"A": 40, "B": 40}
    # A1 dealt this data: B1, the next seat, deals the next (Art. 3f).
    assert result.state.chica_results[0]["winner"] == "B" and result.state.counters["dealer"] == "B1"
    assert "La pareja B gana la chica 1." in last(result).message and "pareja A gana" not in last(result).message


@pytest.mark.parametrize("profile", WINS)
def test_from_38_the_conteo_gives_nothing_so_only_one_pair_reaches_40_002_art_11_fourth_rulings(profile):
    result = play("ajuste A 38", "ajuste B 36", "mano", "mano", "conteo 0 0", profile=profile)
    assert last(result).points == {"A": 0, "B": 4}
    assert result.state.chica_results[0]["winner"] == "B"


# --- ruling-cuatro-caidas-dos: four caídas with two players (002 Art. 15B) ---


@pytest.mark.parametrize("profile", WINS)
def test_four_caidas_on_the_single_opponent_win_the_chica_002_art_15b_fourth_rulings(profile):
    result = play("mano", "caida A1", "caida A1", "caida A1", "caida A1", "cuatro_caidas A", players=2, profile=profile)
    assert last(result).accepted and result.state.chicas == {"A": 1, "B": 0}
    across = ["mano", "caida B1", "caida B1", "mano", "caida B1", "caida B1", "cuatro_caidas B"]
    assert play(*across, players=2, profile=profile).state.chicas == {"A": 0, "B": 1}


def test_four_caidas_with_two_players_score_nothing_in_riobamba_fourth_rulings():
    result = play("mano", "caida A1", "caida A1", "caida A1", "caida A1", "cuatro_caidas A", players=2)
    assert last(result).code == "cuatro_caidas_no_aplica" and scores(result) == (8, 0)


# --- ruling-caida-en-ronda-simple: outside a todo rigor, log a plain caída (seed 003) ---


@pytest.mark.parametrize("profile", ["riobamba", "pichincha"])
@pytest.mark.parametrize("players", [4, 2])
def test_caida_en_ronda_outside_a_todo_rigor_is_refused_and_the_juez_logs_a_caida_seed_003_fourth_rulings(
    profile, players
):
    result = play("mano", "ronda B1", "caida_en_ronda A", profile=profile, players=players)
    decision = last(result)
    assert (decision.accepted, decision.code, decision.article) == (False, "caida_en_ronda_no_aplica", "seed 003")
    assert "como caída simple" in decision.message and "plain caída" in decision.message_en
    assert scores(result) == (0, 2)
    result = play("mano", "ronda B1", "caida_en_ronda A", "caida A", profile=profile, players=players)
    assert last(result).accepted and scores(result) == (2, 2)


# --- ruling-pedir-mal-data: pedir mal in the data where it happened (Art. 11) ---


@pytest.mark.parametrize("profile", PROFILES)
def test_pedir_mal_is_logged_from_the_datas_first_mano_until_its_conteo_art_11_fourth_rulings(profile):
    refused = ("pedir_mal_fuera_de_data", "Art. 11")
    before = play("ajuste A 6", "pedir_mal A", profile=profile)
    assert (last(before).code, last(before).article) == refused and scores(before) == (6, 0)
    first = play("ajuste A 6", "mano", "pedir_mal A", profile=profile)
    assert last(first).accepted and scores(first) == (4, 0)
    # A falla asked for wrongly at the conteo is logged before the conteo.
    due = play("ajuste A 6", "mano", "mano", "pedir_mal A", "conteo 20 20", profile=profile)
    assert codes(due)[3:] == ["ok", "ok"]
    after = play("ajuste A 6", "mano", "mano", "conteo 20 20", "pedir_mal A", profile=profile)
    assert (last(after).code, last(after).article) == refused
    misdealt = play("ajuste A 6", "mano", "mal_repartidas", "pedir_mal A", profile=profile)
    assert last(misdealt).code == "pedir_mal_fuera_de_data"


def test_pedir_mal_once_the_chica_has_ended_is_refused_art_11_fourth_rulings():
    result = play(*NEAR, "caida A1", "pedir_mal B")
    assert (last(result).code, last(result).article) == ("pedir_mal_fuera_de_data", "Art. 11")
    assert result.state.chica_results[0]["scores"] == {"A": 40, "B": 12}
    assert "conteo" in last(result).message and "conteo" in last(result).message_en


def test_pedir_mal_with_two_players_through_the_four_manos_art_11_fourth_rulings():
    log = ["ajuste B 4", "mano", "mano", "mano", "mano", "pedir_mal B"]
    assert last(play(*log, players=2)).accepted
    assert last(play(*log[:-1], "conteo 20 20", "pedir_mal B", players=2)).code == "pedir_mal_fuera_de_data"


# --- ruling-juego-y-veo-carta: the protester has thrown his card (Art. 5b, 7a) ---


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("upheld", ["si", "no"])
def test_the_protesters_ronda_after_his_juego_y_veo_is_late_art_5b_7a_fourth_rulings(profile, upheld):
    # A2 takes B1's card at turn 1; B2 protests before his card at turn 2, then throws it.
    log = ["ajuste B 10", "mano", "caida A2", f"jyv B {upheld} 3"]
    result = play(*log, "ronda B2", profile=profile)
    decision = last(result)
    assert (decision.accepted, decision.code, decision.article) == (False, "ronda_tarde", "Art. 7a")
    # A1 plays after him, at turn 3: his ronda is still in time.
    assert last(play(*log, "ronda A1", profile=profile)).accepted
    assert play(*log, profile=profile).state.ronda_window


def test_the_leaders_ronda_after_his_juego_y_veo_across_the_mano_is_late_art_5b_7a_fourth_rulings():
    result = play("mano", "caida A", "mano", "jyv B si 2", "ronda B1")
    assert last(result).code == "ronda_tarde"
    assert last(play("mano", "caida A", "mano", "jyv B si 2", "ronda B2")).accepted


def test_after_a_protest_of_a_play_not_logged_the_protesters_ronda_is_late_art_5b_7a_fourth_rulings():
    # No capture logged: B's protester plays at turn 2 at the earliest (B2, after A2).
    result = play("mano", "jyv B si", "ronda B2")
    assert last(result).code == "ronda_tarde"
    assert last(play("mano", "jyv B si", "ronda A1")).accepted


def test_the_protesters_partner_may_still_claim_his_ronda_art_7a_fourth_rulings():
    # In the second mano B1's lead may take cards (a limpia at turn 0); A2 protests it at turn 1.
    log = ["mano", "mano", "limpia B1", "jyv A no 3"]
    assert last(play(*log, "ronda A2")).code == "ronda_tarde"
    # A pair's ronda without a player goes to the seat still in time: A1, at turn 3.
    assert last(play(*log, "ronda A")).accepted


# --- what the screen offers: protestable and the preview of juego y veo ---


def test_the_preview_says_what_each_juego_y_veo_would_do_art_5_fourth_rulings():
    shown = preview(play(*NEAR, "caida A1", profile="pichincha"))
    jyv = shown["juego_y_veo"]
    assert set(jyv["B"]) == {"none", "4"} and set(jyv["A"]) == {"none"}
    assert jyv["B"]["4"]["upheld"] == {"points": {"A": -2, "B": 2}}
    assert jyv["B"]["4"]["rejected"] == {"points": {"A": 0, "B": 0}}
    assert jyv["B"]["none"]["upheld"] == {"refused": "chica_terminada", "article": "Art. 15"}
    mid = preview(play("mano", "caida A2"))["juego_y_veo"]
    assert mid["B"]["2"]["upheld"] == {"points": {"A": -2, "B": 2}}
    assert mid["B"]["none"]["rejected"] == {"points": {"A": 0, "B": 0}}
    assert mid["A"]["none"]["upheld"] == {"points": {"A": 2, "B": 0}}


def test_the_preview_of_juego_y_veo_on_a_finished_mesa_tells_the_juez_to_appeal_art_17_fourth_rulings():
    log = ["ajuste B 12", "ajuste A 40", "ajuste B 12", "ajuste A 38", "mano", "caida A1"]
    shown = localise(preview(play(*log)), "es", link=lambda article: f"/reglas/#{article}")
    refusal = shown["juego_y_veo"]["B"]["none"]["upheld"]
    assert refusal["refused"] == "juego_y_veo_mesa_terminada" and refusal["article_url"] == "/reglas/#Art. 17"
    assert "Director" in refusal["message"]
    assert set(shown["juego_y_veo"]["B"]) == {"none"}
