"""The bracket adapter (``tournament.draws.advancement``): the rows say what the bracket engine says.

Production advances pairs only through the engine (``engines.bracket.advance``),
so the engine's property tests (``tests/engines/bracket``) cover what runs; these tests
check the bridge: the specs it rebuilds from the rows are the draw's own, the
occupants, the void reset and the champion it writes back are the engine's at
every step, and corrections reach the engine's dependents (Art. 12, Art. 18).
"""

import random

import pytest

from engines import bracket
from tests.support.factories import championship, organiser, pairs, play, playable
from tournament.draws import advancement, draws
from tournament.models import Championship, Mesa
from tournament.results import results

pytestmark = pytest.mark.django_db


def key(mesa):
    return bracket.Key(mesa.bracket, mesa.round, mesa.position)


def drawn(count, seed, **fields):
    champ = championship(**fields)
    entrants = pairs(champ, count)
    draws.draw_bracket(champ, seed=seed, by=None)
    ids = [p.pk for p in sorted(entrants, key=lambda p: (p.seed is None, p.seed or 0, p.name))]
    pure = bracket.draw(
        ids,
        champ.bracket_format,
        seeds={p.pk: p.seed for p in entrants if p.seed is not None},
        random_seed=seed,
        third_place=champ.third_place,
        group_size=champ.group_size,
    )
    return champ, pure


@pytest.mark.parametrize(
    "fmt, count, seed",
    [
        (Championship.Format.DOUBLE, 7, 1),
        (Championship.Format.DOUBLE, 16, 2),
        (Championship.Format.DOUBLE, 13, 5),
        (Championship.Format.SINGLE, 11, 3),
    ],
)
@pytest.mark.slow
def test_the_rows_follow_the_engine_at_every_result_to_the_champion(fmt, count, seed):
    """Art. 12: every result's pairs go where the pure engine sends them, with the draw's own specs."""
    champ, pure = drawn(count, seed, bracket_format=fmt, third_place=fmt == Championship.Format.SINGLE)
    mesas = list(champ.mesas.all())
    assert advancement.specs(mesas) == list(pure.specs)
    rng = random.Random(seed)
    outcomes = {}
    while True:
        champ.refresh_from_db()
        expected = bracket.advance(pure.specs, outcomes)
        rows = {key(m): m for m in champ.mesas.all()}
        for k, (a, b) in expected.occupants.items():
            if k in expected.void:
                continue
            assert (rows[k].pair_a_id, rows[k].pair_b_id) == (a, b), k
        assert champ.champion_id == expected.champion
        if expected.champion is not None:
            break
        for mesa in playable(champ):
            slot = rng.choice("AB")
            play(mesa, slot)
            outcomes[key(mesa)] = slot
    void = advancement.void_ids(list(champ.mesas.all()))
    assert void == {m.pk for m in champ.mesas.all() if key(m) in expected.void}


@pytest.mark.slow
def test_a_corrected_grand_final_changes_the_champion_and_the_reset():
    """The reset is played only when the losers' bracket champion wins the grand final (Art. 12)."""
    champ, _pure = drawn(4, 1)
    org = organiser()
    while True:
        final = champ.mesas.get(bracket=Mesa.Bracket.GRAND_FINAL)
        if final.status in Mesa.DECIDED:
            break
        for mesa in playable(champ):
            play(mesa, "A")
    champ.refresh_from_db()
    assert champ.champion == final.pair_a
    reset = champ.mesas.get(bracket=Mesa.Bracket.RESET)
    assert reset.pk in advancement.void_ids(list(champ.mesas.all()))
    assert (reset.pair_a_id, reset.pair_b_id) == (None, None)

    results.correct_result(final, "B", 1, 2, by=org)
    champ.refresh_from_db()
    reset.refresh_from_db()
    assert champ.champion is None  # the reset decides now
    assert (reset.pair_a, reset.pair_b) == (final.pair_a, final.pair_b)
    assert reset.pk not in advancement.void_ids(list(champ.mesas.all()))

    results.correct_result(final, "A", 2, 0, by=org)
    champ.refresh_from_db()
    reset.refresh_from_db()
    assert champ.champion == final.pair_a
    assert (reset.pair_a_id, reset.pair_b_id) == (None, None) and reset.status == Mesa.Status.WAITING


def test_a_correction_reaches_every_dependent_in_the_engines_order():
    champ, pure = drawn(8, 4)
    mesas = list(champ.mesas.all())
    first = next(m for m in mesas if key(m) == bracket.Key("W", 1, 1))
    assert [key(m) for m in advancement.dependents(first, mesas)] == bracket.dependents(pure.specs, key(first))


@pytest.mark.parametrize(("profile", "out_at_once"), [("a_todo_rigor", True), ("riobamba", False)])
def test_a_zapatero_is_out_at_once_where_the_mesas_rules_say_so_seed_003_art_12(profile, out_at_once):
    """Third rulings, "zapatería a todo rigor": the zapatero does not drop into the losers' bracket."""
    champ, _pure = drawn(4, 1, ruleset_profile=profile)
    first, second = playable(champ)
    play(first, "A", zapateria=True)
    play(second, "A")
    first.refresh_from_db()
    zapatero = first.pair_b_id
    assert first.zapateria and first.ruleset.zapateria == ("eliminates" if out_at_once else "ends_mesa")
    losers_first = champ.mesas.get(bracket="L", round=1)
    mesas = list(champ.mesas.all())
    assert (zapatero in advancement.progress(mesas).eliminated) is out_at_once
    if not out_at_once:
        assert zapatero in (losers_first.pair_a_id, losers_first.pair_b_id)
        return
    # Its losers' mesa is never played: the other loser goes on without a defeat more.
    assert zapatero not in (losers_first.pair_a_id, losers_first.pair_b_id)
    assert losers_first.pk in advancement.void_ids(mesas)
    while champ.champion_id is None:
        mesas = playable(champ)
        assert mesas, "the bracket got stuck without a champion"
        for mesa in mesas:
            assert zapatero not in (mesa.pair_a_id, mesa.pair_b_id)
            play(mesa, "B")
        champ.refresh_from_db()
    assert champ.champion_id != zapatero
