"""Double elimination (the default format: a zapatería does not eliminate
at a first defeat, Art. 12)."""

from collections import Counter

import pytest

from engines.bracket import (
    GRAND_FINAL,
    LOSERS,
    RESET,
    WINNERS,
    BracketError,
    Key,
    Route,
    advance,
    dependents,
    draw,
)

from .playing import play_out

GF = Key(GRAND_FINAL, 1, 1)
GR = Key(RESET, 1, 1)


@pytest.mark.parametrize(("n", "mesas"), [(8, 15), (16, 31)])
def test_golden_counts_include_the_reset(n, mesas):
    specs = draw(range(1, n + 1)).specs
    assert len(specs) == mesas
    assert Counter(s.key.bracket for s in specs) == {WINNERS: n - 1, LOSERS: n - 2, GRAND_FINAL: 1, RESET: 1}


def test_eight_pairs_first_round_is_seeded_one_against_eight():
    specs = draw("abcdefgh").specs
    first = [(s.a, s.b) for s in specs if s.key.bracket == WINNERS and s.key.round == 1]
    assert first == [("a", "h"), ("d", "e"), ("b", "g"), ("c", "f")]


def test_eight_pairs_routes():
    by_key = {s.key: s for s in draw("abcdefgh").specs}
    # Losers of winners' round 1 meet in losers' round 1, in order.
    assert by_key[Key(WINNERS, 1, 1)].loser_to == Route(Key(LOSERS, 1, 1), "A")
    assert by_key[Key(WINNERS, 1, 2)].loser_to == Route(Key(LOSERS, 1, 1), "B")
    # Losers of winners' round 2 drop in reversed, so that they do not meet
    # at once the pair they beat in round 1.
    assert by_key[Key(WINNERS, 2, 1)].loser_to == Route(Key(LOSERS, 2, 2), "A")
    assert by_key[Key(WINNERS, 2, 2)].loser_to == Route(Key(LOSERS, 2, 1), "A")
    assert by_key[Key(LOSERS, 1, 1)].winner_to == Route(Key(LOSERS, 2, 1), "B")
    assert by_key[Key(WINNERS, 3, 1)].loser_to == Route(Key(LOSERS, 4, 1), "A")
    assert by_key[Key(WINNERS, 3, 1)].winner_to == Route(GF, "A")
    assert by_key[Key(LOSERS, 4, 1)].winner_to == Route(GF, "B")
    # Losers in the losers' bracket are out: their second defeat.
    assert all(s.loser_to is None for s in by_key.values() if s.key.bracket == LOSERS)
    assert by_key[GF].winner_to == Route(GR, "B") and by_key[GF].loser_to == Route(GR, "A")
    assert by_key[GR].conditional and by_key[GR].winner_to is None and by_key[GR].loser_to is None


def _results_until_grand_final(specs):
    """Slot A wins everything before the grand final."""
    results = {}
    progress = advance(specs, results)
    while progress.ready != (GF,):
        results.update({key: "A" for key in progress.ready})
        progress = advance(specs, results)
    return results, progress


def test_grand_final_won_by_the_winners_champion_voids_the_reset():
    specs = draw("abcd").specs
    results, progress = _results_until_grand_final(specs)
    assert progress.occupants[GF] == ("a", "b") and progress.reset_needed is None
    results[GF] = "A"
    progress = advance(specs, results)
    assert progress.champion == "a"
    assert progress.reset_needed is False and progress.void == {GR}
    assert progress.defeats["b"] == 2 and "b" in progress.eliminated
    assert progress.ready == ()
    with pytest.raises(BracketError, match="no se juega"):
        advance(specs, {**results, GR: "A"})


def test_grand_final_won_by_the_losers_champion_needs_the_reset():
    specs = draw("abcd").specs
    results, _ = _results_until_grand_final(specs)
    results[GF] = "B"
    progress = advance(specs, results)
    assert progress.reset_needed is True and progress.champion is None
    assert progress.occupants[GR] == ("a", "b")  # same pairs, same sides
    assert progress.ready == (GR,)
    assert progress.defeats["a"] == 1 and "a" not in progress.eliminated
    results[GR] = "B"
    progress = advance(specs, results)
    assert progress.champion == "b" and "a" in progress.eliminated and progress.defeats["a"] == 2


