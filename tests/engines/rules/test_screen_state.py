"""What the juez's screen draws, told by the engine with every state (issue 24).

The screen's centre panel, the chips, the end of a chica and the target of
"void the last claim" are the engine's answers, so that no rule of the game
is worked out in the browser. With the first dealer A1 and four players, a
mano's turns run B1, A2, B2, A1 (Art. 3e); a data has two manos.
"""

import pytest

from engines.rules.preview import localise, preview
from engines.rules.state import chips

from .logs import DATA, codes, last, play

PROFILES = ["riobamba", "pichincha", "a_todo_rigor"]


def test_chips_are_perros_of_10_and_tantos_of_2_art_14():
    assert chips(0) == {"points": 0, "perros": 0, "tantos": 0, "odd": 0}
    assert chips(38) == {"points": 38, "perros": 3, "tantos": 4, "odd": 0}
    assert chips(17) == {"points": 17, "perros": 1, "tantos": 3, "odd": 1}
    state = play("ajuste A 26", "ajuste B 4").state.as_dict()
    assert state["chips"]["A"] == {"points": 26, "perros": 2, "tantos": 3, "odd": 0}
    assert state["chips"]["B"] == {"points": 4, "perros": 0, "tantos": 2, "odd": 0}


def test_the_next_step_deal_play_last_mano_art_3d_3f():
    assert play().state.next == "deal"
    assert play("mano").state.next == "play"
    # The last mano dealt is not yet played: the conteo is not due yet (Art. 3f: the 40 cards played).
    assert play("mano", "mano").state.next == "last_mano"
    assert play(*DATA).state.next == "deal"


def test_the_conteo_is_the_next_step_once_every_card_of_the_data_is_played_art_3f():
    # A caída by A1, the dealer, at the last of the mano's 20 turns: every card is played.
    last_turn = ["caida A1"] * 5
    assert play("mano", "mano", *last_turn).state.next == "conteo"
    assert play("mano", *last_turn).state.next == "mano"
    assert play("mano", "mano", *last_turn[:4]).state.next == "last_mano"


def test_the_next_step_of_a_suspended_and_of_a_finished_mesa_art_16():
    assert play("mano", "suspender").state.next == "resume"
    assert play("ajuste A 38", "mano", "caida A1").state.next == "finished"


def test_after_a_conteo_the_counters_name_the_next_data_its_first_mano_and_dealer_art_3f():
    state = play(*DATA).state
    # The log's own numbers stay those of the data just counted.
    assert (state.data, state.mano, state.dealer) == (1, 2, "B1")
    assert state.counters == {"chica": 1, "data": 2, "mano": 1, "dealer": "B1"}
    assert play(*DATA, "mano").state.counters == {"chica": 1, "data": 2, "mano": 1, "dealer": "B1"}
    assert play(*DATA, "mano", "mano").state.counters == {"chica": 1, "data": 2, "mano": 2, "dealer": "B1"}
    assert play().state.counters == {"chica": 1, "data": 1, "mano": 1, "dealer": "A1"}


def test_the_end_of_a_chica_is_told_until_the_next_data_is_dealt_art_15():
    won = play("ajuste B 12", "ajuste A 38", "mano", "caida A1")
    assert won.state.ended == "chica"
    assert won.state.counters == {"chica": 2, "data": 1, "mano": 1, "dealer": "B1"}
    assert play("ajuste B 12", "ajuste A 38", "mano", "caida A1", "mano").state.ended is None
    assert play("mano").state.ended is None
    # Zapatería (Art. 12): B under 10 after the first chica ends the mesa.
    assert play("ajuste A 38", "mano", "caida A1").state.ended == "mesa"


