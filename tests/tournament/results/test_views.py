"""A mesa's result page through Django's test client: a blocked correction names what blocks it, a walkover
from the board, the Director's override, a walkover needs both pairs and names them."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from tests.support.factories import (
    championship,
    dependent_in_play,
    director,
    finished_state,
    organiser,
    pairs,
    start,
)
from tests.support.factories import director as director_only
from tournament.draws import draws
from tournament.models import Championship, Mesa
from tournament.results import results
from tournament.seating import seating

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.mark.slow
def test_a_correction_blocked_by_a_later_mesa_names_it_and_saves_nothing(org_client):
    champ = dependent_in_play()
    later = champ.mesas.get(bracket="W", round=2, position=1)
    first = champ.mesas.get(bracket="W", round=1, position=1)
    response = org_client.post(
        reverse("tournament:mesa_result", args=[champ.pk, first.pk]),
        {"winner": "B", "chicas_a": 0, "chicas_b": 2, "override": "on"},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "cannot be corrected" in page and f"Winners&#x27; bracket R2-1 (table {later.table_number})" in page
    first.refresh_from_db()
    assert first.winner == first.pair_a


@pytest.mark.slow
def test_a_walkover_from_the_board(org_client):
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=5, by=None)
    mesa = champ.mesas.get(bracket="W", round=1, position=1)
    response = org_client.post(reverse("tournament:mesa_result", args=[champ.pk, mesa.pk]), {"winner": "A"})
    assert response.status_code == 302
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.WALKOVER


@pytest.mark.slow
def test_only_the_director_sees_and_uses_the_override(english_client):
    champ = championship()
    director = director_only("director")
    champ.director = director
    champ.save()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=5, by=None)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    first = champ.mesas.get(bracket="W", round=1, position=1)
    start(first)
    first.state = finished_state("A")
    results.record_result(first)
    loser_mesa = champ.mesas.get(pk=first.loser_to_id)
    # Another mesa feeding the losers' mesa finishes, so it can start.
    feeder = champ.mesas.filter(loser_to=loser_mesa).exclude(pk=first.pk).get()
    start(feeder)
    feeder.state = finished_state("A")
    results.record_result(feeder)
    seating.start_round(champ, "L", 1, by=None)
    seating.assign_tables(champ, by=None)
    start(champ.mesas.get(pk=loser_mesa.pk))
    url = reverse("tournament:mesa_result", args=[champ.pk, first.pk])
    english_client.force_login(organiser("org2"))
    assert "override" not in english_client.get(url).content.decode()
    english_client.force_login(director)
    assert 'name="override"' in english_client.get(url).content.decode()
    response = english_client.post(url, {"winner": "B", "chicas_a": 1, "chicas_b": 2, "override": "on"})
    assert response.status_code == 200 and "states its reason" in response.content.decode()  # Art. 18: said why
    response = english_client.post(
        url,
        {"winner": "B", "chicas_a": 1, "chicas_b": 2, "override": "on", "reason": "The juez misread the last conteo."},
    )
    assert response.status_code == 302
    first.refresh_from_db()
    winners_mesa = champ.mesas.get(pk=first.winner_to_id)
    assert first.winner == first.pair_b
    assert getattr(winners_mesa, "pair_" + first.winner_to_slot.lower()) == first.pair_b


def test_a_walkover_needs_both_pairs(org_client):
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=1, by=None)
    later = champ.mesas.get(bracket="W", round=2, position=1)
    response = org_client.post(reverse("tournament:mesa_result", args=[champ.pk, later.pk]), {"winner": "A"})
    assert "does not know both its pairs yet" in response.content.decode()
    later.refresh_from_db()
    assert later.status == Mesa.Status.WAITING


def test_the_walkover_form_names_the_pairs(org_client):
    champ = championship()
    pairs(champ, 2)
    draws.draw_bracket(champ, seed=1, by=None)
    mesa = champ.mesas.get(bracket="W", round=1)
    page = org_client.get(reverse("tournament:mesa_result", args=[champ.pk, mesa.pk])).content.decode()
    assert f"A · {mesa.pair_a.name}" in page and f"B · {mesa.pair_b.name}" in page


@pytest.fixture
def blocked():
    """A decided mesa whose correction a started mesa blocks, and the championship's Director, who holds no other
    role."""
    champ = dependent_in_play()
    champ.director = director()
    champ.save()
    return champ, champ.mesas.get(bracket="W", round=1, position=1)


@pytest.mark.slow
def test_a_director_who_is_not_an_organiser_overrides_a_result_art_18(english_client, blocked):
    champ, first = blocked
    url = reverse("tournament:mesa_result", args=[champ.pk, first.pk])
    english_client.force_login(champ.director)
    assert 'name="override"' in english_client.get(url).content.decode()
    response = english_client.post(
        url, {"winner": "B", "chicas_a": 1, "chicas_b": 2, "override": "on", "reason": "Conteo mal leído."}
    )
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.winner == first.pair_b
    # Back to a page the Director may read, which says it is saved.
    assert "Result saved." in english_client.get(response["Location"]).content.decode()


@pytest.mark.slow
def test_a_director_records_no_walkover_the_desk_does(english_client, blocked):
    champ, _first = blocked
    waiting = champ.mesas.filter(status=Mesa.Status.WAITING, pair_a__isnull=False, pair_b__isnull=False).first()
    waiting = waiting or champ.mesas.filter(status=Mesa.Status.READY).first()
    english_client.force_login(champ.director)
    url = reverse("tournament:mesa_result", args=[champ.pk, waiting.pk])
    assert english_client.get(url).status_code == 403
    assert english_client.post(url, {"winner": "A"}).status_code == 403
    waiting.refresh_from_db()
    assert waiting.status not in Mesa.DECIDED


@pytest.mark.parametrize("when", ["over", "not begun", "another's"])
@pytest.mark.slow
def test_no_other_director_overrides(english_client, blocked, when):
    champ, first = blocked
    today = timezone.localdate()
    if when == "another's":
        english_client.force_login(director("otra"))
        championship(name="Otro", director=User.objects.get(username="otra"), sede=champ.sede)
    else:
        days = datetime.timedelta(days=-3 if when == "over" else 3)
        Championship.objects.filter(pk=champ.pk).update(start_date=today + days, end_date=today + days)
        english_client.force_login(champ.director)
    url = reverse("tournament:mesa_result", args=[champ.pk, first.pk])
    assert english_client.get(url).status_code == 403
    response = english_client.post(
        url, {"winner": "B", "chicas_a": 1, "chicas_b": 2, "override": "on", "reason": "Conteo mal leído."}
    )
    assert response.status_code == 403
    first.refresh_from_db()
    assert first.winner == first.pair_a
