"""How long the bracket engine takes to draw (and to advance) a big bracket.

Run: ``.venv/bin/python benchmarks/bracket.py [pairs]`` (default 1,024).
The target is under one second to draw 1,024 pairs in every format.
``--smoke``: 16 pairs, one run each, for the test suite (``tests/benchmarks/``).
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.bracket import DOUBLE, ROUND_ROBIN, SINGLE, advance, draw, knockout_after_groups  # noqa: E402


def best_of(runs, function):
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        value = function()
        timings.append(time.perf_counter() - start)
    return min(timings), value


def main(pairs, runs=5):
    entrants = list(range(1, pairs + 1))
    cases = [
        ("double elimination", dict(format=DOUBLE)),
        ("double elimination, random draw", dict(format=DOUBLE, random_seed=2026)),
        ("single elimination + 3rd place", dict(format=SINGLE, third_place=True)),
        ("round-robin, groups of 4", dict(format=ROUND_ROBIN, group_size=4)),
    ]
    print(f"Drawing {pairs} pairs (best of {runs} runs)")
    for label, options in cases:
        seconds, result = best_of(runs, lambda: draw(entrants, **options))
        print(f"  {label:38} {len(result.specs):6} mesas  {seconds * 1000:8.1f} ms")
    groups = draw(entrants, format=ROUND_ROBIN, group_size=4).groups
    for advance_per_group in (1, 2, 3):
        seconds, result = best_of(runs, lambda: knockout_after_groups(groups, advance_per_group))
        label = f"knockout of the best {advance_per_group} of {len(groups)} groups"
        print(f"  {label:38} {len(result.specs):6} mesas  {seconds * 1000:8.1f} ms")
    for n in (pairs, pairs - pairs // 3):
        specs = draw(list(range(n))).specs
        rng = random.Random(1)
        results = {spec.key: rng.choice("AB") for spec in specs if not spec.conditional}
        seconds, progress = best_of(runs, lambda: advance(specs, results))
        print(f"  advance, {n} pairs, all results      {len(results):6} results  {seconds * 1000:8.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", type=int, nargs="?", default=1024)
    parser.add_argument("--smoke", action="store_true", help="16 pairs, one run each, for the test suite")
    args = parser.parse_args()
    main(16, runs=1) if args.smoke else main(args.pairs)
