"""The shape other parts rely on: the public API, the JSON of decisions and state."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engines import rules as engine

from .logs import last, play

ROOT = Path(__file__).resolve().parents[3]

DECISION_KEYS = {
    "seq",
    "kind",
    "accepted",
    "points",
    "code",
    "message",
    "message_en",
    "article",
    "voided_by",
    "chica",
    "data",
    "mano",
    "dealer",
    "scores",
    "detail",
}
STATE_KEYS = {
    "scores",
    "chicas",
    "chica",
    "data",
    "mano",
    "dealer",
    "finished",
    "winner",
    "zapateria",
    "suspended",
    "phase",
    "ronda_window",
    "caida_streak",
    "chica_results",
    "players",
    "seats",
    "protestable",
    "next",
    "counters",
    "ended",
    "chips",
}


def test_the_package_exports_the_contract():
    for name in ("replay", "Header", "ClaimError", "parse_claim"):
        assert hasattr(engine, name)


@pytest.mark.slow
def test_the_engine_imports_no_django():
    code = "import sys, engines.rules; sys.exit('django' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_decisions_and_state_as_json():
    """The chica ends at 40 or more: scores are not cut at 40 (ruling: only the floor at 0)."""
    result = play(
        "ajuste A 36",
        "ajuste B 4",
        "mano",
        "ronda B1",
        "caida A",
        "mano",
        "conteo 24 16",
        "mano",
        "caida B",
        "pedir_mal A",
    )
    data = json.loads(json.dumps(result.as_dict()))
    assert all(set(d) == DECISION_KEYS for d in data["decisions"])
    assert set(data["state"]) == STATE_KEYS
    conteo = data["decisions"][6]
    assert conteo == {
        "seq": 7,
        "kind": "conteo",
        "accepted": True,
        "points": {"A": 10, "B": 0},
        "code": None,
        "message": conteo["message"],
        "message_en": conteo["message_en"],
        "article": "Art. 3g",
        "voided_by": None,
        "chica": 1,
        "data": 1,
        "mano": 2,
        "dealer": "A1",
        "scores": {"A": 48, "B": 6},
        "detail": {
            "cards": {"A": 24, "B": 16},
            "table": 0,
            "conteo": {"A": 10, "B": 0},
            "falla": {"A": 0, "B": 0},
            "dos_por_darlas": None,
        },
    }
    assert conteo["message"] == "Conteo: +10 para A. La pareja A gana la chica 1."
    assert conteo["message_en"] == "Conteo: +10 to A. Pair A wins chica 1."
    state = data["state"]
    assert state == {
        "scores": {"A": 48, "B": 6},
        "chicas": {"A": 1, "B": 0},
        "chica": 1,
        "data": 1,
        "mano": 2,
        "dealer": "B1",
        "finished": True,
        "winner": "A",
        "zapateria": True,
        "suspended": False,
        "phase": "finished",
        "ronda_window": False,
        "caida_streak": {"pair": None, "count": 0},
        "chica_results": [{"chica": 1, "winner": "A", "scores": {"A": 48, "B": 6}, "zapatero": "B"}],
        "players": 4,
        "seats": ["A1", "B1", "A2", "B2"],
        "protestable": {"A": [], "B": []},
        "next": "finished",
        "counters": {"chica": 1, "data": 1, "mano": 2, "dealer": "B1"},
        "ended": "mesa",
        "chips": {
            "A": {"points": 48, "perros": 4, "tantos": 4, "odd": 0},
            "B": {"points": 6, "perros": 0, "tantos": 3, "odd": 0},
        },
    }
    assert data["decisions"][-1]["code"] == "mesa_terminada"


def test_a_refusal_reads_in_both_languages_with_its_article():
    decision = last(play("mano", "caida B1", "ronda A1"))
    assert decision.as_dict()["message"].startswith("Rechazada: Ya jugaron todos")
    assert decision.message_en.startswith("Refused: Everyone has played")
    assert decision.article == "Art. 7b"


def test_the_state_of_a_two_player_mesa_seed_003():
    state = play("mano", players=2, first_dealer="B1").state.as_dict()
    assert state["seats"] == ["A1", "B1"] and state["players"] == 2 and state["dealer"] == "B1"
