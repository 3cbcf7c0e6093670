"""Any well-formed log replays: no crash, scores never below 0, voids as if never logged."""

import json
import random

import pytest

from engines.rules import Header, replay
from engines.rules.rules import PROFILES, build_ruleset

from .logs import renumbered

pytestmark = pytest.mark.slow

PLAYS = ["ronda", "doble_ronda", "caida", "caida", "caida", "limpia", "caida_limpia", "caida_en_ronda"]


def random_claim(rng, seq, players, against=True):
    pair = rng.choice("AB")
    kind = rng.choice(
        ["mano"] * 6
        + PLAYS * 2
        + [
            "cuatro_caidas",
            "juego_y_veo",
            "pedir_mal",
            "mal_repartidas",
            "conteo",
            "conteo",
            "ajuste",
            "void",
            "void",
            "suspender",
            "reanudar",
        ]
    )
    claim = {"kind": kind}
    if kind in PLAYS:
        claim["pair"] = pair
        player = rng.choice([None, 1, 2][:players])
        if player:
            claim["player"] = player
    elif kind in ("cuatro_caidas", "pedir_mal"):
        claim["pair"] = pair
    elif kind == "juego_y_veo":
        claim.update(pair=pair, upheld=rng.random() < 0.5)
        if against and rng.random() < 0.7:
            claim["against"] = rng.randint(1, seq + 1)
    elif kind == "conteo":
        a = rng.randint(0, 40)
        claim["cards"] = {"A": a, "B": rng.randint(0, 41 - a)}
    elif kind == "ajuste":
        claim.update(pair=pair, points=rng.randint(-20, 30), reason="Director")
    elif kind == "void":
        claim["target"] = rng.randint(1, seq)
    return claim


def headers(rng):
    for profile in PROFILES:
        for players in (4, 2):
            yield Header(build_ruleset(profile), players, rng.choice(["A1", "B1", "A2", "B2"][:players]))


def test_any_well_formed_log_replays_to_json_with_scores_never_below_0():
    rng = random.Random(16)
    for header in headers(rng):
        for _ in range(15):
            log = [random_claim(rng, seq, header.players) for seq in range(1, 200)]
            result = replay(header, log)
            data = json.loads(json.dumps(result.as_dict()))
            assert len(data["decisions"]) == len(log)
            for decision in data["decisions"]:
                assert min(decision["scores"].values()) >= 0
                assert decision["accepted"] or decision["points"] == {"A": 0, "B": 0}
                assert decision["message"] and decision["message_en"] and decision["article"]


def test_a_voided_claim_and_its_void_are_as_if_never_logged_art_16():
    """Replaying without the voided claims and the voids leaves the same mesa."""
    rng = random.Random(17)
    for header in headers(rng):
        for _ in range(15):
            log = [random_claim(rng, seq, header.players, against=False) for seq in range(1, 150)]
            result = replay(header, log)
            kept_seqs = [
                decision.seq
                for claim, decision in zip(log, result.decisions)
                if claim["kind"] != "void" and decision.voided_by is None
            ]
            kept = [log[seq - 1] for seq in kept_seqs]
            assert len(kept) < len(log)
            assert renumbered(replay(header, kept).state.as_dict(), kept_seqs) == result.state.as_dict()
