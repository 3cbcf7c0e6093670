"""Play a draw to the end with random results: a helper for the tests."""

import random

from engines.bracket import advance


def play_out(specs, rng_seed, results=None):
    """Give every ready mesa a random winner until nothing is ready.
    Returns (results, progress, meetings): meetings are (key, a, b) in the
    order played."""
    rng = random.Random(rng_seed)
    results = dict(results or {})
    meetings = []
    progress = advance(specs, results)
    while progress.ready:
        for key in progress.ready:
            a, b = progress.occupants[key]
            meetings.append((key, a, b))
            results[key] = rng.choice("AB")
        progress = advance(specs, results)
    return results, progress, meetings
