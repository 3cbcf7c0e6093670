"""Voids (Art. 16: the juez corrects the log) and the replay's determinism."""

import json
import random

from engines.rules import Header, replay
from engines.rules.rules import build_ruleset

from .logs import DATA, claim, codes, last, play, renumbered


def test_a_voided_claim_never_happened():
    result = play("mano", "caida A", "limpia A", "void 2")
    voided = result.decisions[1]
    assert (voided.accepted, voided.code, voided.voided_by, voided.points) == (False, "anulada", 4, {"A": 0, "B": 0})
    assert "jugada 4" in voided.message and "claim 4" in voided.message_en
    assert last(result).accepted and last(result).points == {"A": 0, "B": 0}
    assert result.state.scores == {"A": 2, "B": 0}


def test_a_void_replays_the_rest_as_if_the_claim_were_not_there():
    # Without the second mano, the conteo comes too early.
    result = play("mano", "mano", "void 2", "conteo 20 20")
    assert last(result).code == "conteo_prematuro"
    # A voided caída frees its turn: A2 falls at turn 1 again, so B2 can still claim ronda.
    freed = play("mano", "caida B1", "void 2", "caida A2", "ronda B2")
    assert codes(freed)[3:] == ["ok", "ok"]


def test_a_void_must_target_an_earlier_claim():
    result = play("mano", "caida A", "void 3", "void 9", "void 2")
    assert codes(result)[2:4] == ["anulacion_sin_objetivo", "anulacion_sin_objetivo"]
    assert result.decisions[4].accepted and result.decisions[1].voided_by == 5


def test_a_claim_is_voided_once():
    result = play("mano", "caida A", "void 2", "void 2")
    assert codes(result)[2:] == ["ok", "anulacion_repetida"]


def test_voiding_a_void_restores_its_target_and_the_chain_goes_on():
    restored = play("mano", "caida A", "void 2", "void 3")
    assert restored.decisions[1].accepted and restored.state.scores["A"] == 2
    assert restored.decisions[2].code == "anulada"
    again = play("mano", "caida A", "void 2", "void 3", "void 4")
    assert again.decisions[1].voided_by == 3 and again.state.scores["A"] == 0
    assert codes(again)[2:] == ["ok", "anulada", "ok"]


def test_a_restored_claim_can_be_voided_anew():
    result = play("mano", "caida A", "void 2", "void 3", "void 2")
    assert result.decisions[1].voided_by == 5 and result.state.scores["A"] == 0


def test_only_the_directors_void_works_while_suspended_third_rulings_art_16():
    result = play("mano", "caida A", "suspender", "void 2")
    assert last(result).code == "mesa_suspendida" and result.state.scores["A"] == 2
    result = play("mano", "caida A", "suspender", {"kind": "void", "target": 2, "director": True})
    assert last(result).accepted and result.state.scores["A"] == 0


def test_the_replay_is_deterministic_and_does_not_touch_the_log():
    log = [
        claim(c)
        for c in [
            "ajuste A 20",
            *DATA,
            "mano",
            "ronda A1",
            "caida B",
            "void 7",
            "jyv A si 7",
            "limpia A",
            "mano",
            "conteo 25 10",
        ]
    ]
    frozen = json.dumps(log)
    header = Header(build_ruleset("pichincha"))
    first, second = replay(header, log).as_dict(), replay(header, log).as_dict()
    assert first == second and json.dumps(log) == frozen
    assert json.loads(json.dumps(first)) == first


VOCABULARY = [
    "mano",
    "mano",
    "mano",
    "ronda A1",
    "ronda B2",
    "doble_ronda A",
    "caida A",
    "caida B",
    "caida A2",
    "caida B1",
    "limpia A",
    "limpia B1",
    "caida_limpia B",
    "caida_en_ronda A",
    "cuatro_caidas A",
    "cuatro_caidas B",
    "jyv A si",
    "jyv B no",
    "pedir_mal A",
    "mal_repartidas",
    "conteo 22 14",
    "conteo 20 20",
    "conteo 0 31",
    "ajuste B 6",
    "suspender",
    "reanudar",
]


def random_log(rng, length, players):
    words = [w for w in VOCABULARY if players == 4 or w[-1] != "2"]
    return [claim(rng.choice(words)) for _ in range(length)]


def test_a_refused_claim_changes_nothing():
    """Dropping every refused claim from a log leaves the same mesa (no voids here)."""
    rng = random.Random(40)
    for profile in ("riobamba", "pichincha", "a_todo_rigor"):
        for players in (4, 2):
            header = Header(build_ruleset(profile), players)
            for _ in range(40):
                log = random_log(rng, 120, players)
                result = replay(header, log)
                kept_seqs = [d.seq for d in result.decisions if d.accepted]
                kept = [log[seq - 1] for seq in kept_seqs]
                assert len(kept) < len(log)
                again = replay(header, kept)
                shown, expected = renumbered(again.state.as_dict(), kept_seqs), result.state.as_dict()
                if again.referee.chica_ender == len(kept) and kept_seqs[-1] < len(log):
                    # The one exception, by ruling ("no claim yet" means no claim at all): a
                    # refused claim after the play that won the chica closes the juego y veo on it.
                    assert expected["protestable"] == {"A": [], "B": []}
                    del shown["protestable"], expected["protestable"]
                assert shown == expected
                assert all(d.accepted for d in again.decisions)
