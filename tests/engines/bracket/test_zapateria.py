"""A zapatero put out of the championship at once (seed 003, ``a_todo_rigor``:
"Losing as zapatero immediately disqualifies the team"; third rulings,
"zapatería a todo rigor"): even in double elimination, where Art. 12 would
give it a second life, it does not drop into the losers' bracket."""

import random

import pytest

from engines.bracket import GRAND_FINAL, LOSERS, RESET, THIRD_PLACE, WINNERS, BracketError, Key, advance, draw

W11, W12, W21 = Key(WINNERS, 1, 1), Key(WINNERS, 1, 2), Key(WINNERS, 2, 1)
L11, L21 = Key(LOSERS, 1, 1), Key(LOSERS, 2, 1)
GF, GR = Key(GRAND_FINAL, 1, 1), Key(RESET, 1, 1)


def test_a_disqualified_zapatero_does_not_drop_into_the_losers_bracket_seed_003_art_12():
    specs = draw("abcd").specs
    assert {s.key: (s.a, s.b) for s in specs}[W11] == ("a", "d")
    progress = advance(specs, {W11: "A", W12: "A"}, disqualified={W11})
    assert "d" in progress.eliminated and progress.defeats["d"] == 1
    assert "c" not in progress.eliminated
    # The losers' first mesa has nobody for d's slot: c goes on without playing, and no one loses it.
    assert L11 in progress.void and L11 not in progress.ready
    assert progress.occupants[L21] == (None, "c") and progress.defeats["c"] == 1
    assert progress.ready == (W21,)
    assert all("d" not in progress.occupants[k] for k in (L11, L21, GF, GR))


def test_without_disqualification_the_loser_drops_as_art_12_says():
    progress = advance(draw("abcd").specs, {W11: "A", W12: "A"})
    assert progress.occupants[L11] == ("d", "c") and progress.ready == (W21, L11)
    assert not progress.eliminated


def test_a_mesa_left_for_nobody_takes_no_result_seed_003():
    specs = draw("abcd").specs
    with pytest.raises(BracketError, match="zapatería"):
        advance(specs, {W11: "A", W12: "A", L11: "A"}, disqualified={W11})


def test_the_winners_final_zapatero_is_out_and_the_losers_champion_meets_the_winner_seed_003():
    specs = draw("abcd").specs
    results = {W11: "A", W12: "A", L11: "A", W21: "A"}
    progress = advance(specs, results, disqualified={W21})
    # b lost the winners' final as zapatero: out; d, the losers' bracket's only survivor, reaches the grand final.
    assert "b" in progress.eliminated and L21 in progress.void
    assert progress.occupants[GF] == ("a", "d")
    progress = advance(specs, {**results, GF: "A"}, disqualified={W21})
    assert progress.champion == "a" and GR in progress.void


def test_a_grand_final_lost_as_zapatero_by_the_winners_champion_ends_it_without_a_reset_seed_003():
    specs = draw("abcd").specs
    results = {W11: "A", W12: "A", L11: "A", W21: "A", L21: "A", GF: "B"}
    assert advance(specs, results).ready == (GR,)
    progress = advance(specs, results, disqualified={GF})
    assert progress.champion == "b" and "a" in progress.eliminated
    assert GR in progress.void and progress.ready == ()


def test_single_elimination_third_place_goes_to_the_semi_loser_who_was_not_disqualified_seed_003():
    specs = draw("abcd", "single", third_place=True).specs
    third = Key(THIRD_PLACE, 1, 1)
    progress = advance(specs, {W11: "A", W12: "A"}, disqualified={W11})
    assert third in progress.void and third not in progress.ready
    assert {"d", "c"} <= progress.eliminated  # c has third place, with nothing left to play


@pytest.mark.parametrize("count", [3, 5, 8, 11, 16])
def test_every_bracket_still_ends_with_a_champion_whoever_is_disqualified_seed_003(count):
    """Zapatería disqualifications at random: nobody is stuck, the disqualified never play again."""
    for seed in range(20):
        rng = random.Random(seed)
        specs = draw(range(1, count + 1)).specs
        results, disqualified, out_at_once = {}, set(), set()
        progress = advance(specs, results)
        while progress.ready:
            for key in progress.ready:
                a, b = progress.occupants[key]
                assert a not in out_at_once and b not in out_at_once, (seed, key)
                results[key] = rng.choice("AB")
                if rng.random() < 0.3:
                    disqualified.add(key)
                    out_at_once.add(b if results[key] == "A" else a)
            progress = advance(specs, results, disqualified=frozenset(disqualified))
        assert progress.champion is not None, seed
        assert out_at_once <= progress.eliminated
        assert all(n <= 2 for n in progress.defeats.values())
        assert progress.champion not in out_at_once
