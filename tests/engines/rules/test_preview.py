"""The preview: each claim's outcome if logged now, as the engine decides it when appended.

The tablet shows the preview instead of computing any rule itself (issue 13,
"no rule outside the engine"); these tests hold it to the engine's own
decisions. Rules cited from docs/REGLAS.md.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.rules import Header, replay
from engines.rules.preview import UNPAIRED, counted, localise, localise_entry, next_claim, preview, protestable
from engines.rules.rules import PROFILES, build_ruleset
from tests.support.simulator import SEATS, simulate_mesa

from .logs import play


def appended(header, log, new):
    """The entry the log gives ``new`` when it is appended: the preview's shape."""
    result = replay(header, log + [new])
    decision = result.decisions[-1]
    if not decision.accepted:
        entry = {"refused": decision.code, "article": decision.article}
        if decision.detail:
            entry["detail"] = decision.detail
        return entry
    entry = {"points": decision.points}
    before = replay(header, log).state
    state = result.state
    if state.finished and not before.finished:
        entry["ends"] = "mesa"
    elif sum(state.chicas.values()) > sum(before.chicas.values()):
        entry["ends"] = "chica"
    if decision.code:
        entry["note"], entry["article"] = decision.code, decision.article
    return entry


RULESETS = [build_ruleset(name) for name in PROFILES]


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=st.sampled_from(RULESETS),
    players=st.sampled_from([4, 2]),
    seed=st.integers(0, 2**32 - 1),
    cut=st.floats(0, 1),
    counts=st.lists(st.integers(0, 40), min_size=3, max_size=3),
)
@pytest.mark.slow
def test_the_preview_is_what_the_engine_decides_when_the_claim_is_appended(ruleset, players, seed, cut, counts):
    first = SEATS[players][seed % players]
    mesa = simulate_mesa(random.Random(seed), ruleset, players, first, forget=0.1)
    log = mesa.claims[: int(cut * len(mesa.claims))]
    header = Header(ruleset, players, first)
    result = replay(header, log)
    shown = preview(result)
    for pair in "AB":
        assert set(shown["claims"][pair]) == set(ruleset.pair_claims)
        for kind, entry in shown["claims"][pair].items():
            assert entry == appended(header, log, {"kind": kind, "pair": pair}), (pair, kind)
        # Juego y veo (Art. 5): naming no play, and each play the state says the pair may protest.
        protests = shown["juego_y_veo"][pair]
        # What the state the mesa keeps and sends says of them is read from those trials (``protestable``).
        assert protestable(shown)[pair] == result.state.protestable[pair]
        for key, fates in protests.items():
            claim = {"kind": "juego_y_veo", "pair": pair, **({} if key == "none" else {"against": int(key)})}
            for fate, upheld in (("upheld", True), ("rejected", False)):
                assert fates[fate] == appended(header, log, dict(claim, upheld=upheld)), (pair, key, fate)
    for kind in UNPAIRED:
        assert shown["claims"]["-"][kind] == appended(header, log, {"kind": kind}), kind
    for n in counts + [0, 40]:
        assert counted(shown, "A", n) == appended(header, log, {"kind": "conteo", "cards": {"A": n, "B": 40 - n}})
        assert counted(shown, "B", n) == appended(header, log, {"kind": "conteo", "cards": {"A": 40 - n, "B": n}})


def test_trying_claims_leaves_the_mesa_as_it_was():
    result = play("mano", "ronda A1", "caida B", "limpia A", "mano", profile="a_todo_rigor")
    before = result.state.as_dict()
    preview(result)
    preview(result)
    assert result.referee.state().as_dict() == before


def test_the_preview_of_a_conteo_that_contradicts_the_log_is_its_refusal_art_10():
    """Ruling "conteo", Art. 10, 15: pair A took cards (a caída): it cannot be counted at 0."""
    shown = preview(play("mano", "caida A1", "mano"))
    assert shown["conteo"]["A"][0] == {
        "refused": "conteo_contradice_registro",
        "article": "Art. 10, 15",
        "detail": {"pair": "A", "plays": 1, "least": 2},
    }
    assert shown["conteo"]["B"][40] == shown["conteo"]["A"][0]
    assert shown["conteo"]["A"][2] == {"points": {"A": 0, "B": 24}}
    assert shown["conteo"]["B"][0]["points"] == {"A": 28, "B": 0}  # 26 and falla (Art. 10)


def test_the_preview_shows_the_end_of_the_chica_and_of_the_mesa_art_15():
    shown = preview(play("ajuste B 12", "ajuste A 38", "mano"))
    assert shown["claims"]["A"]["caida"] == {"points": {"A": 2, "B": 0}, "ends": "chica"}
    # Zapatería (Art. 12): B below 10 at the end of the first chica ends the mesa.
    assert preview(play("ajuste A 38", "mano"))["claims"]["A"]["caida"]["ends"] == "mesa"
    last = preview(play("ajuste B 12", "ajuste A 40", "ajuste B 12", "ajuste A 38", "mano"))
    assert last["claims"]["A"]["caida"]["ends"] == "mesa"


