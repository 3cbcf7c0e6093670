"""The cards and the levante checker: match, sum, escalera, caída, limpia, judge (Art. 5)."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.rules.cards import RANKS, CardError, deck, parse_rank, parse_ranks, value
from engines.rules.levante import captures, judge
from engines.rules.rules import build_ruleset

RIOBAMBA = build_ruleset("riobamba")
PICHINCHA = build_ruleset("pichincha")


def cards_of(found):
    return [list(c.cards) for c in found]


# --- cards (Art. 1a, seed 003) ---


def test_the_deck_has_four_cards_of_each_of_ten_ranks_art_1a():
    assert len(deck()) == 40
    assert Counter(deck()) == {rank: 4 for rank in RANKS}


def test_sequence_and_values_art_1a():
    # A < 2 < … < 7 < J < Q < K, and the K is not followed by the A (seed 003).
    assert "".join(RANKS) == "A234567JQK"
    assert [value(r) for r in "A234567"] == [1, 2, 3, 4, 5, 6, 7]
    assert value("J") is value("Q") is value("K") is None


def test_ranks_parse_case_insensitively_and_1_is_the_ace_art_1a():
    assert parse_ranks("a 1 q , k J 7") == ["A", "A", "Q", "K", "J", "7"]
    assert parse_rank(" q ") == "Q"


@pytest.mark.parametrize("bad", ["8", "10", "11", "X", "", "AA"])
def test_an_unknown_rank_is_a_clear_error(bad):
    with pytest.raises(CardError, match="Unknown card"):
        parse_rank(bad)


# --- captures ---


def test_seed_003_seven_takes_three_four_by_sum_then_j_q_k():
    [capture] = captures("3 4 J Q K", "7")
    assert capture.as_dict() == {"cards": ["3", "4", "J", "Q", "K"], "caida": False, "limpia": True}


def test_match_then_escalera_one_card_of_each_rank_002_art_5c():
    # 002 Art. 5C: the 3 takes the 3, then 4, 5, 6, 7, J.
    assert cards_of(captures("3 4 5 6 7 J K", "3")) == [["3", "4", "5", "6", "7", "J"]]
    # Only one card of each rank: the second 6 stays, so no limpia.
    [capture] = captures("5 6 6 7", "5")
    assert list(capture.cards) == ["5", "6", "7"] and not capture.limpia


def test_the_escalera_stops_at_a_gap_and_at_the_k_seed_003():
    assert cards_of(captures("4 5 7", "4")) == [["4", "5"]]
    assert cards_of(captures("K A 2", "K")) == [["K"]]


def test_figures_never_sum_002_art_5b():
    assert captures("5 6", "J") == []
    assert captures("J", "7") == []
    assert cards_of(captures("A 2 Q", "3")) == [["A", "2"]]


def test_a_sum_needs_two_cards_and_one_combination_per_play_002_art_5b():
    # Ruling: one combination per play; 7 may take 3+4 or 2+5, not both.
    assert cards_of(captures("3 4 2 5", "7")) == [["2", "5"], ["3", "4"]]
    assert captures("2", "4") == []


def test_match_or_sum_the_player_chooses_002_art_5():
    assert cards_of(captures("7 3 4", "7")) == [["7"], ["3", "4"]]


def test_captures_are_listed_once_per_multiset_of_ranks():
    assert cards_of(captures("2 2 2 A 3", "4")) == [["A", "3"], ["2", "2"]]


def test_caida_is_a_match_of_the_previous_card_art_6():
    found = {tuple(c.cards): c for c in captures("5 2 3", "5", previous="5")}
    assert found[("5",)].caida
    assert not found[("2", "3")].caida  # a sum of the same value is no caída
    assert not captures("5 2 3", "5", previous="2")[0].caida


def test_caida_y_limpia_art_9a():
    [capture] = captures("5", "5", previous="5")
    assert capture.caida and capture.limpia


def test_limpia_art_9b_sum_up_to_seven_then_figures():
    [capture] = captures("A 6 J Q", "7")
    assert capture.limpia and list(capture.cards) == ["A", "6", "J", "Q"]


@pytest.mark.parametrize(
    "table, played, previous, fragment",
    [
        ("3 4 J", "8", None, "Unknown card '8'"),
        ("3 3 3 3", "3", None, "There are 5 cards 3"),
        ("3 4", "7", "7", "The previous card 7 is not on the table"),
    ],
)
def test_bad_positions_are_refused(table, played, previous, fragment):
    with pytest.raises(CardError, match=fragment):
        captures(table, played, previous)


# --- judge (Art. 5 "juego y veo") ---


def test_judge_a_legal_capture_art_5():
    verdict = judge("3 4 J Q K", "7", None, "K J 4 3 Q", RIOBAMBA)
    assert verdict.verdict == "legal" and verdict.capture.limpia


def test_judge_incomplete_escalera_is_set_aside_art_16():
    verdict = judge("3 4 J Q K", "7", None, "3 4 J", RIOBAMBA)
    assert verdict.verdict == "incomplete"
    assert verdict.left_behind == ("Q", "K") and verdict.arranche == "set_aside"
    assert verdict.article == "Art. 16"
    assert list(verdict.capture.cards) == ["3", "4", "J"] and not verdict.capture.limpia


def test_judge_incomplete_escalera_goes_to_the_opponents_002_art_13():
    verdict = judge("5 6 7 5", "5", "5", "5", PICHINCHA)
    assert verdict.verdict == "incomplete" and verdict.left_behind == ("6", "7")
    assert verdict.arranche == "opponents" and verdict.article == "002 Art. 13"
    assert verdict.capture.caida  # the caída stands: the base is the match (Art. 6)


@pytest.mark.parametrize(
    "table, played, taken, code",
    [
        ("3 4 J", "7", "3 4 5", "not_on_table"),
        ("3 4 J", "7", "3 5", "not_on_table"),
        ("5 2 J", "J", "5 2", "figure_sum"),
        ("3 J Q", "6", "3 J", "sum_with_figure"),
        ("2 4 5", "7", "2 4", "sum_mismatch"),
        ("3", "7", "3", "no_match"),
        ("3 4 2 5", "7", "2 3 4 5", "two_combinations"),
        ("5 2 3", "5", "5 2 3", "two_combinations"),
        ("5 2", "5", "5 2", "extra_cards"),
        ("3 4 J Q K", "7", "3 4 Q K", "escalera_gap"),
        ("3 4 J J", "7", "3 4 J J", "escalera_repeat"),
        ("J Q K", "7", "J Q K", "escalera_without_base"),
    ],
)
def test_judge_illegal_levantes_say_why_art_5(table, played, taken, code):
    verdict = judge(table, played, None, taken, RIOBAMBA)
    assert (verdict.verdict, verdict.code) == ("illegal", code)
    assert verdict.message and verdict.message_en and verdict.article


def test_taking_nothing_is_legal_even_when_a_capture_exists_ruling():
    # Ruling: capturing is not obliged; the card stays on the table.
    assert judge("5", "5", None, "", RIOBAMBA).code == "declined"
    assert judge("5", "6", None, "", RIOBAMBA).code == "nothing_to_take"
    assert judge("5", "5", None, "", RIOBAMBA).verdict == "legal"


positions = (
    st.lists(st.sampled_from(RANKS), max_size=12)
    .flatmap(
        lambda table: st.tuples(
            st.just(table),
            st.sampled_from(RANKS),
            st.lists(st.integers(0, 11), max_size=8, unique=True),
        )
    )
    .filter(lambda p: all(n <= 4 for n in Counter(p[0] + [p[1]]).values()))
)


@settings(max_examples=300, deadline=None)
@given(positions, st.integers(0, 11))
def test_judge_agrees_with_the_list_of_captures_art_5(position, last):
    table, played, picks = position
    previous = table[last] if last < len(table) else None
    for capture in captures(table, played, previous):  # Art. 6: a caída is a match of it
        assert capture.caida == (capture.match and played == previous)
        assert capture.limpia == (len(capture.cards) == len(table))  # Art. 9
    legal = {tuple(sorted(c.cards)): c for c in captures(table, played)}
    for capture in legal.values():
        assert judge(table, played, None, capture.cards, RIOBAMBA).verdict == "legal"
    taken = [table[i] for i in picks if i < len(table)]
    verdict = judge(table, played, None, taken, RIOBAMBA)
    if not taken:
        assert verdict.verdict == "legal"
    elif tuple(sorted(taken)) in legal:
        assert verdict.verdict == "legal"
    elif verdict.verdict == "incomplete":
        full = legal[tuple(sorted(list(verdict.capture.cards) + list(verdict.left_behind)))]
        assert list(full.cards) == list(verdict.capture.cards) + list(verdict.left_behind)
        assert full.escalera[: len(verdict.capture.escalera)] == verdict.capture.escalera
    else:
        assert verdict.verdict == "illegal" and verdict.code


# --- manage.py levante ---


def test_command_prints_the_captures_as_json(capsys):
    call_command("levante", table="3 4 J Q K", played="7")
    assert json.loads(capsys.readouterr().out) == {
        "captures": [{"cards": ["3", "4", "J", "Q", "K"], "caida": False, "limpia": True}]
    }


def test_command_judges_with_taken(capsys):
    call_command("levante", table="3 4 J Q K", played="7", taken="3 4 J", ruleset="pichincha")
    verdict = json.loads(capsys.readouterr().out)["verdict"]
    assert verdict["verdict"] == "incomplete" and verdict["arranche"] == "opponents"


@pytest.mark.parametrize(
    "options",
    [
        {"table": "3 4", "played": "9"},
        {"table": "3 3 3 3", "played": "3"},
        {"table": "3 4", "played": "7", "ruleset": "quito"},
    ],
)
def test_command_bad_input_exits_2(options):
    with pytest.raises(CommandError) as error:
        call_command("levante", **options)
    assert error.value.returncode == 2


@pytest.mark.slow
def test_command_bad_input_has_no_traceback():
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "manage.py", "levante", "--table", "3 Z", "--played", "7"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "Unknown card 'Z'" in done.stderr and "Traceback" not in done.stderr
