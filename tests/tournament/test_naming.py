"""One name for each thing (issue 23 point 9): ``tournament.naming``'s functions, and the natural order of people."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.support.factories import championship, jueces, organiser, pairs
from tournament.championships.forms import ChampionshipForm
from tournament.draws import draws
from tournament.models import Mesa
from tournament.naming import (
    by_person_name,
    mesa_at_table,
    mesa_label,
    mesa_place,
    natural_key,
    person_name,
    profile_name,
)
from tournament.seating import seating
from tournament.seating.forms import TableForm

User = get_user_model()


def test_a_mesa_is_named_by_its_place_in_the_bracket_in_either_language():
    mesa = Mesa(bracket=Mesa.Bracket.WINNERS, round=1, position=2)
    with translation.override("es"):
        assert mesa_label(mesa) == str(mesa) == "Cuadro de ganadores R1-2"
    with translation.override("en"):
        assert mesa_label(mesa) == str(mesa) == "Winners' bracket R1-2"
        assert mesa_label(Mesa(bracket=Mesa.Bracket.GROUP, group=3, round=2, position=1)) == "Group 3 R2-1"


@pytest.mark.django_db
def test_a_message_that_sends_someone_to_a_mesa_adds_its_table_and_its_championship():
    champ = championship(name="Copa Chimborazo")
    mesa = Mesa(championship=champ, bracket=Mesa.Bracket.LOSERS, round=2, position=1)
    with translation.override("en"):
        assert mesa_at_table(mesa) == "Losers' bracket R2-1"
        mesa.table_number = 7
        assert mesa_at_table(mesa) == "Losers' bracket R2-1 (table 7)"
        assert mesa_place(mesa) == f"Losers' bracket R2-1 (table 7) in {champ}"
    with translation.override("es"):
        assert mesa_at_table(mesa) == "Cuadro de perdedores R2-1 (mesa física 7)"


def test_a_person_is_the_full_name_else_the_username():
    assert person_name(User(username="mlema", first_name="Marco", last_name="Lema")) == "Marco Lema"
    assert person_name(User(username="mlema")) == "mlema"
    assert person_name(None) == ""


def test_a_profile_is_named_by_the_engines_catalogue():
    with translation.override("es"):
        assert profile_name("a_todo_rigor") == "A todo rigor"
        assert profile_name("riobamba") == "Reglamento de Riobamba"
        assert profile_name("riobamba", "en") == "Riobamba rulebook"
    with translation.override("en"):
        assert profile_name("a_todo_rigor") == "A todo rigor (strict)"
    assert profile_name("unknown") == "unknown"  # a stored code the catalogue lost still shows


def test_numbers_in_names_sort_as_numbers():
    names = ["Juez 10", "juez 2", "Juez 1", "Juez 11", "Ana", "Juez 2b", "10", "9"]
    assert sorted(names, key=natural_key) == ["9", "10", "Ana", "Juez 1", "juez 2", "Juez 2b", "Juez 10", "Juez 11"]
    people = [User(username=f"j{n}", first_name="Juez", last_name=str(n)) for n in (10, 2, 11, 1)]
    assert [person_name(u) for u in by_person_name(people)] == ["Juez 1", "Juez 2", "Juez 10", "Juez 11"]


@pytest.fixture
def eleven_jueces(db):
    made = jueces(11)
    for n, juez in enumerate(made, start=1):
        juez.first_name, juez.last_name = "Juez", str(n)
        juez.save()
    return made


@pytest.mark.slow
def test_the_jueces_select_the_tables_page_and_the_jueces_page_list_people_naturally(eleven_jueces):
    wanted = [f"Juez {n}" for n in range(1, 12)]
    champ = championship(name="Copa Chimborazo")
    pairs(champ, 4)
    draws.draw_bracket(champ, seed=1, by=None)
    mesa = champ.mesas.exclude(pair_a=None).exclude(pair_b=None).first()
    form = TableForm(busy={}, mesa=mesa, free_tables=seating.free_tables(champ, mesa))
    assert [label for value, label in form.fields["juez"].choices if value] == wanted
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(organiser())
    for url in (reverse("tournament:tables", args=[champ.pk]), reverse("jueces:list")):
        page = client.get(url).content.decode()
        assert [page.index(f"{name}<") for name in wanted] == sorted(page.index(f"{name}<") for name in wanted), url


@pytest.mark.django_db
def test_the_championship_form_offers_profiles_and_directors_by_their_names():
    with translation.override("es"):
        form = ChampionshipForm()
        assert dict(form.fields["ruleset_profile"].choices)["a_todo_rigor"] == "A todo rigor"
