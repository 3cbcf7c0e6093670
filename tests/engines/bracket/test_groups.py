"""Round-robin groups, standings and the knockout that follows them."""

import pytest

from engines.bracket import (
    GROUP,
    ROUND_ROBIN,
    WINNERS,
    BracketError,
    GroupResult,
    Key,
    draw,
    knockout_after_groups,
    standings,
)
from engines.bracket.groups import circle_rounds


def test_groups_are_filled_in_a_snake():
    result = draw(range(1, 11), ROUND_ROBIN, group_size=4)
    assert result.groups == {1: (1, 6, 7), 2: (2, 5, 8), 3: (3, 4, 9, 10)}


def test_circle_method_with_an_odd_group_rests_one_per_round():
    rounds = circle_rounds("abcde")
    assert len(rounds) == 5 and all(len(r) == 2 for r in rounds)
    resting = [set("abcde") - {e for pair in r for e in pair} for r in rounds]
    assert sorted(e for rest in resting for e in rest) == list("abcde")


def test_group_mesas_keep_positions_unique_through_a_round():
    specs = draw(range(8), ROUND_ROBIN, group_size=4).specs
    first_round = [s for s in specs if s.key.round == 1]
    assert [(s.key, s.group) for s in first_round] == [
        (Key(GROUP, 1, 1), 1),
        (Key(GROUP, 1, 2), 1),
        (Key(GROUP, 1, 3), 2),
        (Key(GROUP, 1, 4), 2),
    ]


def _row(table, entrant):
    return next(row for row in table if row.entrant == entrant)


def test_standings_rank_by_mesas_won_first():
    table = standings(
        [
            GroupResult("a", "b", "A", 2, 1, 80, 70),
            GroupResult("b", "c", "A", 2, 0, 80, 10),
            GroupResult("c", "a", "A", 2, 0, 80, 10),
        ]
        + [GroupResult("a", "d", "A", 2, 0, 80, 0), GroupResult("d", "b", "B", 0, 2, 0, 80)]
    )
    # a and b won two; b has the better chicas difference (+3 against +1).
    assert [row.entrant for row in table] == ["b", "a", "c", "d"]
    assert [row.won for row in table] == [2, 2, 1, 0]
    assert _row(table, "d").rank == 4 and _row(table, "d").lost == 2


def test_standings_tie_breakers_in_order():
    # a, b, c each won one mesa of the three.
    results = [
        GroupResult("a", "b", "A", 2, 1, 85, 60),  # a +1 chica, +25
        GroupResult("b", "c", "A", 2, 0, 80, 30),  # b +2 chicas, +50
        GroupResult("c", "a", "A", 2, 0, 80, 20),  # c +2 chicas, +60
    ]
    table = standings(results)
    # Chicas difference: a 2-3, b 3-2, c 2-2.
    assert [row.entrant for row in table] == ["b", "c", "a"]
    assert [row.chicas_difference for row in table] == [1, 0, -1]
    assert [row.rank for row in table] == [1, 2, 3]


def test_points_difference_breaks_a_chicas_tie():
    results = [
        GroupResult("a", "c", "A", 2, 0, 80, 30),  # a +50
        GroupResult("b", "d", "A", 2, 0, 80, 10),  # b +70
    ]
    table = standings(results, ["a", "b", "c", "d"])
    assert [row.entrant for row in table] == ["b", "a", "c", "d"]
    assert table[0].points_difference == 70


def test_head_to_head_breaks_what_the_rest_cannot():
    results = [
        GroupResult("a", "b", "A", 2, 1, 80, 70),
        GroupResult("b", "c", "A", 2, 1, 80, 70),
        GroupResult("c", "a", "A", 2, 1, 80, 70),
        GroupResult("a", "d", "A", 2, 1, 80, 70),
        GroupResult("b", "d", "A", 2, 1, 80, 70),
        GroupResult("d", "c", "A", 2, 1, 80, 70),
    ]
    # a and b: 2 won, chicas +1, points +10; c and d: 1 won, -1, -10.
    # a beat b and d beat c, whatever the seed order says.
    table = standings(results, ["c", "d", "b", "a"])
    assert [row.entrant for row in table] == ["a", "b", "d", "c"]
    assert [row.rank for row in table] == [1, 2, 3, 4]
    assert (table[0].won, table[0].chicas_difference, table[0].points_difference) == (
        table[1].won,
        table[1].chicas_difference,
        table[1].points_difference,
    )


