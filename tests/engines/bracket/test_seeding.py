"""Seeding, byes and the random draw."""

import pytest

from engines.bracket import DOUBLE, SINGLE, WINNERS, BracketError, Key, advance, draw
from engines.bracket.seeding import bracket_size, placement, seed_order


def test_placement_is_the_standard_order():
    assert placement(2) == [1, 2]
    assert placement(4) == [1, 4, 2, 3]
    assert placement(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128, 1024])
def test_placement_pairs_seed_s_with_size_plus_one_minus_s(size):
    order = placement(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))


@pytest.mark.parametrize("n", range(2, 129))
def test_top_seeds_meet_last_when_they_win(n):
    """The lower seed number always wins: the final is 1-2, the semi-finals
    1-4 and 2-3."""
    specs = draw(range(1, n + 1), SINGLE).specs
    results = {}
    progress = advance(specs, results)
    while progress.ready:
        for key in progress.ready:
            a, b = progress.occupants[key]
            results[key] = "A" if a < b else "B"
        progress = advance(specs, results)
    rounds = bracket_size(n).bit_length() - 1
    assert set(progress.occupants[Key(WINNERS, rounds, 1)]) == {1, 2}
    if n >= 4:
        semis = {frozenset(progress.occupants[Key(WINNERS, rounds - 1, p)]) for p in (1, 2)}
        assert semis == {frozenset({1, 4}), frozenset({2, 3})}


@pytest.mark.parametrize("n", range(2, 129))
def test_byes_go_to_the_top_seeds_balanced_across_halves(n):
    size = bracket_size(n)
    specs = draw(range(1, n + 1), DOUBLE).specs
    first_round = {e for s in specs if s.key.bracket == WINNERS and s.key.round == 1 for e in (s.a, s.b)}
    with_bye = set(range(1, n + 1)) - first_round
    assert with_bye == set(range(1, size - n + 1))
    # Which half of the bracket each bye sits in: its place in the placement.
    halves = [placement(size).index(seed) < size // 2 for seed in with_bye]
    assert abs(halves.count(True) - halves.count(False)) <= 1


def test_seeded_entrants_come_first_in_seed_order():
    assert seed_order(["x", "y", "z", "w"], {"z": 1, "w": 7}) == ["z", "w", "x", "y"]


def test_bad_seeds_are_refused():
    with pytest.raises(BracketError, match="misma cabeza de serie"):
        seed_order("ab", {"a": 1, "b": 1})
    with pytest.raises(BracketError, match="positivos"):
        seed_order("ab", {"a": 0})
    with pytest.raises(BracketError, match="no están en el sorteo"):
        seed_order("ab", {"c": 1})
    with pytest.raises(BracketError, match="dos veces"):
        seed_order("aba")
    with pytest.raises(BracketError, match="al menos dos"):
        draw(["a"])
    with pytest.raises(BracketError, match="al menos dos"):
        draw(["a"], "round_robin")
    with pytest.raises(BracketError, match="al menos dos parejas"):
        draw("abcd", "round_robin", group_size=1)
    with pytest.raises(BracketError, match="Formato de llave desconocido"):
        draw("ab", "swiss")


def test_random_draw_is_reproducible_from_its_recorded_seed():
    entrants = [f"p{i}" for i in range(20)]
    first = draw(entrants, random_draw=True, seeds={"p7": 1, "p3": 2})
    assert isinstance(first.random_seed, int)
    again = draw(entrants, random_seed=first.random_seed, seeds={"p7": 1, "p3": 2})
    assert again.order == first.order and again.specs == first.specs
    assert first.order[:2] == ("p7", "p3")  # the seeded stay on top
    other = draw(entrants, random_seed=first.random_seed + 1, seeds={"p7": 1, "p3": 2})
    assert other.order != first.order


def test_draw_without_random_keeps_the_given_order_and_records_no_seed():
    result = draw(["c", "a", "b"])
    assert result.order == ("c", "a", "b") and result.random_seed is None
