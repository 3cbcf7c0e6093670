"""Imports that cannot hurt (issue 22 item 2): every date, number and structure of an export of resolutions
is bounded before anything is stored; the import is idempotent and atomic, and two at once give one result;
a page never fails on a stored date, however it got into the database (Art. 18: the register of the
Director's resolutions, its search, and the championship report)."""

import datetime
import json
import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse

from resolutions import register
from resolutions.models import Resolution
from tests.support.factories import championship as make_championship

pytestmark = pytest.mark.usefixtures("english")

GOOD = {
    "number": 1,
    "decided_at": "2026-11-21T10:00:00.123456-05:00",
    "situation": "Una carta cayó al suelo durante el reparto.",
    "ruling": "Se repite el reparto sin sanción.",
    "articles": "Art. 18",
    "mesas": "R1-1",
    "ajuste": None,
    "precedent_from": "Riobamba 2025",
}


def document(*items):
    return json.dumps({"format": register.EXPORT_FORMAT, "version": 1, "resolutions": list(items)}).encode()


def import_through_the_page(championship, director, content):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(director)
    return client.post(
        reverse("resolutions:import", args=[championship.pk]),
        {"file": SimpleUploadedFile("r.json", content, "application/json")},
        follow=True,
    )


@pytest.mark.parametrize(
    "decided_at",
    [
        "0001-01-01T00:00:00+00:00",  # the repro: stored, it broke the register and the report for good
        "2026-02-30T10:00:00-05:00",
        "2026-11-21T25:00:00-05:00",
        "2026-11-21T10:00:00+99:00",
        "2026-11-21T10:00:00+23:59",  # a valid Python offset, no real time zone's
        "9999-12-31T23:30:00-05:00",  # past the year 9999 in UTC
        "1999-12-31T18:59:59-05:00",  # before this program's records
        "2999-01-01T00:00:00-05:00",  # after today
        "2026-11-21T10:00:00",  # no time zone
        "2026-11-21",
        "2026-11-21T10:00:00-05:00" + " " * 100,
        20261121,
        None,
    ],
)
def test_a_date_outside_the_era_or_not_real_refuses_the_file_and_stores_nothing(championship, people, decided_at):
    content = document({**GOOD, "decided_at": decided_at})
    with pytest.raises(register.ResolutionError, match="Resolution 1 of the file: its date"):
        register.import_precedents(championship, content, by=people["director"])
    response = import_through_the_page(championship, people["director"], content)
    assert response.status_code == 200 and "Resolution 1 of the file: its date" in response.content.decode()
    assert not Resolution.objects.exists()


@pytest.mark.parametrize(
    "content, message",
    [
        (b"[" * 200_000, "not a JSON export"),  # the repro: a RecursionError and a 500
        (
            document({**GOOD, "ajuste": {"mesa": [[[[[[[["R1-1"]]]]]]]], "pair": "A", "points": 2}}),
            "not a JSON export",
        ),
        (document({**GOOD, "number": 0}), "its number"),
        (document({**GOOD, "number": 2**63}), "its number"),
        (document({**GOOD, "number": True}), "its number"),
        (document({**GOOD, "number": "1"}), "its number"),
        (document(*[{**GOOD, "number": n} for n in range(1, 1002)]), "more than 1000 resolutions"),
        (document(GOOD, {**GOOD, "ruling": "Otra."}), "Resolution 2 of the file repeats resolution 1"),
        (document(GOOD) + b" " * 1_000_000, "larger than 1 MB"),
    ],
)
def test_structures_numbers_and_sizes_are_bounded_before_anything_is_stored(championship, people, content, message):
    with pytest.raises(register.ResolutionError, match=message):
        register.import_precedents(championship, content, by=people["director"])
    assert not Resolution.objects.exists()


def test_two_hundred_thousand_brackets_through_the_page_are_a_message_not_a_500(championship, people):
    response = import_through_the_page(championship, people["director"], b"[" * 200_000)
    assert response.status_code == 200 and "not a JSON export" in response.content.decode()


def test_the_same_precedent_twice_is_recognised_and_keeps_its_origin_and_number(championship, people):
    register.resolve(championship, "Corte de luz.", "Se suspende la ronda.", by=people["director"])
    second = {**GOOD, "number": 2, "situation": "Un teléfono sonó."}
    assert register.import_precedents(championship, document(GOOD), by=people["director"]) == (1, 0)
    first = Resolution.objects.get(championship=championship, precedent_number=1)
    assert first.number == 2 and first.precedent_from == "Riobamba 2025"
    assert register.import_precedents(championship, document(GOOD, second), by=people["director"]) == (1, 1)
    response = import_through_the_page(championship, people["director"], document(GOOD, second))
    assert "0 precedents imported. 2 were already in the register." in response.content.decode()
    stored = list(championship.resolutions.order_by("number").values_list("number", "precedent_number"))
    assert stored == [(1, None), (2, 1), (3, 2)]
    first.refresh_from_db()
    assert first.number == 2 and first.decided_at == datetime.datetime(2026, 11, 21, 15, 0, 0, 123456, datetime.UTC)
    # Exported again, a precedent names its origin and its number there, so it is recognised downstream too.
    again = json.loads(register.export(championship))["resolutions"]
    assert [(r["number"], r["precedent_from"]) for r in again[1:]] == [(1, "Riobamba 2025"), (2, "Riobamba 2025")]
    following = make_championship(name="Campeonato 2028", director=people["director"])
    exported = register.export(championship)
    assert register.import_precedents(following, exported, by=people["director"]) == (3, 0)
    assert register.import_precedents(following, exported, by=people["director"]) == (0, 3)


