"""Datas, manos and the deal (Art. 3d-f; rulings on the rotation)."""

import pytest

from .logs import DATA, codes, last, play


def test_a_data_has_two_manos_with_four_players_art_3f():
    result = play("mano", "mano", "mano")
    assert [(d.data, d.mano) for d in result.decisions[:2]] == [(1, 1), (1, 2)]
    assert last(result).code == "conteo_pendiente" and last(result).article == "Art. 3f"


def test_a_data_has_four_manos_with_two_players_seed_003():
    result = play("mano", "mano", "mano", "mano", "mano", "conteo 20 20", "mano", players=2)
    assert [d.mano for d in result.decisions[:4]] == [1, 2, 3, 4]
    assert codes(result)[4:] == ["conteo_pendiente", "ok", "ok"]
    assert (last(result).data, last(result).mano, last(result).dealer) == (2, 1, "B1")


def test_conteo_before_every_mano_is_dealt_is_refused_art_3f():
    result = play("mano", "conteo 20 20")
    assert last(result).code == "conteo_prematuro" and result.state.scores == {"A": 0, "B": 0}


def test_conteo_opens_the_way_to_the_next_data_art_3f():
    result = play(*DATA, "mano")
    assert (last(result).data, last(result).mano) == (2, 1)


@pytest.mark.parametrize(
    "kind",
    [
        "ronda A1",
        "caida A",
        "limpia B",
        "caida_limpia A",
        "pedir_mal A",
        "jyv A no",
        "conteo 20 20",
        "doble_ronda B",
    ],
)
def test_claims_of_a_mano_need_a_mano_in_play_art_3e(kind):
    # Pedir mal says where it is logged: in its data (fourth rulings, Art. 11).
    code = "pedir_mal_fuera_de_data" if kind.startswith("pedir_mal") else "sin_mano"
    before = play(kind)
    assert last(before).code == code and not last(before).accepted
    between = play(*DATA, kind)
    assert last(between).code == code


def test_the_first_dealer_deals_data_1_then_the_deal_goes_counterclockwise_art_3f():
    result = play(*DATA * 5, first_dealer="B2")
    assert [d.dealer for d in result.decisions[::3]] == ["B2", "A1", "B1", "A2", "B2"]


def test_with_two_players_the_deal_alternates_seed_003():
    data = ["mano"] * 4 + ["conteo 20 20"]
    result = play(*data * 3, players=2)
    assert [d.dealer for d in result.decisions[::5]] == ["A1", "B1", "A1"]


def test_the_rotation_goes_on_across_chicas_ruling():
    # Data 1 of chica 1 dealt by A1; the chica ends mid data 1; B1 deals data 1 of chica 2.
    result = play("ajuste B 10", "mano", "ajuste A 40", "mano")
    assert (last(result).chica, last(result).data, last(result).dealer) == (2, 1, "B1")


def test_a_chica_won_at_the_conteo_passes_the_deal_once_ruling():
    result = play("ajuste A 30", "ajuste B 10", "mano", "mano", "conteo 30 5", "mano")
    assert (last(result).chica, last(result).data, last(result).dealer) == (2, 1, "B1")


def test_the_state_follows_the_phase_of_the_data():
    assert play().state.phase == "deal"
    assert play("mano").state.phase == "play"
    assert play("mano", "mano").state.phase == "conteo"
    state = play(*DATA).state
    assert (state.phase, state.data, state.mano, state.dealer) == ("deal", 1, 2, "B1")


def test_datas_count_within_a_chica():
    result = play("ajuste A 10", *DATA, *DATA, "ajuste B 40", *DATA)
    assert [d.data for d in result.decisions if d.kind == "mano"] == [1, 1, 2, 2, 1, 1]
    assert [d.chica for d in result.decisions if d.kind == "mano"] == [1, 1, 1, 1, 2, 2]
