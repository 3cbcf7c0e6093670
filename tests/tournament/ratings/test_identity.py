"""A player is a person across championships: by cédula where given, else by name and club compared by their
look-alike keys; an uncertain match (same name, another club, no cédula) is shown to the desk, never merged
silently (docs/ratings.md, "Persons")."""

import pytest
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from tests.support import factories
from tournament.models import Doubt, Person, Player, RatingChange
from tournament.pairs import pairs_csv
from tournament.ratings import identity

from .conftest import edition, figures, play_all, roster

pytestmark = pytest.mark.django_db


def person_of(champ, name):
    return Player.objects.get(pair__championship=champ, full_name=name).person


def test_a_cedula_is_one_person_whatever_the_name_and_club_say():
    first = edition(2025, [("Los Ases", "Riobamba", [("Luis Pilco", "0601"), ("Rosa Tene", "")])])
    second = edition(2026, [("Otros", "Quito", [("Luis A. Pilco", "0601"), ("Ana Lema", "")])])
    assert person_of(second, "Luis A. Pilco") == person_of(first, "Luis Pilco")
    person = person_of(second, "Luis A. Pilco")
    # The person takes the name and club of its latest championship.
    assert (person.full_name, person.club) == ("Luis A. Pilco", "Quito")
    assert Person.objects.count() == 3 and not Doubt.objects.exists()


def test_without_a_cedula_the_same_name_and_club_are_one_person_as_people_read_them():
    first = edition(2025, [("Los Ases", "Riobamba", [("José Guamán", ""), ("Rosa Tene", "")])])
    second = edition(2026, [("Los Ases", "riobamba ", [("jose  GUAMAN", ""), ("ROSA TENE", "")])])
    # Case, accents and spaces aside: the keys of lookalikes.
    assert person_of(second, "jose GUAMAN") == person_of(first, "José Guamán")
    assert Person.objects.count() == 2


def test_a_person_learns_the_cedula_it_lacked_and_another_cedula_is_another_person():
    first = edition(2025, [("Los Ases", "Riobamba", [("José Guamán", ""), ("Rosa Tene", "0602")])])
    second = edition(2026, [("Los Ases", "Riobamba", [("José Guamán", "0601"), ("Rosa Tene", "0699")])])
    jose = person_of(second, "José Guamán")
    assert jose == person_of(first, "José Guamán") and jose.id_number == "0601"
    assert person_of(second, "Rosa Tene") != person_of(first, "Rosa Tene")
    assert not Doubt.objects.exists()


def test_the_same_name_in_another_club_without_a_cedula_is_a_new_person_and_a_question_for_the_desk():
    first = edition(2025, [("Los Ases", "Riobamba", [("José Guamán", ""), ("Rosa Tene", "")])])
    second = edition(2026, [("Los Otros", "Guano", [("José Guamán", ""), ("Ana Lema", "")])])
    known = person_of(first, "José Guamán")
    player = Player.objects.get(pair__championship=second, full_name="José Guamán")
    assert player.person != known
    [doubt] = identity.open_doubts(second)
    assert (doubt.player, doubt.candidate) == (player, known)


def test_two_namesakes_of_one_club_in_one_championship_are_two_persons():
    """A person plays in one pair of a championship."""
    edition(2025, [("Los Ases", "Riobamba", [("José Guamán", ""), ("Rosa Tene", "")])])
    second = edition(
        2026,
        [
            ("Los Ases", "Riobamba", [("José Guamán", ""), ("Rosa Tene", "")]),
            ("Los Otros", "Riobamba", [("José Guamán", ""), ("Ana Lema", "")]),
        ],
    )
    people = {p.person_id for p in Player.objects.filter(pair__championship=second, full_name="José Guamán")}
    assert len(people) == 2 and not Doubt.objects.exists()


def test_an_older_championship_brought_in_later_does_not_change_a_persons_club():
    edition(2026, [("Los Ases", "Quito", [("José Guamán", "0601"), ("Rosa Tene", "")])])
    older = edition(2024, [("Los Viejos", "Riobamba", [("José Guamán", "0601"), ("Ana Lema", "")])])
    person = person_of(older, "José Guamán")
    assert person.club == "Quito"


