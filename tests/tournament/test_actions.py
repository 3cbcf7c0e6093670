"""The organiser's actions: draw, tables, rounds, results, corrections (draws, seating, results, advancement).

Results here come from a finished engine state written into ``mesa.state``,
as the claim log leaves it (the contract's State.as_dict()).
"""

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation

from tournament import draws, errors, results, seating
from tournament.models import Mesa, Pair

from .factories import championship, finished_state, jueces, organiser, pairs, play, play_to_the_end, start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_double_elimination_draw_makes_every_mesa_and_records_the_seed():
    champ = championship()
    pairs(champ, 16)
    mesas = draws.draw_bracket(champ, seed=1234)
    champ.refresh_from_db()
    assert champ.draw_seed == 1234
    counts = {b: champ.mesas.filter(bracket=b).count() for b in ("W", "L", "GF", "GR")}
    assert counts == {"W": 15, "L": 14, "GF": 1, "GR": 1}
    assert len(mesas) == 31
    first_round = champ.mesas.filter(bracket="W", round=1)
    assert all(m.pair_a_id and m.pair_b_id for m in first_round)


def test_the_same_seed_draws_the_same_bracket():
    placements = []
    for name in ("Uno", "Dos"):
        champ = championship(name=name)
        for n in range(1, 17):
            Pair.objects.create(championship=champ, name=f"P{n}", checked_in=True)
        draws.draw_bracket(champ, seed=99)
        placements.append(
            [
                (m.pair_a.name, m.pair_b.name)
                for m in champ.mesas.filter(bracket="W", round=1)
                .select_related("pair_a", "pair_b")
                .order_by("position")
            ]
        )
    assert placements[0] == placements[1]


def test_a_second_draw_is_refused():
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=1)
    with pytest.raises(errors.ActionRefused, match="already drawn"):
        draws.draw_bracket(champ, seed=2)
    assert champ.mesas.count() == 31


@pytest.mark.parametrize("count", [16, 20])
def test_double_elimination_runs_to_a_champion(count):
    champ = championship()
    pairs(champ, count)
    jueces(4)
    draws.draw_bracket(champ, seed=7)
    winner = play_to_the_end(champ)
    # Slot A wins every mesa, so the winners' bracket champion wins the grand
    # final and the reset is not played.
    final = champ.mesas.get(bracket="GF")
    assert winner == final.pair_a
    assert champ.mesas.get(bracket="GR").status == Mesa.Status.WAITING
    losses = {}
    for mesa in champ.mesas.exclude(winner=None):
        loser = mesa.pair_b_id if mesa.winner_id == mesa.pair_a_id else mesa.pair_a_id
        losses[loser] = losses.get(loser, 0) + 1
    # Art. 12: everyone but the champion is out after exactly two defeats.
    assert sorted(losses.values()) == [2] * (count - 1)


def test_the_reset_is_played_when_the_losers_bracket_champion_wins_the_grand_final():
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=7)
    winner = play_to_the_end(champ, pick=lambda mesa: "B" if mesa.bracket == "GF" else "A")
    reset = champ.mesas.get(bracket="GR")
    assert reset.status == Mesa.Status.FINISHED
    assert winner == reset.winner


def test_assign_tables_gives_free_tables_and_jueces_once():
    champ = championship(tables=5)
    pairs(champ, 16)
    judges = jueces(3)
    draws.draw_bracket(champ, seed=3)
    assigned = seating.assign_tables(champ)
    assert [a.table for a in assigned] == [1, 2, 3, 4, 5]
    assert [a.juez for a in assigned] == [*judges, None, None]
    on_tables = champ.mesas.exclude(table_number=None)
    assert sorted(m.table_number for m in on_tables) == [1, 2, 3, 4, 5]
    assert sorted(m.juez_id for m in on_tables if m.juez_id) == sorted(j.pk for j in judges)
    assert seating.assign_tables(champ) == []


def test_a_juez_or_table_busy_in_another_championship_is_not_free():
    first = championship(name="Campeonato de Riobamba", tables=4)
    second = championship(name="Copa de Quito", tables=4)
    pairs(first, 4)
    pairs(second, 4)
    judges = jueces(3)
    draws.draw_bracket(first, seed=1)
    draws.draw_bracket(second, seed=1)
    taken = seating.assign_tables(first)
    assert [(a.table, a.juez) for a in taken] == [(1, judges[0]), (2, judges[1])]
    given = seating.assign_tables(second)
    # The venue's tables 1 and 2 and the first two jueces are busy with the first championship.
    assert [(a.table, a.juez) for a in given] == [(3, judges[2]), (4, None)]
    busy = seating.commitments()
    assert busy[judges[0].pk].championship == first and busy[judges[2].pk].championship == second
    mesa = given[1].mesa
    with pytest.raises(errors.ActionRefused) as refusal:
        seating.assign_table(mesa, 4, judges[0])
    assert (
        refusal.value.message == f"{judges[0].get_full_name() or judges[0].username} is the juez of "
        f"Winners' bracket R1-1 (table 1) in Campeonato de Riobamba."
    )
    with pytest.raises(errors.ActionRefused, match="Table 1 is held by .* in Campeonato de Riobamba"):
        seating.assign_table(mesa, 1, None)


