"""The claim format and the header: malformed input is an error, never a decision."""

import pytest

from engines.rules import ClaimError, Header, parse_claim, replay
from engines.rules.rules import build_ruleset

GOOD = [
    {"kind": "mano"},
    {"kind": "ronda", "pair": "A", "player": 2},
    {"kind": "doble_ronda", "pair": "B"},
    {"kind": "caida", "pair": "A", "player": 1},
    {"kind": "limpia", "pair": "B"},
    {"kind": "caida_limpia", "pair": "A"},
    {"kind": "caida_en_ronda", "pair": "B"},
    {"kind": "caida_en_ronda", "pair": "B", "player": 2},
    {"kind": "cuatro_caidas", "pair": "A"},
    {"kind": "juego_y_veo", "pair": "A", "upheld": True},
    {"kind": "juego_y_veo", "pair": "B", "upheld": False, "against": 3},
    {"kind": "pedir_mal", "pair": "A"},
    {"kind": "mal_repartidas"},
    {"kind": "conteo", "cards": {"A": 0, "B": 40}},
    {"kind": "ajuste", "pair": "A", "points": -4, "reason": "Apelación 1"},
    {"kind": "void", "target": 1},
    {"kind": "suspender"},
    {"kind": "reanudar"},
]


@pytest.mark.parametrize("claim", GOOD, ids=lambda c: c["kind"])
def test_every_kind_of_the_contract_parses_to_an_equal_new_dict(claim):
    parsed = parse_claim(claim)
    assert parsed == claim and parsed is not claim


BAD = [
    ("not a dict", ["mano"], "JSON object"),
    ("no kind", {"pair": "A"}, "Unknown claim kind"),
    ("unknown kind", {"kind": "escalera", "pair": "A"}, "Unknown claim kind 'escalera'"),
    ("kind not a string", {"kind": 3}, "Unknown claim kind"),
    ("extra field", {"kind": "mano", "pair": "A"}, "'mano' has no field 'pair'"),
    ("missing pair", {"kind": "caida"}, "missing field 'pair'"),
    ("pair C", {"kind": "caida", "pair": "C"}, "pair must be"),
    ("pair lowercase", {"kind": "caida", "pair": "a"}, "pair must be"),
    ("player 3", {"kind": "caida", "pair": "A", "player": 3}, "bad player"),
    ("player as string", {"kind": "caida", "pair": "A", "player": "1"}, "bad player"),
    ("player True", {"kind": "caida", "pair": "A", "player": True}, "bad player"),
    ("player on cuatro_caidas", {"kind": "cuatro_caidas", "pair": "A", "player": 1}, "no field 'player'"),
    ("upheld missing", {"kind": "juego_y_veo", "pair": "A"}, "missing field 'upheld'"),
    ("upheld as int", {"kind": "juego_y_veo", "pair": "A", "upheld": 1}, "true or false"),
    ("against 0", {"kind": "juego_y_veo", "pair": "A", "upheld": True, "against": 0}, "seq"),
    ("cards missing B", {"kind": "conteo", "cards": {"A": 20}}, "integers"),
    ("cards negative", {"kind": "conteo", "cards": {"A": -1, "B": 20}}, "integers"),
    ("cards float", {"kind": "conteo", "cards": {"A": 20.0, "B": 20}}, "integers"),
    ("cards extra key", {"kind": "conteo", "cards": {"A": 1, "B": 2, "C": 3}}, "integers"),
    ("cards bool", {"kind": "conteo", "cards": {"A": True, "B": 2}}, "integers"),
    ("ajuste points float", {"kind": "ajuste", "pair": "A", "points": 2.0, "reason": "x"}, "integer"),
    ("ajuste empty reason", {"kind": "ajuste", "pair": "A", "points": 2, "reason": "  "}, "reason"),
    ("ajuste no reason", {"kind": "ajuste", "pair": "A", "points": 2}, "missing field 'reason'"),
    ("void target string", {"kind": "void", "target": "3"}, "seq"),
    ("void target bool", {"kind": "void", "target": True}, "seq"),
]


@pytest.mark.parametrize("name, claim, fragment", BAD, ids=[b[0] for b in BAD])
def test_malformed_claims_raise_claim_error_naming_the_problem(name, claim, fragment):
    with pytest.raises(ClaimError, match=fragment):
        parse_claim(claim)


def test_player_2_is_malformed_at_a_two_player_mesa_seed_003():
    """Seed 003: two players sit A1 and B1; there is no player 2."""
    assert parse_claim({"kind": "caida", "pair": "B", "player": 1}, players=2)
    with pytest.raises(ClaimError, match="bad player"):
        parse_claim({"kind": "caida", "pair": "B", "player": 2}, players=2)
    with pytest.raises(ClaimError, match="Claim 2"):
        replay(Header(build_ruleset(), players=2), [{"kind": "mano"}, {"kind": "ronda", "pair": "A", "player": 2}])


def test_replay_refuses_a_malformed_log_naming_the_claim():
    with pytest.raises(ClaimError, match="Claim 3") as caught:
        replay(Header(build_ruleset()), [{"kind": "mano"}, {"kind": "caida", "pair": "A"}, {"kind": "caida"}])
    # Each language apart (engines/rules/messages.py, "The convention").
    assert caught.value.message("es").startswith("Jugada 3: ") and "Claim" not in caught.value.message("es")
    assert caught.value.message("en").startswith("Claim 3: ") and "Jugada" not in caught.value.message("en")


@pytest.mark.parametrize(
    "header, fragment",
    [
        (Header(build_ruleset(), players=3), "2 or 4 players"),
        (Header(build_ruleset(), players="4"), "2 or 4 players"),
        (Header(build_ruleset(), players=2, first_dealer="A2"), "first dealer must be one of A1, B1"),
        (Header(build_ruleset(), first_dealer="C1"), "first dealer"),
        (Header("riobamba"), "rule set"),
    ],
)
def test_replay_validates_the_header(header, fragment):
    with pytest.raises(ClaimError, match=fragment):
        replay(header, [])
