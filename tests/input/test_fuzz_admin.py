"""The admin fuzzed (#22.1): random change, add and delete forms posted to every
page of the championship's data and its records, as an organiser and as a
superuser, never give a 5xx and never change a row.

Each body is the record's own form as the admin would send it back (so
that a change would be valid), with some fields replaced by a value that
bends the record (another championship, the other pair, ``finished``, a
winner) or by anything (``tests.input.test_fuzz``'s text and numbers); the
admin's bulk delete is sent as well. Every row of the championship's tables, the claim log,
signatures, appeals and accounts is compared before and after
(``snapshot``), on SQLite and PostgreSQL.
"""

import datetime

import pytest
from django.forms.models import model_to_dict
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.input.test_fuzz import SETTINGS, check, client_for, form, place, send_form, snapshot  # noqa: F401
from tests.support import factories
from tournament.models import Championship, Mesa, Pair, Player

pytestmark = pytest.mark.django_db

# Eight pages × users; half of the forms' examples each keeps the file near a minute.
ADMIN_SETTINGS = settings(SETTINGS, max_examples=25)


def good_values(p, other):
    """What a careless organiser would type to bend the record, by field."""
    mesa = p["mesa"]
    return {
        "championship": str(other.pk),
        "status": "finished",
        "winner": str(mesa.pair_b_id),
        "pair_a": str(mesa.pair_b_id),
        "pair_b": str(mesa.pair_a_id),
        "chicas_a": "0",
        "chicas_b": "2",
        "bracket_format": "single",
        "appeal_window_minutes": "60",
        "name": "Otro nombre",
        "arrival": "present",
        "seed": "9",
    }


FIELDS = {
    "championship": ["name", "bracket_format", "appeal_window_minutes", "third_place", "tables", "director"],
    "pair": ["championship", "name", "seed", "arrival", "club"],
    "player": ["pair", "full_name", "number", "is_representative"],
    "mesa": ["championship", "status", "winner", "pair_a", "pair_b", "chicas_a", "chicas_b", "zapateria", "round"],
}


def target(p, model):
    """The record each model's pages are fuzzed on: the mesa in play, its championship, its first pair."""
    mesa = Mesa.objects.get(pk=p["mesa"].pk)
    return {
        "championship": Championship.objects.get(pk=mesa.championship_id),
        "pair": Pair.objects.get(pk=mesa.pair_a_id),
        "player": Player.objects.filter(pair_id=mesa.pair_a_id).first(),
        "mesa": mesa,
    }[model]


def as_posted(record):
    """``record``'s editable fields as its admin form posts them back unchanged."""
    body = {}
    for name, value in model_to_dict(record).items():
        if value is None or value is False:
            continue
        if value is True:
            body[name] = "on"
        elif isinstance(value, datetime.datetime):
            body[name + "_0"], body[name + "_1"] = value.date().isoformat(), value.time().isoformat()
        elif isinstance(value, dict):
            body[name] = "{}"
        else:
            body[name] = str(value)
    if isinstance(record, Pair):
        body.update({"players-TOTAL_FORMS": "0", "players-INITIAL_FORMS": "0"})
    return body


PAGES = ["change", "add", "delete", "bulk delete"]


@pytest.fixture
def other(db):
    return Championship.objects.create(
        name="Otro", start_date="2026-11-21", end_date="2026-11-22", sede=factories.sede()
    )


@pytest.mark.parametrize("who", ["staff", "superuser"])
@pytest.mark.parametrize("model", list(FIELDS))
@ADMIN_SETTINGS
@given(data=st.data())
def test_fuzz_admin_changes_nothing(place, other, who, model, data):  # noqa: F811 (the fixture)
    if who == "superuser":
        staff = place["people"]["staff"]
        staff.is_superuser = True
        staff.save(update_fields=["is_superuser"])
    client = client_for(place, "staff")
    page = data.draw(st.sampled_from(PAGES), label="page")
    record = target(place, model)
    drawn = data.draw(form(FIELDS[model], good_values(place, other)), label="body")
    body = {**as_posted(record), **{key: str(value) for key, value in drawn.items()}}
    pk = record.pk
    url, body = {
        "change": (f"/admin/tournament/{model}/{pk}/change/", body),
        "add": (f"/admin/tournament/{model}/add/", body),
        "delete": (f"/admin/tournament/{model}/{pk}/delete/", {**body, "post": "yes"}),
        "bulk delete": (
            f"/admin/tournament/{model}/",
            {**body, "action": "delete_selected", "_selected_action": str(pk), "post": "yes"},
        ),
    }[page]
    before = snapshot()
    response = send_form(client, url, body)
    check(response, before)
    # Whatever the answer (a refusal, the list again), nothing changed.
    assert snapshot() == before