def test_manual_table_refuses_a_table_held_by_another_mesa():
    champ = championship(tables=4)
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=3)
    first, second = champ.mesas.filter(bracket="W", round=1).order_by("position")[:2]
    seating.assign_table(first, 2, None)
    with pytest.raises(errors.ActionRefused, match="Table 2 is held"):
        seating.assign_table(second, 2, None)
    second.refresh_from_db()
    assert second.table_number is None


def test_a_result_for_a_mesa_that_has_not_started_is_refused():
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=3)
    mesa = champ.mesas.get(bracket="W", round=1, position=1)
    seating.start_round(champ, "W", 1)
    mesa.refresh_from_db()
    mesa.state = finished_state("A")
    with pytest.raises(errors.ActionRefused, match="has not started"):
        results.record_result(mesa)
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.READY and mesa.winner is None
    assert champ.mesas.get(pk=mesa.winner_to_id).pair_a is None and champ.mesas.get(pk=mesa.winner_to_id).pair_b is None


def test_an_unfinished_state_is_not_a_result():
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=3)
    seating.assign_tables(champ)
    seating.start_round(champ, "W", 1)
    mesa = champ.mesas.get(bracket="W", round=1, position=1)
    start(mesa)
    mesa.state = {"finished": False, "winner": None, "chicas": {"A": 1, "B": 0}}
    with pytest.raises(errors.ActionRefused, match="not finished"):
        results.record_result(mesa)


def test_zapateria_and_chicas_are_copied_from_the_engine_state():
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=3)
    mesa = champ.mesas.get(bracket="W", round=1, position=1)
    seating.assign_tables(champ)
    seating.start_round(champ, "W", 1)
    mesa.refresh_from_db()
    start(mesa)
    # Art. 3g.6: a zapatería in the first chica ends the mesa 1-0.
    mesa.state = finished_state("B", 1, 0, zapateria=True)
    results.record_result(mesa)
    mesa.refresh_from_db()
    assert (mesa.status, mesa.winner, mesa.chicas_a, mesa.chicas_b, mesa.zapateria) == (
        Mesa.Status.FINISHED,
        mesa.pair_b,
        0,
        1,
        True,
    )
    # Art. 12: the loser drops to the losers' bracket, the winner goes on.
    assert getattr(mesa.winner_to, "pair_" + mesa.winner_to_slot.lower()) == mesa.pair_b
    assert getattr(mesa.loser_to, "pair_" + mesa.loser_to_slot.lower()) == mesa.pair_a


def _first_two_rounds(champ):
    """Play W1-1 and W1-2, then start their W2 mesa; returns (W1-1, W2-1)."""
    w11 = champ.mesas.get(bracket="W", round=1, position=1)
    w12 = champ.mesas.get(bracket="W", round=1, position=2)
    play(w11, "A")
    play(w12, "A")
    w21 = champ.mesas.get(pk=w11.winner_to_id)
    return w11, w21


def test_a_correction_is_refused_while_a_later_mesa_has_started():
    champ = championship()
    pairs(champ, 16)
    org = organiser()
    draws.draw_bracket(champ, seed=3)
    w11, w21 = _first_two_rounds(champ)
    play(w21, "A", (2, 0))  # the later mesa has started (and finished)
    w11.refresh_from_db()
    with pytest.raises(errors.ActionRefused) as refusal:
        results.correct_result(w11, "B", 0, 2, user=org, override=True)
    assert "Only the Director" in refusal.value.message
    assert w21.pk in [m.pk for m in refusal.value.blocking]
    assert "R2-1" in refusal.value.message
    w11.refresh_from_db()
    assert w11.winner == w11.pair_a and (w11.chicas_a, w11.chicas_b) == (2, 1)


