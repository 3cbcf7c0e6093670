"""One name for each thing on every page (issue 23 point 9): the same mesa is called the same on the tables page,
the control board, the messages and the public pages; a juez and the Director by full name;
the rule-set profile by its human name."""

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tests.support.factories import championship, jueces, organiser, pairs
from tests.support.factories import director as director_only
from tests.support.planilla import text as pdf_text
from tournament.draws import draws
from tournament.models import Championship

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def seated():
    """A championship under ``a_todo_rigor`` directed by Marco Lema, its first round assigned to jueces with full names."""
    director = director_only("mlema")
    director.first_name, director.last_name = "Marco", "Lema"
    director.save()
    champ = championship(name="Copa Chimborazo", tables=2, director=director, ruleset_profile="a_todo_rigor")
    pairs(champ, 4)
    for n, juez in enumerate(jueces(2), start=1):
        juez.first_name, juez.last_name = "Rosa", f"Guamán {n}"
        juez.save()
    draws.draw_bracket(champ, seed=1, by=None)
    return champ


@pytest.fixture
def org():
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(organiser())
    return client


def test_a_mesa_has_one_name_on_every_page_paper_and_message(seated, org):
    assigned = org.post(reverse("tournament:tables", args=[seated.pk]))
    message = " ".join(str(m) for m in get_messages(assigned.wsgi_request))
    mesa = seated.mesas.get(bracket="W", round=1, position=1)
    name = "Cuadro de ganadores R1-1"
    juez = f"Rosa Guamán {mesa.juez.last_name[-1]}"
    assert f"{name}: mesa física {mesa.table_number}, juez {juez}" in message
    pages = {
        "tables": org.get(reverse("tournament:tables", args=[seated.pk])),
        "board": org.get(reverse("tournament:board", args=[seated.pk])),
        "table page": org.get(reverse("tournament:mesa_table", args=[seated.pk, mesa.pk])),
        "scoreboard": Client(HTTP_ACCEPT_LANGUAGE="es").get(reverse("public:scoreboard", args=[seated.pk])),
        "pair page": Client(HTTP_ACCEPT_LANGUAGE="es").get(reverse("public:pair", args=[mesa.pair_a.token])),
    }
    for where, response in pages.items():
        page = response.content.decode()
        assert response.status_code == 200 and name in page, where
        assert "ganadores 1-1" not in page, where  # the old "bracket round-position" of the control pages
    assert juez in pages["tables"].content.decode() and mesa.juez.username not in pages["tables"].content.decode()
    cards = pdf_text(org.get(reverse("report:cards", args=[seated.pk]), HTTP_ACCEPT_LANGUAGE="es").content)
    # A table's card is the physical table's, for the whole championship: it names no mesa, so none by another name.
    assert "Mesa física 1" in cards and "R1-" not in cards


def test_the_director_and_the_profile_are_named_as_people_say_them(seated, org):
    page = org.get(reverse("tournament:detail", args=[seated.pk])).content.decode()
    assert "Director: Marco Lema" in page and "Director: mlema" not in page
    assert "A todo rigor" in page
    assert "a_todo_rigor" not in page
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.force_login(organiser("otro"))
    assert (
        escape("A todo rigor (strict)") in english.get(reverse("tournament:detail", args=[seated.pk])).content.decode()
    )
    assert Championship.objects.get(pk=seated.pk).ruleset_profile == "a_todo_rigor"  # the stored code is unchanged