def test_a_clash_with_a_resolution_recorded_at_the_same_moment_is_a_refusal_not_a_500(
    championship, people, monkeypatch
):
    taken = register._next_number(championship)
    Resolution.objects.create(championship=championship, number=taken, situation="s", ruling="r")
    monkeypatch.setattr(register, "_next_number", lambda championship: taken)
    with pytest.raises(register.ResolutionError, match="at the same moment; nothing was imported"):
        register.import_precedents(championship, document(GOOD, {**GOOD, "number": 2}), by=people["director"])
    assert list(championship.resolutions.values_list("number", flat=True)) == [taken]


@pytest.mark.django_db(transaction=True)
def test_two_imports_at_once_store_each_precedent_once(championship, people):
    """The repro: two imports at once gave an IntegrityError 500."""
    content = document(*[{**GOOD, "number": n} for n in range(1, 21)])
    barrier = threading.Barrier(2)
    results, errors = [], []

    def job():
        try:
            barrier.wait()
            results.append(register.import_precedents(championship, content, by=people["director"]))
        except BaseException as error:  # noqa: BLE001 — reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=job) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors and sorted(results) == [(0, 20), (20, 0)]
    assert sorted(championship.resolutions.values_list("number", flat=True)) == list(range(1, 21))


# --- defence in depth: a stored date the time zone cannot reach -------------------------------------


@pytest.mark.parametrize(
    "stored, shown",
    [
        (datetime.datetime(1, 1, 1, tzinfo=datetime.UTC), "0001-01-01 00:00 UTC"),  # the year 0 in Guayaquil
        (datetime.datetime(9999, 12, 31, 23, 59, tzinfo=datetime.UTC), "9999"),
    ],
)
@pytest.mark.slow
def test_a_stored_date_past_the_calendar_never_breaks_the_register_its_search_or_the_report(
    championship, people, stored, shown
):
    # Written straight to the database, as an older version's import left it: no check on the way.
    Resolution.objects.create(
        championship=championship,
        number=1,
        situation="Corte de luz.",
        ruling="Se suspende la ronda.",
        decided_at=stored,
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for reader in (people["director"], people["staff"]):
        client.force_login(reader)
        url = reverse("resolutions:list", args=[championship.pk])
        for query in ({}, {"q": "luz"}):
            page = client.get(url, query)
            assert page.status_code == 200 and "Corte de luz." in page.content.decode()
        assert shown in client.get(url).content.decode()
        report = client.get(reverse("report:championship", args=[championship.pk]))
        assert report.status_code == 200 and report["Content-Type"] == "application/pdf"
        assert client.get(reverse("audit:trail"), {"championship": championship.pk}).status_code == 200
    exported = json.loads(register.export(championship))["resolutions"]
    assert exported[0]["decided_at"] == stored.isoformat()


@pytest.mark.slow
def test_the_refusals_speak_spanish_to_a_spanish_director(championship, people):
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(people["director"])
    page = client.get(reverse("resolutions:list", args=[championship.pk])).content.decode()
    assert "Como máximo 1 MB y 1.000 resoluciones. Los precedentes que el registro ya tiene se reconocen" in page
    url = reverse("resolutions:import", args=[championship.pk])
    for content, message in (
        (document({**GOOD, "decided_at": "0001-01-01T00:00:00+00:00"}), "le falta la fecha, no es una fecha y hora"),
        (document(GOOD, GOOD), "La resolución 2 del archivo repite la resolución 1."),
        (document({**GOOD, "number": -1}), "su número no es un número entero de 1 a 100000."),
    ):
        file = SimpleUploadedFile("r.json", content, "application/json")
        assert message in client.post(url, {"file": file}, follow=True).content.decode()
    client.post(url, {"file": SimpleUploadedFile("r.json", document(GOOD), "application/json")})
    again = client.post(url, {"file": SimpleUploadedFile("r.json", document(GOOD), "application/json")}, follow=True)
    assert "0 precedentes importados. 1 ya estaba en el registro." in again.content.decode()
    assert not Resolution.objects.exclude(precedent_number=1).exists()


@pytest.mark.slow
def test_spoiled_texts_of_a_stored_resolution_never_break_the_register_its_search_its_export_or_the_report(
    championship, people
):
    """As ``tests/input/test_stored_rows.py`` does for the claim log; PostgreSQL cannot keep a NUL."""
    spoil = "\x00\x1b" if connection.vendor == "sqlite" else ""
    huge = "luz " + spoil + "x" * 100_000
    Resolution.objects.create(
        championship=championship,
        number=1,
        situation=huge,
        ruling=huge,
        articles=("Art. 18" + spoil + "y" * 1000)[:200],
        precedent_from=("Riobamba" + spoil + "z" * 1000)[:500],
        precedent_mesas=("R1-1" + spoil + "w" * 1000)[:500],
        precedent_number=2**31 - 1,
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people["director"])
    url = reverse("resolutions:list", args=[championship.pk])
    for query in ({}, {"q": "luz"}):
        assert client.get(url, query).status_code == 200
    assert client.get(reverse("resolutions:export", args=[championship.pk])).status_code == 200
    report = client.get(reverse("report:championship", args=[championship.pk]))
    assert report.status_code == 200 and report["Content-Type"] == "application/pdf"
