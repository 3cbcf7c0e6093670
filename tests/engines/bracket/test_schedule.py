"""Advancement step by step (Hypothesis): what the control desk sees while
a championship is being played."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.bracket import DOUBLE, SINGLE, advance, draw, playing_order


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=64),
    format=st.sampled_from([DOUBLE, SINGLE]),
    third_place=st.booleans(),
    rng_seed=st.integers(min_value=0, max_value=2**32),
)
def test_nobody_is_due_at_two_mesas_or_after_being_out(n, format, third_place, rng_seed):
    specs = draw(range(n), format, third_place=third_place).specs
    rng = random.Random(rng_seed)
    results = {}
    progress = advance(specs, results)
    while progress.ready:
        due = [e for key in progress.ready for e in progress.occupants[key]]
        assert len(due) == len(set(due))
        assert not set(due) & progress.eliminated
        if format == DOUBLE or not third_place:
            assert progress.champion is None  # only the third-place mesa may come after the final
        # Play some of the ready mesas, in any order: the others wait.
        played = rng.sample(progress.ready, rng.randint(1, len(progress.ready)))
        results.update({key: rng.choice("AB") for key in played})
        progress = advance(specs, results)
    assert progress.champion is not None


@settings(max_examples=30, deadline=None)
@given(n=st.integers(min_value=2, max_value=40), rng_seed=st.integers(min_value=0, max_value=2**32))
def test_specs_in_any_order_advance_the_same(n, rng_seed):
    """The tournament may load the mesas ordered by (bracket, round,
    position) or any other way; advance() sorts them into playing order."""
    specs = draw(range(n)).specs
    assert playing_order(specs) == list(specs)
    rng = random.Random(rng_seed)
    shuffled = list(specs)
    rng.shuffle(shuffled)
    results = {}
    progress = advance(specs, results)
    while progress.ready:
        results[progress.ready[0]] = rng.choice("AB")
        progress = advance(specs, results)
    other = advance(shuffled, results)
    assert (other.champion, other.occupants, other.eliminated, other.defeats) == (
        progress.champion,
        progress.occupants,
        progress.eliminated,
        progress.defeats,
    )
    by_model_order = sorted(specs, key=lambda spec: spec.key)
    assert advance(by_model_order, results).champion == progress.champion