@pytest.mark.slow
def test_the_import_preview_asks_and_a_ticked_box_links_the_player_to_the_known_person():
    first = edition(2025, [("Los Ases", "Riobamba", [("José Guamán", ""), ("Rosa Tene", "")])])
    known = person_of(first, "José Guamán")
    champ = factories.championship(name="Campeonato 2026")
    text = (
        "pareja,club,jugador_1,jugador_2\nLos Otros,Guano,José Guamán,Ana Lema\nLos Terceros,Guano,Rosa Tene,Luz Paca\n"
    )
    client = Client()
    client.force_login(factories.organiser())
    url = reverse("tournament:pairs_import", args=[champ.pk])
    page = client.post(url, {"text": text}).content.decode()
    assert 'id="identities-uncertain"' in page
    assert f'value="2-1-{known.pk}"' in page  # line 2, player 1 may be the known José Guamán
    rosa = person_of(first, "Rosa Tene")
    assert f'value="3-1-{rosa.pk}"' in page
    # A box naming someone else is ignored; the box ticked links José; Rosa, not ticked, stays a question.
    response = client.post(url, {"text": text, "confirm": "1", "same": [f"2-1-{known.pk}", f"3-1-{known.pk}"]})
    assert response.status_code == 302
    assert person_of(champ, "José Guamán") == known
    assert person_of(champ, "Rosa Tene") != rosa
    [doubt] = identity.open_doubts(champ)
    assert doubt.candidate == rosa
    assert AuditEntry.objects.filter(championship_id=champ.pk, act="pairs_imported").count() == 1


@pytest.mark.slow
def test_the_pair_form_links_its_players_and_says_when_one_is_left_to_the_desk():
    first = edition(2025, [("Los Ases", "Riobamba", [("José Guamán", ""), ("Rosa Tene", "")])])
    champ = factories.championship(name="Campeonato 2026")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(factories.organiser())
    form = {
        "name": "Los Nuevos",
        "club": "Guano",
        "player1_name": "José Guamán",
        "player2_name": "Ana Lema",
        "representative": "1",
    }
    response = client.post(reverse("tournament:pair_new", args=[champ.pk]), form, follow=True)
    assert "the desk confirms it on the persons page" in response.content.decode()
    pair = champ.pairs.get()
    assert all(p.person_id for p in pair.players.all())
    assert identity.open_doubts(champ).get().candidate == person_of(first, "José Guamán")
    made = person_of(champ, "José Guamán")
    # Corrected to the club of the known person: the player is that person, and the question goes.
    edit = reverse("tournament:pair_edit", args=[champ.pk, pair.pk])
    client.post(edit, {**form, "club": "Riobamba", "player1_name": "Jose Guaman"})
    assert person_of(champ, "Jose Guaman") == person_of(first, "José Guamán")
    assert not identity.open_doubts(champ).exists()
    assert not Person.objects.filter(pk=made.pk).exists()  # made for the question, no one any more


@pytest.mark.slow
def test_the_desks_answer_links_the_player_and_rebuilds_the_ratings():
    first = edition(2025, roster(4))
    play_all(first)
    second = edition(
        2026, [(name, "Guano" if n == 0 else club, players) for n, (name, club, players) in enumerate(roster(4))]
    )
    play_all(second)
    doubts = list(identity.open_doubts(second))
    assert len(doubts) == 2  # the two players of the pair of another club
    desk = factories.organiser()
    doubt = doubts[0]
    made = doubt.player.person
    identity.resolve(doubt, True, by=desk)
    doubt.player.refresh_from_db()
    made.refresh_from_db()
    assert doubt.player.person == doubt.candidate and made.merged_into == doubt.candidate
    assert not RatingChange.objects.filter(person=made).exists()
    answered = figures()
    from tournament.ratings import ratings

    ratings.rebuild()
    assert figures() == answered
    other = doubts[1]
    identity.resolve(other, False, by=desk)
    other.refresh_from_db()
    assert other.same is False and other.player.person != other.candidate
    with pytest.raises(Exception, match="already been answered"):
        identity.resolve(other, True, by=desk)
    assert AuditEntry.objects.filter(object_pk=str(other.pk), content_type__model="doubt").exists()


@pytest.mark.slow
def test_the_persons_page_lists_the_questions_and_answers_them():
    edition(2025, [("Los Ases", "Riobamba", [("José Guamán", ""), ("Rosa Tene", "")])])
    second = edition(2026, [("Los Otros", "Guano", [("José Guamán", ""), ("Ana Lema", "")])])
    client = Client()
    client.force_login(factories.organiser())
    page = client.get(reverse("tournament:persons", args=[second.pk])).content.decode()
    doubt = identity.open_doubts(second).get()
    assert f'id="doubt-{doubt.pk}"' in page
    url = reverse("tournament:answer_doubt", args=[second.pk, doubt.pk])
    assert client.post(url, {"same": "maybe"}).status_code == 400
    assert client.post(url, {"same": "1"}).status_code == 302
    assert not identity.open_doubts(second).exists()
    assert 'id="no-doubts"' in client.get(reverse("tournament:persons", args=[second.pk])).content.decode()
    assert Client().get(reverse("tournament:persons", args=[second.pk])).status_code == 302  # signs in first


@pytest.mark.slow
def test_a_players_cedula_never_reaches_a_public_page():
    first = edition(2025, [("Los Ases", "Riobamba", [("José Guamán", "0601987654"), ("Rosa Tene", "")])])
    person = person_of(first, "José Guamán")
    assert "0601987654" not in Client().get(reverse("ratings:person", args=[person.pk])).content.decode()
    assert pairs_csv  # the import the edition went through