def test_a_circular_tie_is_shared_in_seed_order():
    results = [
        GroupResult("a", "b", "B", 1, 2, 70, 80),
        GroupResult("a", "c", "A", 2, 1, 80, 70),
        GroupResult("b", "c", "B", 1, 2, 70, 80),
    ]
    # One win each, chicas 3-3, points 150-150, one head-to-head win each.
    table = standings(results, ["a", "b", "c"])
    assert [row.rank for row in table] == [1, 1, 1]
    assert [row.entrant for row in table] == ["a", "b", "c"]


def test_head_to_head_between_two():
    results = [
        GroupResult("a", "b", "B", 0, 2, 0, 80),  # b beats a
        GroupResult("a", "c", "A", 2, 0, 80, 0),
        GroupResult("b", "d", "B", 0, 2, 0, 80),  # d beats b
        GroupResult("c", "d", "A", 2, 0, 80, 0),
    ]
    # a: won 1 (+2-2=0 chicas, 0 points); b: won 1 (2-2, 80-80); same for c and d.
    table = standings(results, ["a", "b", "c", "d"])
    assert all(row.won == 1 and row.chicas_difference == 0 and row.points_difference == 0 for row in table)
    assert [row.rank for row in table] == [1, 1, 1, 1]


def test_standings_refuse_bad_results():
    with pytest.raises(BracketError, match="lado A o B"):
        standings([GroupResult("a", "b", "X")])
    with pytest.raises(BracketError, match="sí misma"):
        standings([GroupResult("a", "a", "A")])


def test_knockout_after_groups_seeds_winners_then_runners_up():
    ranked = {1: ["a1", "a2", "a3"], 2: ["b1", "b2", "b3"], 3: ["c1", "c2"], 4: ["d1", "d2", "d3"]}
    result = knockout_after_groups(ranked, 2, third_place=True)
    assert result.order == ("a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2")
    first = [(s.a, s.b) for s in result.specs if s.key.bracket == WINNERS and s.key.round == 1]
    assert first == [("a1", "d2"), ("d1", "a2"), ("b1", "c2"), ("c1", "b2")]
    assert len(result.specs) == 8 - 1 + 1
    with pytest.raises(BracketError, match="menos de 3"):
        knockout_after_groups(ranked, 3)
    with pytest.raises(BracketError, match="dos grupos"):
        knockout_after_groups({1: ["a", "b"], 2: ["b", "c"]}, 2)
    with pytest.raises(BracketError, match="al menos dos"):
        knockout_after_groups({1: ["a", "b"]}, 1)


@pytest.mark.parametrize("groups", range(2, 17))
@pytest.mark.parametrize("advance", [2, 3])
def test_knockout_keeps_a_group_apart_in_its_first_round(groups, advance):
    ranked = {g: [f"{g}-{place}" for place in range(1, 5)] for g in range(1, groups + 1)}
    result = knockout_after_groups(ranked, advance)
    assert result.order[:groups] == tuple(f"{g}-1" for g in range(1, groups + 1))  # winners first, with the byes
    for spec in result.specs:
        if spec.a is not None and spec.b is not None:
            assert spec.a.split("-")[0] != spec.b.split("-")[0], spec


def test_knockout_of_three_groups_turns_the_runners_up():
    ranked = {1: ["a1", "a2"], 2: ["b1", "b2"], 3: ["c1", "c2"]}
    # Plain order would put c2 (seed 6) against c1 (seed 3).
    assert knockout_after_groups(ranked, 2).order == ("a1", "b1", "c1", "b2", "c2", "a2")
