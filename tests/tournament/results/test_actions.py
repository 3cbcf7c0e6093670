"""A mesa's result (``results``): recorded from the engine's state, a walkover, a correction, the Director's
override (Art. 18).

Results here come from a finished engine state written into ``mesa.state``,
as the claim log leaves it (the contract's State.as_dict()).
"""

import pytest

from audit.models import AuditEntry
from tests.support.factories import championship, finished_state, organiser, pairs, play, start
from tests.support.factories import director as director_only
from tournament import errors
from tournament.draws import draws
from tournament.models import Mesa
from tournament.results import results
from tournament.seating import seating

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_a_result_for_a_mesa_that_has_not_started_is_refused():
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=3, by=None)
    mesa = champ.mesas.get(bracket="W", round=1, position=1)
    seating.start_round(champ, "W", 1, by=None)
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
    draws.draw_bracket(champ, seed=3, by=None)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    mesa = champ.mesas.get(bracket="W", round=1, position=1)
    start(mesa)
    mesa.state = {"finished": False, "winner": None, "chicas": {"A": 1, "B": 0}}
    with pytest.raises(errors.ActionRefused, match="not finished"):
        results.record_result(mesa)


@pytest.mark.slow
def test_zapateria_and_chicas_are_copied_from_the_engine_state():
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=3, by=None)
    mesa = champ.mesas.get(bracket="W", round=1, position=1)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
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


@pytest.mark.slow
def test_a_correction_is_refused_while_a_later_mesa_has_started():
    champ = championship()
    pairs(champ, 16)
    org = organiser()
    draws.draw_bracket(champ, seed=3, by=None)
    w11, w21 = _first_two_rounds(champ)
    play(w21, "A", (2, 0))  # the later mesa has started (and finished)
    w11.refresh_from_db()
    with pytest.raises(errors.ActionRefused) as refusal:
        results.correct_result(w11, "B", 0, 2, by=org, override=True)
    assert "Only the Director" in refusal.value.message
    assert w21.pk in [m.pk for m in refusal.value.blocking]
    assert "R2-1" in refusal.value.message
    w11.refresh_from_db()
    assert w11.winner == w11.pair_a and (w11.chicas_a, w11.chicas_b) == (2, 1)


def test_the_directors_override_resets_the_dependents_that_have_not_started():
    champ = championship()
    pairs(champ, 16)
    director = director_only("director")
    champ.director = director
    champ.save()
    draws.draw_bracket(champ, seed=3, by=None)
    w11, w21 = _first_two_rounds(champ)
    # W2-1 is on a table and in play: it blocks; the losers' mesa has not started.
    seating.assign_tables(champ, by=None)
    w21.refresh_from_db()
    seating.start_round(champ, "W", 2, by=None)
    w21.refresh_from_db()
    start(w21)
    w11.refresh_from_db()
    results.correct_result(w11, "B", 0, 2, by=director, override=True, reason="La planilla se leyó mal")
    w11.refresh_from_db()
    loser_mesa = Mesa.objects.get(pk=w11.loser_to_id)
    assert w11.winner == w11.pair_b
    # The started mesa keeps its pairs (the Director decides about it);
    # the losers' mesa gets the corrected loser.
    assert getattr(loser_mesa, "pair_" + w11.loser_to_slot.lower()) == w11.pair_a
    w21.refresh_from_db()
    assert getattr(w21, "pair_" + w11.winner_to_slot.lower()) == w11.pair_a


@pytest.mark.slow
def test_the_directors_override_states_its_reason_art_18():
    champ = championship()
    pairs(champ, 16)
    director = director_only("director")
    champ.director = director
    champ.save()
    draws.draw_bracket(champ, seed=3, by=None)
    w11, w21 = _first_two_rounds(champ)
    play(w21, "A", (2, 0))
    w11.refresh_from_db()
    with pytest.raises(errors.ActionRefused, match=r"states its reason \(Art. 18\)"):
        results.correct_result(w11, "B", 0, 2, by=director, override=True, reason="  ")
    w11.refresh_from_db()
    assert w11.winner == w11.pair_a
    results.correct_result(w11, "B", 0, 2, by=director, override=True, reason="La planilla se leyó mal")
    [entry] = AuditEntry.objects.filter(object_pk=str(w11.pk), changes__has_key="winner").exclude(reason="")
    assert entry.actor == director
    assert entry.reason == "Director's override (Art. 18): La planilla se leyó mal"


@pytest.mark.slow
def test_a_walkover_is_recorded_with_who_gave_it_and_why():
    champ = championship()
    pairs(champ, 16)
    desk = organiser()
    draws.draw_bracket(champ, seed=3, by=None)
    mesa = champ.mesas.get(bracket="W", round=1, position=3)
    results.record_walkover(mesa, "B", by=desk, reason="La pareja A no se presentó")
    [entry] = AuditEntry.objects.filter(object_pk=str(mesa.pk), changes__has_key="winner")
    assert (entry.actor, entry.reason) == (desk, "La pareja A no se presentó")


@pytest.mark.slow
def test_a_correction_before_the_next_mesa_starts_moves_the_pairs():
    champ = championship()
    pairs(champ, 16)
    org = organiser()
    draws.draw_bracket(champ, seed=3, by=None)
    w11, w21 = _first_two_rounds(champ)
    w11.refresh_from_db()
    results.correct_result(w11, "B", 1, 2, by=org)
    w21.refresh_from_db()
    loser_mesa = Mesa.objects.get(pk=w11.loser_to_id)
    assert getattr(w21, "pair_" + w11.winner_to_slot.lower()) == w11.pair_b
    assert getattr(loser_mesa, "pair_" + w11.loser_to_slot.lower()) == w11.pair_a


def test_walkover_gives_the_present_pair_the_mesa():
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=3, by=None)
    mesa = champ.mesas.get(bracket="W", round=1, position=3)
    results.record_walkover(mesa, "B", by=organiser())
    mesa.refresh_from_db()
    assert (mesa.status, mesa.winner, mesa.chicas_b) == (Mesa.Status.WALKOVER, mesa.pair_b, 2)
    with pytest.raises(errors.ActionRefused, match="already has a result"):
        results.record_walkover(mesa, "A", by=organiser("org2"))
