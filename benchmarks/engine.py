"""Benchmarks of the rules engine, on one core (CPU time of this process).

    .venv/bin/python benchmarks/engine.py [--smoke]

``--smoke``: every measure on a hundredth of its inputs, once, for the test suite (``tests/benchmarks/``).

Prints:
- claims replayed per second through ``engines.rules.replay`` (target >= 200,000),
  over whole simulated mesas of every profile, 4 and 2 players;
- the time to replay one whole mesa of 400 claims (target < 2 ms): the longest simulated
  mesa of 200 simulated (pichincha, 2 players, three chicas to win), padded to 400 claims
  with suspender/reanudar pairs, which the engine decides without changing the score;
- levante positions judged per second (``engines.rules.levante.judge``) and captures
  listed per second (``captures``), on random positions;
- simulated datas per second (``tests.support.simulator.simulate_data``, target >= 2,000);
- the preview's cost (``engines.rules.preview.preview``, what each claim would do next,
  sent with every state): its mean time per state over every prefix of simulated mesas, and
  as a ratio to the replay of the same prefix, which the claim endpoint already pays (keep
  it well under 1: the claim endpoint's target is 1.5 times a bare write).
"""

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.rules import Header, replay  # noqa: E402
from engines.rules.cards import RANKS  # noqa: E402
from engines.rules.levante import captures, judge  # noqa: E402
from engines.rules.preview import preview  # noqa: E402
from engines.rules.rules import PROFILES, build_ruleset  # noqa: E402
from tests.support.simulator import SEATS, simulate_data, simulate_mesa  # noqa: E402

# The share of each measure's inputs used, and whether each is repeated (``--smoke``: a hundredth, once).
SHARE = {"inputs": 1.0, "repeat": True}


def size(full):
    """``full`` inputs, or their share (at least one)."""
    return max(1, int(full * SHARE["inputs"]))


def best_of(repeat, function):
    """The fastest of ``repeat`` runs of ``function()``, in seconds of this process's CPU.

    CPU time rather than wall time: on a shared machine the wall clock also
    counts the time other processes hold the core.
    """
    times = []
    for _ in range(repeat if SHARE["repeat"] else 1):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


def replay_throughput():
    logs = []
    for profile in PROFILES:
        ruleset = build_ruleset(profile)
        for players in (4, 2):
            for seed in range(size(50)):
                first = SEATS[players][seed % players]
                mesa = simulate_mesa(random.Random(seed), ruleset, players, first, forget=0.1)
                logs.append((Header(ruleset=ruleset, players=players, first_dealer=first), mesa.claims))
    claims = sum(len(c) for _, c in logs)

    def run():
        for header, log in logs:
            replay(header, log)

    seconds = best_of(3, run)
    print(f"replay: {claims / seconds:,.0f} claims/s ({len(logs)} mesas, {claims} claims in {seconds * 1000:.1f} ms)")


def mesa_of_400_claims():
    ruleset = build_ruleset("pichincha", {"chicas_to_win": 3})
    mesa = max(
        (simulate_mesa(random.Random(seed), ruleset, 2, "A1") for seed in range(size(200))), key=lambda m: len(m.claims)
    )
    played = len(mesa.claims)
    pauses = (400 - played) // 2
    claims = []
    for n, claim in enumerate(mesa.claims):
        if n * pauses // played != (n + 1) * pauses // played:  # spread the pauses evenly
            claims += [{"kind": "suspender"}, {"kind": "reanudar"}]
        claims.append(claim)
    header = Header(ruleset=ruleset, players=2, first_dealer="A1")
    result = replay(header, claims)
    refused = [(d.seq, d.kind, d.code) for d in result.decisions if not d.accepted]
    assert not refused, refused[:3]
    seconds = best_of(50, lambda: replay(header, claims))
    print(f"replay of one mesa of {len(claims)} claims ({played} from play): {seconds * 1000:.3f} ms")


def random_position(rng):
    table = []
    counts = Counter()
    for _ in range(rng.randrange(0, 10)):
        rank = rng.choice(RANKS)
        if counts[rank] < 3:
            counts[rank] += 1
            table.append(rank)
    played = rng.choice([r for r in RANKS if counts[r] < 4])
    found = captures(table, played)
    if found and rng.random() < 0.7:
        taken = list(rng.choice(found).cards)
        taken = taken[: rng.randrange(1, len(taken) + 1)]
    else:
        taken = rng.sample(table, rng.randrange(0, len(table) + 1))
    return table, played, taken


def levante_throughput():
    rng = random.Random(1)
    ruleset = build_ruleset("riobamba")
    positions = [random_position(rng) for _ in range(size(20_000))]

    def judge_all():
        for table, played, taken in positions:
            judge(table, played, None, taken, ruleset)

    def list_all():
        for table, played, _ in positions:
            captures(table, played)

    seconds = best_of(3, judge_all)
    print(f"levante: {len(positions) / seconds:,.0f} positions judged/s")
    seconds = best_of(3, list_all)
    print(f"levante: {len(positions) / seconds:,.0f} positions' captures listed/s")


def simulator_throughput():
    ruleset = build_ruleset("riobamba")
    for players in (4, 2):
        rng = random.Random(2)
        count = size(4000)

        def run():
            for i in range(count):
                simulate_data(rng, ruleset, players, SEATS[players][i % players], {"A": 0, "B": 0}, forget=0.1)

        seconds = best_of(3, run)
        print(f"simulator: {count / seconds:,.0f} datas/s ({players} players)")


def preview_cost():
    states = []
    for profile in PROFILES:
        ruleset = build_ruleset(profile)
        for seed in range(size(4)):
            mesa = simulate_mesa(random.Random(seed), ruleset, 4, "A1")
            header = Header(ruleset=ruleset, players=4, first_dealer="A1")
            states += [(header, mesa.claims[:cut]) for cut in range(0, len(mesa.claims), 3)]
    replays = [replay(header, log) for header, log in states]

    def previews():
        for result in replays:
            preview(result)

    def replays_again():
        for header, log in states:
            replay(header, log)

    seconds = best_of(3, previews)
    replaying = best_of(3, replays_again)
    print(
        f"preview: {seconds / len(states) * 1e6:,.0f} µs per state ({len(states)} states of "
        f"{len(PROFILES) * 4} mesas); {seconds / replaying:.2f} times the replay of the same logs"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a hundredth of the inputs, once, for the test suite")
    if parser.parse_args().smoke:
        SHARE.update(inputs=0.01, repeat=False)
    replay_throughput()
    mesa_of_400_claims()
    levante_throughput()
    simulator_throughput()
    preview_cost()
