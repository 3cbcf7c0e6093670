"""Merging two persons and splitting one are the Comité's acts: audited, each in a transaction, undoable; the
ratings follow (docs/ratings.md, "Persons")."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from tests.support import factories
from tournament.errors import ActionRefused
from tournament.models import Person, PersonChange, Player, RatingChange
from tournament.ratings import merging, ratings

from .conftest import edition, figures, play_all, roster

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def comite():
    return get_user_model().objects.create_superuser("comite", password=None)


@pytest.fixture
def namesakes(db):
    """One player registered under two spellings in two played editions: two persons who are one."""
    first = edition(2025, roster(4))
    play_all(first)
    second = edition(
        2026, [(n, c, [(p.replace("Jugador 1A", "Jugadór 1A."), i) for p, i in ps]) for n, c, ps in roster(4)]
    )
    play_all(second)
    return (
        Player.objects.get(pair__championship=first, full_name="Jugador 1A").person,
        Player.objects.get(pair__championship=second, full_name="Jugadór 1A.").person,
    )


def test_a_merge_moves_the_players_and_the_ratings_follow_then_undo_puts_everything_back(namesakes, comite):
    keep, gone = namesakes
    assert keep != gone
    before = figures()
    change = merging.merge(keep, gone, by=comite, reason="Es la misma persona.")
    gone.refresh_from_db()
    assert gone.merged_into == keep and not gone.players.exists() and keep.players.count() == 2
    assert not RatingChange.objects.filter(person=gone).exists()
    assert RatingChange.objects.filter(person=keep).count() == len(
        set(RatingChange.objects.filter(person=keep).values_list("mesa_id", flat=True))
    )
    merged = figures()
    ratings.rebuild()
    assert figures() == merged != before
    assert AuditEntry.objects.filter(act="players_moved", actor=comite).count() == 1
    assert AuditEntry.objects.filter(content_type__model="personchange", object_pk=str(change.pk)).exists()
    merging.undo(change, by=comite)
    gone.refresh_from_db()
    assert gone.merged_into is None and gone.players.count() == 1
    assert figures() == before
    with pytest.raises(ActionRefused, match="already undone"):
        merging.undo(change, by=comite)


def test_a_merge_is_refused_for_two_cedulas_one_championship_or_anyone_but_the_comite(namesakes, comite):
    keep, gone = namesakes
    with pytest.raises(ActionRefused, match="Comité"):
        merging.merge(keep, gone, by=factories.organiser())
    Person.objects.filter(pk=keep.pk).update(id_number="0601")
    Person.objects.filter(pk=gone.pk).update(id_number="0602")
    with pytest.raises(ActionRefused, match="different ID numbers"):
        merging.merge(keep, gone, by=comite)
    partner = Player.objects.get(full_name="Jugador 1B", pair__championship__edition="2025").person
    with pytest.raises(ActionRefused, match="same championship"):
        merging.merge(keep, partner, by=comite)
    with pytest.raises(ActionRefused, match="two different"):
        merging.merge(keep, keep, by=comite)
    assert not PersonChange.objects.exists()


def test_a_cedula_only_the_merged_person_had_goes_with_its_players(namesakes, comite):
    keep, gone = namesakes
    Person.objects.filter(pk=gone.pk).update(id_number="0601")
    gone.refresh_from_db()
    change = merging.merge(keep, gone, by=comite)
    keep.refresh_from_db()
    gone.refresh_from_db()
    assert (keep.id_number, gone.id_number) == ("0601", "")
    merging.undo(change, by=comite)
    keep.refresh_from_db()
    gone.refresh_from_db()
    assert (keep.id_number, gone.id_number) == ("", "0601")


def test_a_split_makes_another_person_of_some_players_and_undo_puts_them_back(namesakes, comite):
    keep, gone = namesakes
    merging.merge(keep, gone, by=comite)
    before = figures()
    later = keep.players.get(pair__championship__edition="2026")
    change = merging.split(keep, [later.pk], by=comite, reason="Dos personas con un nombre.")
    made = change.target
    assert list(made.players.all()) == [later] and made.full_name == "Jugadór 1A."
    assert RatingChange.objects.filter(person=made).exists()
    split = figures()
    ratings.rebuild()
    assert figures() == split
    merging.undo(change, by=comite)
    made.refresh_from_db()
    assert made.merged_into == keep and keep.players.count() == 2
    assert figures() == before


def test_a_split_carries_the_cedula_with_its_players_and_refuses_to_cut_one(namesakes, comite):
    keep, gone = namesakes
    merging.merge(keep, gone, by=comite)
    players = list(keep.players.order_by("pair__championship__start_date"))
    with pytest.raises(ActionRefused, match="not all"):
        merging.split(keep, [p.pk for p in players], by=comite)
    with pytest.raises(ActionRefused, match="players of this person"):
        merging.split(keep, [Player.objects.exclude(person=keep).first().pk], by=comite)
    Person.objects.filter(pk=keep.pk).update(id_number="0601")
    Player.objects.filter(pk__in=[p.pk for p in players]).update(id_number="0601")
    keep.refresh_from_db()
    with pytest.raises(ActionRefused, match="Both sides"):
        merging.split(keep, [players[1].pk], by=comite)
    Player.objects.filter(pk=players[0].pk).update(id_number="")
    change = merging.split(keep, [players[1].pk], by=comite)
    keep.refresh_from_db()
    assert (keep.id_number, change.target.id_number) == ("", "0601")


def test_an_undo_is_refused_once_a_later_change_moved_its_players(namesakes, comite):
    keep, gone = namesakes
    first = merging.merge(keep, gone, by=comite)
    later = keep.players.get(pair__championship__edition="2026")
    merging.split(keep, [later.pk], by=comite)
    with pytest.raises(ActionRefused, match="moved again"):
        merging.undo(first, by=comite)


def test_the_comites_pages_merge_split_and_undo(namesakes, comite):
    keep, gone = namesakes
    client = Client()
    client.force_login(comite)
    assert str(keep.pk) in client.get(reverse("persons:list"), {"q": "Jugador 1A"}).content.decode()
    page = reverse("persons:person", args=[keep.pk])
    assert client.post(page, {"merge": "1", "other": "999999"}).status_code == 200  # no such person: the form says so
    response = client.post(page, {"merge": "1", "other": str(gone.pk), "reason": "Misma persona"})
    assert response.status_code == 302 and gone.players.count() == 0
    later = keep.players.get(pair__championship__edition="2026")
    response = client.post(page, {"split": "1", "players": [later.pk], "reason": "Otra persona"})
    assert response.status_code == 302
    change = PersonChange.objects.get(kind=PersonChange.Kind.SPLIT)
    assert client.post(reverse("persons:undo", args=[change.pk])).status_code == 302
    assert PersonChange.objects.get(pk=change.pk).undone_at is not None
    organiser = Client()
    organiser.force_login(factories.organiser())
    assert organiser.get(reverse("persons:list")).status_code == 403
    assert organiser.post(reverse("persons:undo", args=[change.pk])).status_code == 403
