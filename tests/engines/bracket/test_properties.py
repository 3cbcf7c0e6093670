"""Properties of every format for every size from 2 to 128 pairs, played
to the end with random results (a plain loop: a few seeds per size)."""

from collections import Counter
from itertools import combinations

import pytest

from engines.bracket import (
    DOUBLE,
    GRAND_FINAL,
    GROUP,
    LOSERS,
    RESET,
    ROUND_ROBIN,
    SINGLE,
    THIRD_PLACE,
    WINNERS,
    Key,
    advance,
    dependents,
    draw,
    playing_order,
)
from engines.bracket.seeding import bracket_size

from .playing import play_out

SIZES = range(2, 129)
PLAYS = (11, 29)

# The first losers' round in which two pairs can meet again, by bracket
# size: the drop order of elimination.drop_order keeps every earlier round
# free of rematches (checked exhaustively by test_no_rematch_possible_before).
FIRST_REMATCH_ROUND = {4: 2, 8: 3, 16: 4, 32: 5, 64: 7, 128: 8}


def _losers_final_round(n):
    return 2 * (bracket_size(n).bit_length() - 2)


@pytest.mark.parametrize("n", SIZES)
def test_double_elimination(n):
    specs = draw(range(n), DOUBLE).specs
    assert len(specs) == 2 * n - 1  # 2n - 2 mesas plus the reset, byes or not
    initial = Counter(e for s in specs for e in (s.a, s.b) if e is not None)
    assert initial == Counter(range(n))  # every pair placed once, byes resolved
    for rng_seed in PLAYS:
        results, progress, meetings = play_out(specs, 1000 * n + rng_seed)
        assert progress.champion is not None
        assert progress.eliminated == set(range(n)) - {progress.champion}
        assert progress.defeats.get(progress.champion, 0) <= 1
        # Out at the second defeat, never at the first (Art. 12).
        assert all(progress.defeats[e] == 2 for e in progress.eliminated)
        # Every mesa is played, except the reset when the winners' champion won the final.
        assert set(results) | progress.void == {s.key for s in specs}
        assert len(results) == 2 * n - 2 + progress.reset_needed
        assert all(a != b for _, a, b in meetings)
        _assert_no_early_rematch(n, meetings)


def _assert_no_early_rematch(n, meetings):
    earliest = FIRST_REMATCH_ROUND.get(bracket_size(n), _losers_final_round(n))
    seen = set()
    for key, a, b in meetings:
        pair = frozenset((a, b))
        if pair in seen:
            assert key.bracket in (GRAND_FINAL, RESET) or (key.bracket == LOSERS and key.round >= earliest), key
        seen.add(pair)


@pytest.mark.parametrize("size", sorted(FIRST_REMATCH_ROUND))
def test_no_rematch_possible_before(size):
    """Follow every entrant's possible past opponents through the full
    bracket, over every path at once: no losers' mesa before
    FIRST_REMATCH_ROUND can bring together two pairs that may have met. (The
    check over-approximates, so it flagging that round is what pins the
    table, not proof that a rematch happens there.)"""
    specs = playing_order(draw(range(size)).specs)
    met = {(s.key, slot): {} for s in specs for slot in "AB"}  # slot -> entrant -> possible past opponents
    for s in specs:
        for slot in "AB":
            if s.occupant(slot) is not None:
                met[s.key, slot][s.occupant(slot)] = frozenset()
    first = None
    for s in specs:
        side_a, side_b = met[s.key, "A"], met[s.key, "B"]
        if s.key.bracket == LOSERS and first is None:
            if any(opponents & side_b.keys() for opponents in side_a.values()):
                first = s.key.round
        for side, others in ((side_a, side_b.keys()), (side_b, side_a.keys())):
            for entrant, opponents in side.items():
                for route in (s.winner_to, s.loser_to):
                    if route is not None:
                        target = met[route.key, route.slot]
                        target[entrant] = target.get(entrant, frozenset()) | opponents | others
    assert first == FIRST_REMATCH_ROUND[size]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("third_place", [False, True])
def test_single_elimination(n, third_place):
    specs = draw(range(n), SINGLE, third_place=third_place).specs
    has_third = third_place and n >= 4
    assert len(specs) == n - 1 + has_third
    semi_finals = {Key(WINNERS, _rounds(n) - 1, 1), Key(WINNERS, _rounds(n) - 1, 2)}
    assert {s.key for s in specs if s.loser_to is not None} == (semi_finals if has_third else set())
    for rng_seed in PLAYS:
        results, progress, meetings = play_out(specs, 1000 * n + rng_seed)
        assert set(results) == {s.key for s in specs}
        assert progress.defeats.get(progress.champion, 0) == 0
        assert progress.eliminated == set(range(n)) - {progress.champion}
        defeats = Counter(progress.defeats[e] for e in progress.eliminated)
        if has_third:
            third_loser = next((b, a)[results[key] == "B"] for key, a, b in meetings if key.bracket == THIRD_PLACE)
            assert progress.defeats[third_loser] == 2
            assert defeats == {1: n - 2, 2: 1}
        else:
            assert defeats == {1: n - 1}  # out at the first defeat
        assert all(a != b for _, a, b in meetings)
        assert len({frozenset((a, b)) for _, a, b in meetings}) == len(meetings)


def _rounds(n):
    return bracket_size(n).bit_length() - 1


@pytest.mark.parametrize("n", SIZES)
def test_round_robin(n):
    result = draw(range(n), ROUND_ROBIN, group_size=4)
    sizes = [len(members) for members in result.groups.values()]
    assert sum(sizes) == n and max(sizes) - min(sizes) <= 1 and min(sizes) >= 2
    specs = result.specs
    assert len({s.key for s in specs}) == len(specs)  # positions unique through a round
    assert all(s.key.bracket == GROUP and s.winner_to is None and s.loser_to is None for s in specs)
    for number, members in result.groups.items():
        played = Counter(frozenset((s.a, s.b)) for s in specs if s.group == number)
        assert played == Counter(frozenset(pair) for pair in combinations(members, 2))
    for round_number in {s.key.round for s in specs}:
        playing = [e for s in specs if s.key.round == round_number for e in (s.a, s.b)]
        assert len(playing) == len(set(playing))  # nobody plays twice in a round
    results, progress, meetings = play_out(specs, n)
    assert progress.champion is None and not progress.eliminated
    assert sum(progress.defeats.values()) == len(specs)


@pytest.mark.parametrize("n", range(2, 65))
@pytest.mark.parametrize("format", [DOUBLE, SINGLE])
def test_a_correction_changes_only_its_dependents(n, format):
    specs = draw(range(n), format, third_place=True).specs
    results, _, _ = play_out(specs, n)
    for spec in specs[:: max(1, len(specs) // 7)]:
        key = spec.key
        if key not in results:
            continue
        affected = set(dependents(specs, key))
        kept = {k: slot for k, slot in results.items() if k not in affected}
        before = advance(specs, kept)
        after = advance(specs, {**kept, key: "A" if results[key] == "B" else "B"})
        changed = {k for k in before.occupants if before.occupants[k] != after.occupants[k]}
        assert changed <= affected
        if spec.winner_to is not None:
            assert spec.winner_to.key in affected
