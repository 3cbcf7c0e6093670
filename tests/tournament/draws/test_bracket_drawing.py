"""The bracket as brackets-viewer draws it (``tournament.draws.bracket_drawing``) and the page that draws it."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from refereeing.claimlog.log import record_claim
from tests.support.factories import championship, jueces, pairs, play, start
from tournament.draws import advancement, bracket_drawing, draws
from tournament.draws.bracket_drawing import ARCHIVED, COMPLETED, LOCKED, READY, RUNNING, WAITING
from tournament.models import Championship
from tournament.seating import seating

pytestmark = pytest.mark.django_db

NAMES = {"elimination": "Eliminación", "groups": "Grupos"}


def drawn(**fields):
    champ = championship(**fields)
    pairs(champ, 4)
    jueces(2)
    draws.draw_bracket(champ, seed=1, by=None)
    return champ


def drawing(champ):
    mesas = list(champ.mesas.all())
    return bracket_drawing.drawing(champ, mesas, champ.pairs.all(), advancement.void_ids(mesas), NAMES)


def test_double_elimination_is_one_stage_with_its_grand_final_and_reset():
    champ = drawn()
    data = drawing(champ)
    [stage] = data["stages"]
    assert stage["type"] == "double_elimination" and stage["settings"]["grandFinal"] == "double"
    assert len(data["matches"]) == champ.mesas.count() and len(data["participants"]) == 4
    groups = {m["group_id"] for m in data["matches"]}
    assert groups == {1, 2, 3}  # winners', losers', the final group
    reset = champ.mesas.get(bracket="GR")
    assert next(m for m in data["matches"] if m["id"] == reset.pk)["round_id"] == 3002  # the final group's 2nd round


def test_single_elimination_with_a_third_place_mesa():
    champ = drawn(bracket_format=Championship.Format.SINGLE, third_place=True)
    [stage] = drawing(champ)["stages"]
    assert stage["type"] == "single_elimination" and stage["settings"]["consolationFinal"] is True


def test_a_match_shows_what_its_mesa_shows_now():
    champ = drawn()
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    first, second = champ.mesas.filter(bracket="W", round=1).order_by("position")
    final = champ.mesas.get(bracket="GF")
    assert bracket_drawing.match(second)["status"] == READY
    assert bracket_drawing.match(final)["status"] == LOCKED and bracket_drawing.match(final)["opponent1"] == {
        "id": None
    }
    start(second)
    record_claim(second, {"kind": "caida", "pair": "B"}, uuid.uuid4(), user=second.juez)
    second.refresh_from_db()
    playing = bracket_drawing.match(second)
    assert playing["status"] == RUNNING and (playing["opponent1"]["score"], playing["opponent2"]["score"]) == (0, 2)
    play(first, "B", (2, 1))
    first.refresh_from_db()
    decided = bracket_drawing.match(first)
    assert decided["status"] == COMPLETED
    assert decided["opponent1"] == {"id": first.pair_a_id, "score": 1, "result": "loss"}
    assert decided["opponent2"] == {"id": first.pair_b_id, "score": 2, "result": "win"}
    after = champ.mesas.get(bracket="W", round=2)
    assert bracket_drawing.match(after)["status"] == WAITING  # one pair known: the winner moved on
    assert bracket_drawing.match(after, void=True)["status"] == ARCHIVED


def test_the_bracket_page_gives_its_data_and_draws_it_with_the_vendored_viewer():
    champ = drawn()
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    data = client.get(reverse("tournament:bracket", args=[champ.pk]) + "?data=1").json()
    assert len(data["matches"]) == champ.mesas.count()
    page = client.get(reverse("tournament:bracket", args=[champ.pk])).content.decode()
    assert 'id="bracket-data"' in page and 'id="bracket-words"' in page
    assert "vendor/brackets-viewer/brackets-viewer.min.js" in page and "/flujo/campeonato/" in page
    assert "CG ronda {{roundNumber}}" in page  # the viewer's words, in Spanish


def test_standings_have_a_legend_and_a_part_the_page_fetches_again():
    champ = drawn()
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    page = client.get(reverse("tournament:standings", args=[champ.pk])).content.decode()
    assert 'id="legend"' in page and "Art. 12" in page and "/flujo/campeonato/" in page
    part = client.get(reverse("tournament:standings", args=[champ.pk]) + "?part=1").content.decode()
    assert "<html" not in part and part.count("<tr") == 1 + champ.pairs.count()