def test_first_defeat_drops_into_losers_bracket_second_eliminates():
    specs = draw("abcdefgh").specs
    progress = advance(specs, {Key(WINNERS, 1, 1): "B"})  # h beats a
    assert progress.occupants[Key(WINNERS, 2, 1)] == ("h", None)
    assert progress.occupants[Key(LOSERS, 1, 1)] == ("a", None)
    assert progress.defeats == {"a": 1} and not progress.eliminated
    progress = advance(specs, {Key(WINNERS, 1, 1): "B", Key(WINNERS, 1, 2): "A", Key(LOSERS, 1, 1): "B"})
    assert progress.eliminated == {"a"} and progress.defeats["a"] == 2


def test_a_seated_mesa_keeps_its_pairs_whatever_a_corrected_result_says():
    """Art. 18: after the Director's override a started mesa is played by the pairs it had."""
    specs = draw("abcdefgh").specs
    seated = {Key(WINNERS, 2, 1): ("a", "d")}  # seated when a had won W R1-1
    corrected = {Key(WINNERS, 1, 1): "B", Key(WINNERS, 1, 2): "A"}  # h beat a after all; d beat e
    progress = advance(specs, corrected, seated)
    assert progress.occupants[Key(WINNERS, 2, 1)] == ("a", "d")
    assert progress.occupants[Key(LOSERS, 1, 1)] == ("a", "e")  # the corrected loser goes on
    progress = advance(specs, {**corrected, Key(WINNERS, 2, 1): "A"}, seated)
    assert progress.occupants[Key(WINNERS, 3, 1)][0] == "a" and progress.occupants[Key(LOSERS, 2, 2)][0] == "d"


def test_two_pairs_play_the_grand_final_and_reset():
    specs = draw(["x", "y"]).specs
    assert [s.key for s in specs] == [Key(WINNERS, 1, 1), GF, GR]
    results, progress, meetings = play_out(specs, 3)
    assert progress.champion in {"x", "y"}


def test_byes_go_to_top_seeds_and_are_not_emitted():
    specs = draw(range(1, 6)).specs  # 5 pairs in 8 places: seeds 1, 2, 3 have byes
    first = [(s.a, s.b) for s in specs if s.key.bracket == WINNERS and s.key.round == 1]
    assert first == [(4, 5)]
    by_key = {s.key: s for s in specs}
    assert (by_key[Key(WINNERS, 2, 1)].a, by_key[Key(WINNERS, 2, 1)].b) == (1, None)
    assert (by_key[Key(WINNERS, 2, 2)].a, by_key[Key(WINNERS, 2, 2)].b) == (2, 3)
    # The loser of 4-5 has no one to meet in losers' round 1: it waits in round 2.
    assert by_key[Key(WINNERS, 1, 2)].loser_to.key.round == 2
    assert len(specs) == 2 * 5 - 1


def test_result_for_a_mesa_whose_pairs_are_unknown_is_refused():
    specs = draw("abcdefgh").specs
    with pytest.raises(BracketError, match="no se conocen"):
        advance(specs, {Key(WINNERS, 2, 1): "A"})
    with pytest.raises(BracketError, match="No hay una mesa"):
        advance(specs, {("W", 9, 9): "A"})
    with pytest.raises(BracketError, match="lado A o B"):
        advance(specs, {Key(WINNERS, 1, 1): "C"})


def test_dependents_of_a_first_round_mesa():
    specs = draw("abcd").specs
    keys = dependents(specs, Key(WINNERS, 1, 1))
    assert keys == [Key(WINNERS, 2, 1), Key(LOSERS, 1, 1), Key(LOSERS, 2, 1), GF, GR]
    assert dependents(specs, GF) == [GR]
    assert dependents(specs, GR) == []


def test_errors_speak_spanish_first_and_english_second():
    with pytest.raises(BracketError) as caught:
        advance(draw("abcd").specs, {Key(WINNERS, 2, 1): "A"})
    assert str(caught.value) == "La mesa W R2-1 tiene resultado pero aún no se conocen sus dos parejas."
    assert caught.value.message_en == "Mesa W R2-1 has a result but its two pairs are not known yet."