def test_the_directors_override_resets_the_dependents_that_have_not_started():
    champ = championship()
    pairs(champ, 16)
    director = organiser("director")
    champ.director = director
    champ.save()
    draws.draw_bracket(champ, seed=3)
    w11, w21 = _first_two_rounds(champ)
    # W2-1 is on a table and in play: it blocks; the losers' mesa has not started.
    seating.assign_tables(champ)
    w21.refresh_from_db()
    seating.start_round(champ, "W", 2)
    w21.refresh_from_db()
    start(w21)
    w11.refresh_from_db()
    results.correct_result(w11, "B", 0, 2, user=director, override=True)
    w11.refresh_from_db()
    loser_mesa = Mesa.objects.get(pk=w11.loser_to_id)
    assert w11.winner == w11.pair_b
    # The started mesa keeps its pairs (the Director decides about it);
    # the losers' mesa gets the corrected loser.
    assert getattr(loser_mesa, "pair_" + w11.loser_to_slot.lower()) == w11.pair_a
    w21.refresh_from_db()
    assert getattr(w21, "pair_" + w11.winner_to_slot.lower()) == w11.pair_a


def test_a_correction_before_the_next_mesa_starts_moves_the_pairs():
    champ = championship()
    pairs(champ, 16)
    org = organiser()
    draws.draw_bracket(champ, seed=3)
    w11, w21 = _first_two_rounds(champ)
    w11.refresh_from_db()
    results.correct_result(w11, "B", 1, 2, user=org)
    w21.refresh_from_db()
    loser_mesa = Mesa.objects.get(pk=w11.loser_to_id)
    assert getattr(w21, "pair_" + w11.winner_to_slot.lower()) == w11.pair_b
    assert getattr(loser_mesa, "pair_" + w11.loser_to_slot.lower()) == w11.pair_a


def test_walkover_gives_the_present_pair_the_mesa():
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=3)
    mesa = champ.mesas.get(bracket="W", round=1, position=3)
    results.record_walkover(mesa, "B")
    mesa.refresh_from_db()
    assert (mesa.status, mesa.winner, mesa.chicas_b) == (Mesa.Status.WALKOVER, mesa.pair_b, 2)
    with pytest.raises(errors.ActionRefused, match="already has a result"):
        results.record_walkover(mesa, "A")


def test_the_database_refuses_what_the_rules_forbid():
    champ = championship()
    first, second = pairs(champ, 2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Pair.objects.create(championship=champ, name=first.name)
    with pytest.raises(IntegrityError), transaction.atomic():
        Mesa.objects.create(championship=champ, round=1, position=1, pair_a=first, pair_b=first)
    with pytest.raises(IntegrityError), transaction.atomic():
        Mesa.objects.create(championship=champ, round=1, position=1, pair_a=first, pair_b=second, status="finished")
    with pytest.raises(IntegrityError), transaction.atomic():
        Mesa.objects.create(championship=champ, round=1, position=1, pair_a=first, status="ready")
    Mesa.objects.create(
        championship=champ, round=1, position=1, pair_a=first, pair_b=second, status="in_play", table_number=1
    )
    third, fourth = Pair.objects.create(championship=champ, name="C"), Pair.objects.create(championship=champ, name="D")
    with pytest.raises(IntegrityError), transaction.atomic():
        Mesa.objects.create(
            championship=champ, round=1, position=2, pair_a=third, pair_b=fourth, status="in_play", table_number=1
        )


def test_a_mesa_refuses_a_pair_of_another_championship():
    from django.core.exceptions import ValidationError

    home, away = championship(name="Uno"), championship(name="Dos")
    ours, theirs = pairs(home, 1)[0], Pair.objects.create(championship=away, name="Visitante")
    mesa = Mesa(championship=home, round=1, position=1, pair_a=ours, pair_b=theirs)
    with pytest.raises(ValidationError) as error:
        mesa.full_clean()
    assert "pair_b" in error.value.message_dict


def test_a_1024_pair_draw_makes_every_mesa():
    champ = championship(tables=200)
    Pair.objects.bulk_create(
        Pair(championship=champ, name=f"P{n:04d}", name_key=f"p{n:04d}", checked_in=True) for n in range(1, 1025)
    )
    draws.draw_bracket(champ, seed=42)
    # Double elimination: 2n - 2 mesas, plus the reset.
    assert champ.mesas.count() == 2 * 1024 - 1
    assert champ.mesas.filter(bracket="W", round=1, pair_a__isnull=False, pair_b__isnull=False).count() == 512


def test_a_draw_the_bracket_engine_refuses_is_a_clear_refusal():
    champ = championship(bracket_format="round_robin", group_size=1)
    pairs(champ, 4)
    with pytest.raises(errors.ActionRefused, match="A group needs room for at least two pairs"):
        draws.draw_bracket(champ, seed=1)
    champ.refresh_from_db()
    assert champ.draw_seed is None and not champ.mesas.exists()