def test_the_preview_of_38_que_no_juega_carries_its_note_002_art_11():
    shown = preview(play("ajuste A 38", "mano", profile="pichincha"))
    assert shown["claims"]["A"]["limpia"] == {
        "points": {"A": 0, "B": 0},
        "note": "treinta_y_ocho",
        "article": "002 Art. 11",
    }
    # An immediate win is no points: the doble ronda wins at 38 (ruling "38 que no juega").
    assert shown["claims"]["A"]["doble_ronda"] == {"points": {"A": 2, "B": 0}, "ends": "chica"}


def test_before_the_last_mano_every_count_is_refused_alike_art_3f():
    """Sent once, not 41 times: the state the mesa keeps and sends after every claim was three quarters this list."""
    shown = preview(play("mano"))
    refusal = {"refused": "conteo_prematuro", "article": "Art. 3f"}
    assert shown["conteo"]["A"] == [refusal] == shown["conteo"]["B"]
    assert all(counted(shown, pair, n) == refusal for pair in "AB" for n in range(41))
    # Once the conteo is due, each count has its own entry.
    due = preview(play("mano", "mano"))
    assert len(due["conteo"]["A"]) == 41 and counted(due, "A", 40) != counted(due, "A", 0)


def test_the_variant_claims_are_previewed_only_where_the_rule_set_scores_them():
    assert "caida_en_ronda" not in preview(play("mano"))["claims"]["A"]
    assert "caida_en_ronda" in preview(play("mano", profile="a_todo_rigor"))["claims"]["A"]


def test_localise_words_each_refusal_and_links_its_article():
    shown = localise(preview(play("mano", "caida A1", "mano")), "en", link=lambda article: f"/reglas/#{article}")
    entry = shown["conteo"]["A"][0]
    assert entry["message"].startswith("The log has 1 accepted capture(s) by pair A")
    assert entry["article_url"] == "/reglas/#Art. 10, 15"
    assert shown["claims"]["A"]["caida"] == {"points": {"A": 2, "B": 0}, "article_url": None}
    spanish = localise(preview(play("mano")), "es")
    assert counted(spanish, "B", 7)["message"] == "Aún no se han repartido todas las manos de la data."
    assert counted(spanish, "B", 7)["article_url"] is None


def test_a_claim_naming_no_player_is_placed_at_the_pairs_earliest_turn_art_6():
    """The preview asks for the pair's claim: the referee places it (a caída needs a card before)."""
    # Two players: B1's caídas at turns 2, 4, 6 and 8 leave A1 only turn 9, after a capture.
    shown = preview(play("mano", "caida B1", "caida B1", "caida B1", "caida B1", players=2))
    assert shown["claims"]["A"]["caida"] == {"refused": "sin_turno", "article": "Art. 13"}
    assert shown["claims"]["A"]["limpia"] == {"points": {"A": 2, "B": 0}}  # needs no card before


def test_a_conteo_that_leaves_cards_out_is_previewed_by_next_claim_art_3g_10():
    """The preview holds the conteos of all 40 cards; one with cards left on the table is asked for alone."""
    result = play("mano", "caida A1", "mano")
    assert next_claim(result, {"kind": "conteo", "cards": {"A": 0, "B": 38}}) == {
        "refused": "conteo_contradice_registro",
        "article": "Art. 10, 15",
        "detail": {"pair": "A", "plays": 1, "least": 2},
    }
    # 23 cards to 15, two left on the table: 6 + 3, rounded up to 10 (Art. 15h).
    conteo = {"kind": "conteo", "cards": {"A": 15, "B": 23}}
    assert next_claim(result, conteo) == {"points": {"A": 0, "B": 10}}
    # A whole count is what the preview holds.
    assert next_claim(result, {"kind": "conteo", "cards": {"A": 2, "B": 38}}) == counted(preview(result), "A", 2)
    english = localise_entry(next_claim(result, {"kind": "mano"}), "en", link=lambda article: f"/reglas/#{article}")
    assert english == {
        "refused": "conteo_pendiente",
        "article": "Art. 3f",
        "message": "Every hand of the data has been dealt; the conteo is due.",
        "article_url": "/reglas/#Art. 3f",
    }


def test_juego_y_veo_is_previewed_against_each_play_the_protester_may_name_art_5():
    shown = preview(play("mano", "caida B1"))
    # A may protest B's caída (seq 2); B has nothing of A's to protest ("none" names no logged play).
    assert {
        pair: {seq: fates for seq, fates in named.items() if seq != "none"}
        for pair, named in shown["juego_y_veo"].items()
    } == {
        "A": {"2": {"upheld": {"points": {"A": 2, "B": -2}}, "rejected": {"points": {"A": 0, "B": 0}}}},
        "B": {},
    }
    worded = localise(shown, "es")["juego_y_veo"]["A"]["2"]["upheld"]
    assert worded == {"points": {"A": 2, "B": -2}, "article_url": None}
