"""Jueces in bulk (issue #35): an import from CSV with its template and preview, as the pairs' (bounded, every
text checked, formulas given back, previewed then confirmed once under a lock, audited), each new juez available
on the day it is made; the jueces page marks who is available today in place, or everyone at once; the tables
page's pool says where each juez is: free, refereeing here or elsewhere (where), or not available."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from tests.support.factories import championship, jueces, pairs, sede
from tournament.accounts import accounts, jueces_csv
from tournament.draws import draws
from tournament.models import JuezDay
from tournament.seating import seating

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

GOOD = "nombre;apellido;usuario;clave\nRosa;Guamán;rguaman;sota-caballo-rey\nLuis;Pilco;lpilco;\n"


def upload(text, name="jueces.csv"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, text.encode() if isinstance(text, str) else text, content_type="text/csv")


def test_the_template_is_the_header_in_either_style(org_client):
    excel = org_client.get(reverse("jueces:template"), {"formato": "excel"})
    assert excel.content == "\ufeffnombre;apellido;usuario;clave\r\n".encode()
    assert "plantilla-jueces-excel.csv" in excel["Content-Disposition"]
    assert (
        org_client.get(reverse("jueces:template"), {"formato": "plain"}).content == b"nombre,apellido,usuario,clave\n"
    )
    assert org_client.get(reverse("jueces:template"), {"formato": "xlsx"}).status_code == 400


@pytest.mark.slow
def test_a_file_is_previewed_then_imported_once_and_each_juez_is_available_today(org_client):
    url = reverse("jueces:import")
    page = org_client.post(url, {"file": upload(GOOD), "preview": ""}).content.decode()
    assert "2 valid jueces" in page and "rguaman" in page and "lpilco" in page
    assert not get_user_model().objects.filter(username__in=["rguaman", "lpilco"]).exists()
    text = jueces_csv.read(GOOD.encode()).text
    response = org_client.post(url, {"text": text, "confirm": ""}, follow=True)
    assert "2 jueces imported, available today." in response.content.decode()
    rosa, luis = (get_user_model().objects.get(username=u) for u in ("rguaman", "lpilco"))
    assert {rosa, luis} <= set(accounts.jueces()) and not rosa.is_staff
    assert {rosa.pk, luis.pk} <= accounts.available_today()
    assert Client().login(username="rguaman", password="sota-caballo-rey")
    assert not luis.has_usable_password()  # no password given: set later on the jueces page
    # Each account audited as a save, and its availability as an act, by the organiser.
    organiser = response.wsgi_request.user
    for juez in (rosa, luis):
        assert AuditEntry.objects.get_for_object(juez).filter(action=AuditEntry.Action.CREATE, actor=organiser).exists()
        assert AuditEntry.objects.filter(act="juez_available", object_pk=str(juez.pk), actor=organiser).count() == 1
    # The same confirmation again (a double submit): every row is now taken; nothing is made twice.
    again = org_client.post(url, {"text": text, "confirm": ""}).content.decode()
    assert "2 lines must be fixed; nothing was saved." in again and "already exists" in again
    assert get_user_model().objects.filter(username__in=["rguaman", "lpilco"]).count() == 2


def test_a_juez_added_by_the_form_is_available_today_too(org_client):
    form = {"first_name": "Ana", "last_name": "Yépez", "username": "ayepez"}
    form |= {"password1": "sota-caballo-rey", "password2": "sota-caballo-rey"}
    response = org_client.post(reverse("jueces:list"), form, follow=True)
    assert "Ana Yépez can now sign in as ayepez, and is available today." in response.content.decode()
    assert JuezDay.objects.filter(juez__username="ayepez").count() == 1


@pytest.mark.parametrize(
    "text, reason",
    [
        ("nombre;apellido;usuario\nRosa;;rguaman\n", "apellido is empty"),
        ("nombre;apellido;usuario\nRosa;Guamán;r guaman\n", "usuario: "),
        ("nombre;apellido;usuario;clave\nRosa;Guamán;rguaman;corta\n", "clave: This password is too short"),
        ("nombre;apellido;usuario\nRosa;Guamán;rguaman\nRosa;Guamán;RGUAMAN\n", "usuario repeats line 2's"),
        ("nombre;apellido;usuario\nRosa\u200b;Guamán;rguaman\n", "nombre"),
        ("nombre;apellido;usuario\nRosa;Guamán;juez1\n", "already exists"),
        ("nombre;apellido;usuario\nRosa;Guamán;juezl\n", "which reads the same"),
        ("nombre;apellido;usuario\nRosa;Guamán\n", "2 cells; the header has 3"),
        ("nombre;apellido\nRosa;Guamán\n", "missing columns: usuario"),
        ("nombre;apellido;usuario;cedula\nRosa;Guamán;rguaman;1\n", "unknown columns: cedula"),
        ("nombre;apellido;usuario\n", "The file has no jueces."),
        ("nombre;apellido;usuario\n" + "Rosa;Guamán;r\n" * 201, "a file of jueces has at most 200"),
    ],
)
def test_every_bad_row_is_said_with_its_line_and_nothing_of_it_is_saved(org_client, text, reason):
    jueces(1)
    preview = jueces_csv.check(text)
    assert not preview.ok and any(reason in message for _line, message in preview.errors), preview.errors
    good = {row.values["usuario"] for row in preview.rows}
    _preview, made = jueces_csv.save(text, by=None)
    assert {juez.username for juez in made} == good
    assert get_user_model().objects.exclude(username="juez1").count() == len(good) + 1  # the organiser


def test_the_good_rows_are_imported_and_the_bad_ones_left_out_to_be_fixed(org_client):
    text = "nombre;apellido;usuario\nRosa;Guamán;rguaman\nLuis;;lpilco\n"
    page = org_client.post(reverse("jueces:import"), {"text": text, "confirm": ""}).content.decode()
    assert "1 juez imported, available today." in page and "Line 3: apellido is empty" in page
    assert get_user_model().objects.filter(username="rguaman").exists()
    assert not get_user_model().objects.filter(username="lpilco").exists()


def test_a_formula_is_read_back_as_the_text_it_was_and_excel_files_are_read(org_client):
    text = "nombre;apellido;usuario\n'=Rosa;Guamán;rguaman\n"
    [row] = jueces_csv.check(text).rows
    assert row.values["nombre"] == "=Rosa"
    latin = "nombre;apellido;usuario\r\nRosa;Guamán;rguaman\r\n".encode("cp1252")
    preview = jueces_csv.read(latin)
    assert preview.ok and preview.rows[0].values["apellido"] == "Guamán" and "not UTF-8" in preview.notice


def test_a_file_too_large_or_not_text_is_refused_whole(org_client):
    url = reverse("jueces:import")
    big = org_client.post(url, {"file": upload("x" * (jueces_csv.MAX_CSV_BYTES + 1)), "preview": ""})
    assert "The file is too large: at most 64 kB." in big.content.decode()
    utf16 = org_client.post(url, {"file": upload(GOOD.encode("utf-16")), "preview": ""})
    assert "looks like UTF-16" in utf16.content.decode()
    huge = org_client.post(url, {"text": "x" * (jueces_csv.MAX_CSV_BYTES + 1), "confirm": ""})
    assert huge.status_code == 200 and not get_user_model().objects.filter(is_staff=False).exists()
    assert org_client.post(url, {"preview": ""}).status_code == 200


def test_only_organisers_import_jueces(client):
    [juez] = jueces(1)
    client.force_login(juez)
    assert client.post(reverse("jueces:import"), {"text": GOOD, "confirm": ""}).status_code == 403
    assert client.get(reverse("jueces:template")).status_code == 403
    assert not get_user_model().objects.filter(username="rguaman").exists()


@pytest.mark.slow
def test_the_jueces_page_marks_availability_in_place_and_everyone_at_once(org_client):
    judges = jueces(3)
    JuezDay.objects.filter(juez__in=judges[1:]).delete()
    url = reverse("jueces:available", args=[judges[1].pk])
    answer = json.loads(org_client.post(url, {"available": "1"}, HTTP_X_REQUESTED_WITH="fetch").content)
    assert f'id="juez-{judges[1].pk}"' in answer["row"] and 'aria-pressed="true"' in answer["row"]
    assert "2 jueces available today." in answer["parts"]["available-count"]
    # Without the script, back to the row.
    plain = org_client.post(url, {"available": "0"})
    assert plain["Location"] == reverse("jueces:list") + f"#juez-{judges[1].pk}"
    assert org_client.post(url, {"available": "maybe"}).status_code == 400
    response = org_client.post(reverse("jueces:all_available"), follow=True)
    assert "2 jueces marked available today." in response.content.decode()
    assert {j.pk for j in judges} <= accounts.available_today()
    assert "3 jueces available today." in org_client.get(reverse("jueces:list")).content.decode()


@pytest.mark.slow
def test_the_pool_says_where_each_juez_is_free_refereeing_here_or_elsewhere_or_not_available(org_client):
    """Available is not free: a juez refereeing another championship's mesa is named with that championship
    and its table."""
    hall = sede(4)
    quito = championship(name="Copa de Quito", sede=hall)
    riobamba = championship(name="Copa de Riobamba", sede=sede(4))
    pairs(quito, 4)
    pairs(riobamba, 4)
    free, busy_there, busy_here, away = jueces(4)
    JuezDay.objects.filter(juez=away).delete()
    for champ in (quito, riobamba):
        draws.draw_bracket(champ, seed=7, by=None)
    there = quito.mesas.filter(pair_a__isnull=False, pair_b__isnull=False).first()
    seating.assign_table(there, 3, busy_there, by=None)
    here = riobamba.mesas.filter(pair_a__isnull=False, pair_b__isnull=False).first()
    seating.assign_table(here, 1, busy_here, by=None)
    states = {row.juez: (row.state, row.mesa) for row in seating.pool(riobamba)}
    assert states == {
        free: (seating.FREE, None),
        busy_there: (seating.ELSEWHERE, there),
        busy_here: (seating.HERE, here),
        away: (seating.UNAVAILABLE, None),
    }
    page = org_client.get(reverse("tournament:tables", args=[riobamba.pk])).content.decode()
    row = page[page.index(f'id="juez-{busy_there.pk}"') :].split("</li>")[0]
    assert "refereeing elsewhere" in row and "Copa de Quito" in row and "table 3" in row
    assert "Jueces today: 1 free, 1 refereeing here, 1 refereeing elsewhere, 1 not available." in page
    # Marked available in place: its row and the counts come back.
    url = reverse("tournament:juez_available", args=[riobamba.pk, away.pk])
    answer = json.loads(org_client.post(url, {"available": "1"}, HTTP_X_REQUESTED_WITH="fetch").content)
    assert 'data-state="free"' in answer["row"] and "2 free" in answer["parts"]["pool-counts"]
    assert org_client.post(url, {"available": "x"}).status_code == 400
    plain = org_client.post(url, {"available": "0"})
    assert plain["Location"] == reverse("tournament:tables", args=[riobamba.pk]) + f"#juez-{away.pk}"
    # Everyone available from the tables page, back to it.
    done = org_client.post(reverse("jueces:all_available"), {"campeonato": riobamba.pk})
    assert done["Location"] == reverse("tournament:tables", args=[riobamba.pk])
    assert away.pk in accounts.available_today()


def test_a_championship_with_no_juez_says_so_on_its_tables_page(org_client):
    champ = championship()
    page = org_client.get(reverse("tournament:tables", args=[champ.pk])).content.decode()
    assert 'id="no-jueces"' in page and reverse("jueces:list") in page
