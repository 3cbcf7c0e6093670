"""A past championship brought in from a CSV of its results, with a preview, bounded and checked whole
(docs/ratings.md, "A past championship")."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.models import AuditEntry
from tests.support import factories
from tournament.csv_files import ImportRefused
from tournament.errors import ActionRefused
from tournament.models import Championship, Mesa, Player, Rating, RatingChange
from tournament.ratings import history, identity, ratings

from .conftest import edition, figures, play_all, roster

pytestmark = pytest.mark.django_db

HEADER = "ronda,pareja_a,club_a,jugador_a1,jugador_a2,pareja_b,club_b,jugador_b1,jugador_b2,ganadora,chicas_a,chicas_b,zapateria"
RECORD = "\n".join(
    [
        HEADER,
        "1,Pareja 01,Riobamba,Jugador 1A,Jugador 1B,Pareja 02,Riobamba,Jugador 2A,Jugador 2B,A,2,1,",
        "1,Pareja 03,Riobamba,Jugador 3A,Jugador 3B,Pareja 04,Riobamba,Jugador 4A,Jugador 4B,Pareja 04,0,2,",
        "2,Pareja 01,,,,Pareja 04,,,,B,0,1,sí",
    ]
)


def past(year=2024, players_per_pair=2):
    return Championship(
        name="Campeonato Nacional",
        edition=str(year),
        sede=factories.sede(),
        start_date=datetime.date(year, 11, 21),
        end_date=datetime.date(year, 11, 22),
        players_per_pair=players_per_pair,
    )


def test_a_record_becomes_a_championship_of_finished_mesas_rated_in_its_order():
    preview = history.check(RECORD, 2)
    assert preview.ok and len(preview.mesas) == 3 and len(preview.pairs) == 4
    championship = past()
    history.save(championship, RECORD, by=factories.organiser())
    mesas = list(championship.mesas.order_by("finished_at"))
    assert [(m.round, m.position, m.status) for m in mesas] == [
        (1, 1, "finished"),
        (1, 2, "finished"),
        (2, 1, "finished"),
    ]
    assert [m.winner.name for m in mesas] == ["Pareja 01", "Pareja 04", "Pareja 04"]
    assert mesas[2].zapateria and (mesas[2].chicas_a, mesas[2].chicas_b) == (0, 1)
    assert not Player.objects.filter(person=None).exists()
    assert RatingChange.objects.count() == 12 and Rating.objects.count() == 8
    imported = figures()
    ratings.rebuild()
    assert figures() == imported
    entry = AuditEntry.objects.get(act="history_imported", championship_id=championship.pk)
    assert entry.changes["mesas"] == ["", "3"]


@pytest.mark.slow
def test_a_history_brought_in_after_a_later_edition_rates_before_it_as_a_rebuild_does():
    later = edition(2026, roster(4))
    play_all(later)
    alone = figures()
    history.save(past(2024), RECORD, by=factories.organiser())
    assert figures() != alone
    brought = figures()
    ratings.rebuild()
    assert figures() == brought
    first = RatingChange.objects.order_by("at", "mesa_id").first()
    assert first.mesa.championship.edition == "2024"


@pytest.mark.parametrize(
    "row, reason",
    [
        ("1,Pareja 05,Quito,Ana,Luz,Pareja 06,Quito,Eva,Sol,A,2,2,", "the winner takes two chicas"),
        ("1,Pareja 05,Quito,Ana,Luz,Pareja 06,Quito,Eva,Sol,A,2,0,sí", "one chica to none by zapatería"),
        ("1,Pareja 05,Quito,Ana,Luz,Pareja 06,Quito,Eva,Sol,C,2,0,", "ganadora must be A, B"),
        ("1,Pareja 05,Quito,Ana,Luz,Pareja 06,Quito,Eva,Sol,A,dos,0,", "chicas_a must be a whole number"),
        ("1,Pareja 05,Quito,Ana,Luz,Pareja 05,Quito,,,A,2,0,", "cannot play itself"),
        ("1,Pareja 05,Quito,Ana,,Pareja 06,Quito,Eva,Sol,A,2,0,", "jugador_a2 is empty"),
        ("1,Pareja 01,Quito,Ana,Luz,Pareja 06,Quito,Eva,Sol,A,2,0,", "differ from line 2"),
        ("0,Pareja 05,Quito,Ana,Luz,Pareja 06,Quito,Eva,Sol,A,2,0,", "ronda must be a whole number"),
        ("1,Pareja 05,Quito,Ana\u202e,Luz,Pareja 06,Quito,Eva,Sol,A,2,0,", "jugador_a1"),
        ("1,Pareja 05,Quito,Ana,Luz,Pareja 06,Quito,Eva,Sol,A,2,0,quizás", "zapateria must be"),
        ("1,Pareja 05,Quito,Ana,Luz", "5 cells; the header has 13"),
    ],
)
def test_a_single_bad_line_refuses_the_whole_file_naming_it(row, reason):
    text = RECORD + "\n" + row
    preview = history.check(text, 2)
    assert not preview.ok
    assert [line for line, _reason in preview.errors] == [5]
    assert reason in preview.errors[0][1]
    with pytest.raises(ActionRefused):
        history.save(past(), text, by=factories.organiser())
    assert not Championship.objects.exists() and not Mesa.objects.exists()


def test_the_file_is_bounded_and_its_columns_named():
    assert "missing columns: ganadora" in history.check("pareja_a,pareja_b,chicas_a,chicas_b\n", 2).errors[0][1]
    assert "unknown columns: color" in history.check(HEADER + ",color\n", 2).errors[0][1]
    many = RECORD + "\n" + "\n".join(["1,Pareja 01,,,,Pareja 02,,,,A,2,0,"] * history.MAX_MESAS)
    assert "at most 2048 mesas" in history.check(many, 2).errors[0][1]
    with pytest.raises(ImportRefused):
        history.read(b"\xff\xfe" + RECORD.encode("utf-16-le"), 2)
    with pytest.raises(ImportRefused, match="too large"):
        history.read(b"x" * (history.MAX_BYTES + 1), 2)
    latin = history.read(RECORD.replace("Jugador 1A", "Jugador Ñ").encode("cp1252"), 2)
    assert latin.ok and "Windows-1252" in latin.notice


def test_one_vs_one_names_one_player_a_side():
    text = "pareja_a,jugador_a1,pareja_b,jugador_b1,ganadora,chicas_a,chicas_b\nAna,Ana Paca,Eva,Eva Lema,A,2,0\n"
    assert history.check(text, 1).ok
    assert "jugador_a2 is empty" in history.check(text, 2).errors[0][1]


@pytest.mark.slow
def test_the_page_previews_asks_about_an_uncertain_player_and_imports():
    known = edition(2026, [("Los Ases", "Guano", [("Jugador 1A", ""), ("Rosa Tene", "")])])
    client = Client()
    client.force_login(factories.organiser())
    url = reverse("tournament:history_import")
    assert client.get(url).status_code == 200
    sede = factories.sede()
    fields = {
        "name": "Campeonato Nacional",
        "edition": "2024",
        "sede": sede.pk,
        "start_date": "2024-11-21",
        "end_date": "2024-11-22",
        "players_per_pair": "2",
    }
    page = client.post(url, {**fields, "text": RECORD}).content.decode()
    assert 'id="history-preview"' in page and 'id="identities-uncertain"' in page
    person = Player.objects.get(pair__championship=known, full_name="Jugador 1A").person
    assert f'value="2-1-{person.pk}"' in page
    response = client.post(url, {**fields, "text": RECORD, "confirm": "1", "same": f"2-1-{person.pk}"})
    championship = Championship.objects.get(edition="2024")
    assert response.status_code == 302 and response.url == reverse("tournament:detail", args=[championship.pk])
    assert Player.objects.get(pair__championship=championship, full_name="Jugador 1A").person == person
    assert not identity.open_doubts(championship).exists()
    # Its public pages answer as any championship's.
    for name in ("tournament:bracket", "tournament:standings", "tournament:detail"):
        assert client.get(reverse(name, args=[championship.pk])).status_code == 200, name
    bad = client.post(url, {**fields, "text": RECORD + "\n1,X,,,,Y,,,,A,2,0,"}).content.decode()
    assert 'id="history-errors"' in bad and 'name="confirm"' not in bad
    assert Client().get(url).status_code == 302  # organisers only: signs in first


CELL = st.text(max_size=12) | st.sampled_from(["A", "B", "2", "1", "0", "sí", "Pareja 01", "", ";", '"', "\n"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.lists(CELL, min_size=0, max_size=15), max_size=6), players=st.sampled_from([1, 2]))
@pytest.mark.slow
def test_any_file_is_read_into_a_preview_never_an_error(rows, players):
    """Whatever the file holds, the preview names what is wrong (or takes it): the page never fails."""
    text = "\n".join([HEADER, *(",".join(row) for row in rows)])
    preview = history.check(text, players)
    assert preview.ok or preview.errors
    assert all(isinstance(line, int) and isinstance(reason, str) for line, reason in preview.errors)


@given(values=st.lists(st.text(max_size=40), max_size=5))
def test_any_ticked_box_is_read_or_ignored(values):
    found = identity.confirmed(values)
    assert all(isinstance(line, int) and isinstance(person, int) for (line, _number), person in found)
