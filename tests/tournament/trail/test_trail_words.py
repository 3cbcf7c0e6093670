"""The audit page in words (issue 23 point 9): what was done, to what, by whom, in local time to the second;
the draw as the draw, values as people say them, never a raw "— → False" or a relation's ".None"."""

import datetime
import re
import uuid
from html import escape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from audit.context import acting
from audit.models import AuditEntry
from refereeing.appeals import procedure as appeals
from tests.audit.test_trail import ADDRESS
from tests.support.claims import SIGNED, make_pair
from tests.support.rows import force
from tournament.models import Mesa
from tournament.seating import seating


@pytest.fixture
def acted(championship, played, other_mesa, people):
    """A championship with an appeal (which suspends nothing), a new pair, a juez's change, and a draw."""
    people["other_juez"].first_name, people["other_juez"].last_name = "Marco", "Lema"
    people["other_juez"].save()
    with acting(people["staff"], ADDRESS):
        make_pair(championship, "Los Caballos", 5)
        seating.assign_table(other_mesa, 8, other_mesa.juez, by=people["staff"])
        mesa = Mesa.objects.get(pk=other_mesa.pk)
        mesa.inspector = people["other_juez"]
        mesa.save()
        championship.draw_seed = 7
        championship.save(update_fields=["draw_seed"])
    appeals.file_appeal(played, "B", 2, "No fue caída.", "Las Sotas uno", SIGNED, uuid.uuid4(), by=None)
    # One entry with a time stored to the microsecond, as django-auditlog keeps them.
    AuditEntry.objects.filter(pk=AuditEntry.objects.latest("pk").pk).update(
        timestamp=datetime.datetime(2026, 11, 21, 20, 5, 9, 123456, tzinfo=datetime.UTC)
    )
    return championship


def trail_page(people, championship, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(people["staff"])
    page = client.get(reverse("audit:trail"), {"campeonato": championship.pk}).content.decode()
    return page.split('id="audit"')[1]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", {"draw": "Sorteo de las llaves", "seed": "semilla", "inspector": "Marco Lema", "table": "Mesa física"}),
        ("en", {"draw": "Bracket draw", "seed": "seed", "inspector": "Marco Lema", "table": "Table"}),
    ],
)
@pytest.mark.slow
def test_the_audit_page_says_each_act_in_words(acted, people, language, words):
    table = trail_page(people, acted, language)
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
    draw = next(row for row in rows if words["draw"] in row)
    assert words["seed"] in draw and "7" in draw and "—" not in draw.split("</td>", 5)[5]
    # The inspector by full name (not the username), the mesa by its one name.
    inspector = next(row for row in rows if words["inspector"] in row)
    with translation.override(language):
        assert escape(str(acted.mesas.get(position=2))) in inspector
    assert "otro_juez" not in table
    # No raw stored value: booleans, empty relations, arrows from nothing, microseconds, UTC.
    for raw in ("False", "True", ".None", "— →", "None", "+00:00", "UTC"):
        assert raw not in table, raw
    assert not re.search(r"\d\d:\d\d:\d\d\.\d", table)
    # A time in Guayaquil's (UTC-5), to the second.
    assert "15:05:09" in table and "20:05:09" not in table


@pytest.mark.slow
def test_a_creation_lists_what_was_given_and_a_change_its_before_and_after(acted, people):
    table = trail_page(people, acted, "en")
    appeal = next(row for row in re.findall(r"<tr>(.*?)</tr>", table, re.S) if "Appeal" in row and "Created" in row)
    # What the appeal was given, not its "no" flags nor its empty fields.
    assert "No fue caída." in appeal and "suspended" not in appeal.lower()
    pair = next(row for row in re.findall(r"<tr>(.*?)</tr>", table, re.S) if "Los Caballos" in row)
    assert "players" not in pair.lower()
    changed = AuditEntry.objects.filter(changes__has_key="inspector", action=AuditEntry.Action.UPDATE).get()
    assert changed.changes["inspector"] == ["None", "otro_juez"]
    assert "inspector:</span> Marco Lema</div>" in table


def test_a_round_start_names_its_bracket(championship, mesa, people):
    force(Mesa.objects.filter(pk=mesa.pk), status=Mesa.Status.WAITING)
    with acting(people["staff"], ADDRESS):
        seating.start_round(championship, "W", 1, by=None)
    table = trail_page(people, championship, "es")
    assert "Ronda iniciada" in table
    assert "Cuadro de ganadores, ronda 1" in table and "W 1" not in table
