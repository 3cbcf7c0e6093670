"""Rule sets: the three profiles of docs/REGLAS.md and validated overrides."""

import pytest

from engines.rules.rules import CHICA, PROFILES, RuleSetError, build_ruleset


def test_default_profile_is_the_riobamba_reglamento():
    rules = build_ruleset()
    assert rules.profile == "riobamba"
    assert rules.caida_limpia_points == 2  # Art. 9a
    assert rules.doble_ronda == 4  # Art. 8
    assert rules.zapateria == "ends_mesa"  # Art. 3g.6, 12
    assert rules.arranche == "set_aside"  # Art. 16
    assert rules.treinta_y_ocho is False
    assert rules.overrides() == {}


def test_pichincha_differs_where_seed_002_says():
    rules = PROFILES["pichincha"]
    assert rules.doble_ronda == CHICA  # 002 Art. 15A
    assert rules.cuatro_caidas == CHICA  # 002 Art. 15B
    assert rules.ronda_limit == 30  # 002 Art. 9
    assert rules.treinta_y_ocho is True  # 002 Art. 11
    assert rules.juego_y_veo_upheld == "penalty"  # 002 Art. 13
    assert rules.zapateria == "title"  # 002 Art. 16


def test_a_todo_rigor_is_pichincha_plus_the_strict_column():
    rigor, pichincha = PROFILES["a_todo_rigor"].settings(), PROFILES["pichincha"].settings()
    differences = {k for k in rigor if rigor[k] != pichincha[k]}
    # Zapatería: seed 003's own (third rulings).
    assert differences == {"caida_limpia_points", "caida_en_ronda", "zapateria"}
    assert rigor["caida_limpia_points"] == 4 and rigor["caida_en_ronda"] == CHICA


def test_a_custom_rule_set_is_a_profile_plus_overrides():
    todo_dos = build_ruleset("pichincha", {"doble_ronda": 4, "caida_en_ronda": 4, "cuatro_caidas": None})
    assert todo_dos.overrides() == {"doble_ronda": 4, "caida_en_ronda": 4, "cuatro_caidas": None}
    assert todo_dos.ronda_limit == 30


@pytest.mark.parametrize(
    "profile, overrides, fragment",
    [
        ("quito", {}, "Unknown profile 'quito'"),
        ("riobamba", {"caida_points": 4}, "Unknown setting 'caida_points'"),
        ("riobamba", {"caida_limpia_points": 3}, "Bad value 3 for 'caida_limpia_points'"),
        ("riobamba", {"treinta_y_ocho": 1}, "Bad value 1 for 'treinta_y_ocho'"),
        ("riobamba", {"chicas_to_win": True}, "Bad value True for 'chicas_to_win'"),
    ],
)
def test_bad_rule_sets_are_refused_with_a_clear_message(profile, overrides, fragment):
    with pytest.raises(RuleSetError, match=fragment):
        build_ruleset(profile, overrides)


def test_describe_gives_a_readable_table_in_both_languages():
    rows = build_ruleset("riobamba", {"caida_limpia_points": 4}).describe("es")
    first = rows[0]
    assert first["label"] == "Caída y limpia" and first["value"] == "4 puntos" and first["changed"]
    english = {r["name"]: r for r in build_ruleset("pichincha").describe("en")}
    assert english["doble_ronda"]["value"] == "wins the chica"
    assert english["ronda_limit"]["value"] == "30 points"  # 002 Art. 9
    assert not any(r["changed"] for r in english.values())
    riobamba = {r["name"]: r for r in build_ruleset().describe("es")}
    assert riobamba["ronda_limit"]["value"] == "sin límite"