@pytest.mark.parametrize("profile", PROFILES)
def test_mal_repartidas_is_claimed_while_dealing_before_the_mano_is_logged_art_4(profile):
    """Art. 4a-c: the misdeal is found as the cards are dealt; +10 to the pair that did not deal,
    and that pair deals the data, reshuffled. The misdealt data counts as one, with its dealer."""
    result = play("mal_repartidas", profile=profile)
    decision = last(result)
    assert decision.accepted and decision.points == {"A": 0, "B": 10}
    assert (decision.data, decision.dealer, decision.article) == (1, "A1", "Art. 4c")
    state = result.state
    assert state.scores == {"A": 0, "B": 10}
    assert (state.phase, state.next, state.dealer) == ("deal", "deal", "B1")
    assert state.counters == {"chica": 1, "data": 2, "mano": 1, "dealer": "B1"}
    # The rewarded pair deals: the next mano opens data 2, dealt by B1.
    assert (last(play("mal_repartidas", "mano")).data, last(play("mal_repartidas", "mano")).dealer) == (2, "B1")


def test_mal_repartidas_while_dealing_after_a_conteo_or_a_chica_art_4():
    after_conteo = play(*DATA, "mal_repartidas")
    assert codes(after_conteo)[-1] == "ok"
    # B1 misdeals data 2: A is rewarded, A2 deals data 3.
    assert last(after_conteo).points == {"A": 10, "B": 0}
    assert after_conteo.state.counters == {"chica": 1, "data": 3, "mano": 1, "dealer": "A2"}
    # The first claim of the next chica: B1 deals its first data and misdeals it.
    new_chica = play("ajuste B 12", "ajuste A 38", "mano", "caida A1", "mal_repartidas")
    assert last(new_chica).accepted and last(new_chica).chica == 2
    assert new_chica.state.scores == {"A": 10, "B": 0} and new_chica.state.ended is None


def test_mal_repartidas_while_dealing_can_win_the_chica_and_the_deal_passes_once_art_4_15():
    result = play("ajuste A 12", "ajuste B 30", "mal_repartidas", first_dealer="A1")
    assert result.state.chicas == {"A": 0, "B": 1}
    assert result.state.counters == {"chica": 2, "data": 1, "mano": 1, "dealer": "B1"}


def test_mal_repartidas_while_dealing_is_refused_on_a_suspended_mesa_art_16():
    assert codes(play("suspender", "mal_repartidas"))[-1] == "mesa_suspendida"


def test_mal_repartidas_while_dealing_is_voided_like_any_claim_art_16():
    result = play(*DATA, "mal_repartidas", "void 4")
    assert result.state.scores == {"A": 0, "B": 2}  # dos por darlas alone (Art. 3g.3)
    assert result.state.counters == {"chica": 1, "data": 2, "mano": 1, "dealer": "B1"}


def test_the_target_of_void_the_last_claim_is_the_engines_art_16():
    # The last claim standing: not a refused one, nor one already voided.
    assert preview(play("mano", "caida A1", "limpia B"))["undo"] == {"target": 3}
    assert preview(play("mano", "caida A1", "conteo 20 20"))["undo"] == {"target": 2}
    assert preview(play("mano", "caida A1", "limpia B", "void 3"))["undo"] == {"target": 2}
    # Suspender and reanudar are corrected by their opposite, never voided (ruling "suspendida").
    assert preview(play("mano", "caida A1", "suspender", "reanudar"))["undo"] == {"target": 2}
    assert preview(play())["undo"] == {"target": None}


def test_a_void_the_engine_would_refuse_says_so_with_its_article_art_16_18():
    # A mano is voided only by the claim right after it (ruling "anular").
    shown = preview(play("mano", "ronda A1", "void 2"))
    assert shown["undo"] == {"target": 1, "refused": "anulacion_de_mano", "article": "Art. 16"}
    # The previous chica is the Director's to correct once another claim followed its end (Art. 18).
    older = preview(play("ajuste B 12", "ajuste A 38", "mano", "caida A1", "suspender", "reanudar"))
    assert older["undo"] == {"target": 4, "refused": "anulacion_fuera_de_alcance", "article": "Art. 18"}
    english = localise(shown, "en", link=lambda article: f"/reglas/#{article}")
    assert english["undo"]["target"] == 1
    assert english["undo"]["message"] == "A mano can be voided only while no claim has been logged in it."
    assert english["undo"]["article_url"] == "/reglas/#Art. 16"


def test_the_preview_tells_the_cards_of_a_data_art_3g():
    assert preview(play("mano", "mano"))["cards"] == 40
