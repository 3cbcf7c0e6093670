"""The pairs' pages through Django's test client: a duplicate pair refused, the CSV import previewed then saved,
bad rows and files reported with nothing saved, the export, seeded pairs first."""

import pytest
from django.urls import reverse

from tests.support.factories import (
    championship,
)
from tournament.models import Pair

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


HEADER = "pareja,jugador_1,cedula_1,telefono_1,jugador_2,cedula_2,telefono_2,representante,club,cabeza_de_serie\n"


def upload(client, champ, content: bytes, name="parejas.csv"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(
        reverse("tournament:pairs_import", args=[champ.pk]), {"file": SimpleUploadedFile(name, content, "text/csv")}
    )


def pair_data(name, **extra):
    return {
        "name": name,
        "club": "Guano",
        "player1_name": "Luis Guamán",
        "player2_name": "Rosa Pilco",
        "representative": 1,
        **extra,
    }


def test_a_duplicate_pair_is_refused_with_a_clear_message(org_client):
    champ = championship()
    url = reverse("tournament:pair_new", args=[champ.pk])
    assert org_client.post(url, pair_data("Los Ases")).status_code == 302
    response = org_client.post(url, pair_data("los ases"))
    assert response.status_code == 200
    assert "Pair &quot;los ases&quot; is already registered." in response.content.decode()
    assert champ.pairs.count() == 1
    pair = champ.pairs.get()
    assert [(p.number, p.full_name, p.is_representative) for p in pair.players.all()] == [
        (1, "Luis Guamán", True),
        (2, "Rosa Pilco", False),
    ]


def test_csv_import_previews_then_saves(org_client):
    champ = championship()
    content = (
        HEADER + "Los Ases,Luis Guamán,0601234567,,Rosa Pilco,,,2,Riobamba,1\n"
        "Chimborazo,Ana Yépez,,,Juan Tene,,,,Guano,\n"
    ).encode()
    response = upload(org_client, champ, content)
    page = response.content.decode()
    assert "Import 2 pairs" in page and not champ.pairs.exists()
    assert "representante: 1 or 2" in page  # the help names the column's values
    text = response.context["preview"].text
    response = org_client.post(reverse("tournament:pairs_import", args=[champ.pk]), {"text": text, "confirm": "1"})
    assert response.status_code == 302
    ases = champ.pairs.get(name="Los Ases")
    assert ases.seed == 1 and ases.representative.full_name == "Rosa Pilco"
    exported = org_client.get(reverse("tournament:pairs_export", args=[champ.pk]) + "?formato=plain").content.decode()
    assert exported.splitlines()[0] == HEADER.strip()
    assert "Los Ases,Luis Guamán,0601234567,,Rosa Pilco,,,2,Riobamba,1" in exported


def test_the_excel_export_opens_in_excel_es_ec_and_comes_back_whole(org_client):
    champ = championship()
    content = (
        HEADER + "Los Ases,Luis Guamán,0601234567,,Rosa Pilco,,,2,Riobamba,1\n"
        'Chimborazo,Ana Yépez,,0991234567,Juan Tene,,,,"Guano; Chimborazo",\n'
    ).encode()
    text = upload(org_client, champ, content).context["preview"].text
    org_client.post(reverse("tournament:pairs_import", args=[champ.pk]), {"text": text, "confirm": "1"})
    response = org_client.get(reverse("tournament:pairs_export", args=[champ.pk]))
    data = response.content
    # Excel in es-EC: a BOM says UTF-8, ';' separates cells, CRLF ends rows.
    assert data.startswith(b"\xef\xbb\xbf") and response["Content-Type"] == "text/csv; charset=utf-8"
    lines = data[3:].decode().split("\r\n")
    assert lines[0] == HEADER.strip().replace(",", ";")
    assert "Los Ases;Luis Guamán;0601234567;;Rosa Pilco;;;2;Riobamba;1" in lines
    assert 'Chimborazo;Ana Yépez;;0991234567;Juan Tene;;;1;"Guano; Chimborazo";' in lines
    # The round trip: the file as Excel saves it back is imported into another championship unchanged.
    other = championship(name="Copa de Quito")
    preview = upload(org_client, other, data).context["preview"]
    assert preview.ok and not preview.notice
    org_client.post(reverse("tournament:pairs_import", args=[other.pk]), {"text": preview.text, "confirm": "1"})
    again = org_client.get(reverse("tournament:pairs_export", args=[other.pk])).content
    assert again == data
    assert org_client.get(reverse("tournament:pairs_export", args=[champ.pk]) + "?formato=xls").status_code == 400


def test_a_latin1_csv_from_excel_is_read_with_a_notice(org_client):
    champ = championship()
    content = ("pareja;jugador_1;jugador_2\nLos Niños;José Núñez;María Peñafiel\n").encode("cp1252")
    response = upload(org_client, champ, content)
    preview = response.context["preview"]
    assert preview.ok and preview.rows[0].values["jugador_1"] == "José Núñez"
    assert "read as Windows-1252" in preview.notice


@pytest.mark.parametrize(
    "content, line, reason",
    [
        (
            b"nombre,jugador1\nX,Y\n",
            1,
            "unknown columns: nombre, jugador1; missing columns: pareja, jugador_1, jugador_2",
        ),
        (HEADER.encode() + b"A,Ana,,,Bea,,,,,\n\nB,Carla,,,Dora,,,,,\n", 3, "empty row"),
        (HEADER.encode() + b"A,Ana,,,Bea,,,,,\nA,Carla,,,Dora,,,,,\n", 3, 'pair "A" is repeated (line 2)'),
        (
            HEADER.encode() + b"A,Ana,,,Bea,,,,,cinco\n",
            2,
            'cabeza_de_serie must be a whole number from 1 to 512, not "cinco"',
        ),
        (HEADER.encode() + b"A,Ana,,,,,,,,\n", 2, "jugador_2 is empty"),
        (HEADER.encode() + b"A,Ana,,,Bea\n", 2, "5 cells; the header has 10"),
        (
            HEADER.encode() + b"A,Ana,0601,,Bea,,,,,\nB,Carla,,,Dora,0601,,,,\n",
            3,
            "ID number 0601 is repeated (line 2)",
        ),
    ],
)
def test_bad_csv_rows_are_reported_by_line_and_nothing_is_saved(org_client, content, line, reason):
    champ = championship()
    Pair.objects.create(championship=champ, name="Existente")
    response = upload(org_client, champ, content)
    preview = response.context["preview"]
    assert (line, reason) in [(n, r) for n, r in preview.errors] or any(
        n == line and reason in r for n, r in preview.errors
    ), preview.errors
    assert "nothing was saved" in response.content.decode()
    # The valid lines are kept: the confirmation offers them alone (none, when none is valid).
    assert ('name="confirm"' in response.content.decode()) == bool(preview.rows)
    assert champ.pairs.count() == 1


@pytest.mark.slow
def test_a_player_already_in_another_pair_is_refused(org_client):
    champ = championship()
    url = reverse("tournament:pair_new", args=[champ.pk])
    assert org_client.post(url, pair_data("Los Ases", player1_id="0601234567")).status_code == 302
    response = org_client.post(url, pair_data("Las Sotas", player2_id="0601234567"))
    assert "ID number 0601234567 already plays in the pair &quot;Los Ases&quot;." in response.content.decode()
    assert champ.pairs.count() == 1


def test_a_pair_already_registered_is_a_bad_row(org_client):
    champ = championship()
    Pair.objects.create(championship=champ, name="Los Ases")
    preview = upload(org_client, champ, (HEADER + "los ases,Ana,,,Bea,,,,,\n").encode()).context["preview"]
    assert preview.errors == [(2, 'pair "los ases" is already registered')]


@pytest.mark.parametrize("content", ["pareja,jugador_1,jugador_2\nA,Ana,Bea\n".encode("utf-16"), b"\x81\x8d\x8f\x90"])
def test_a_file_in_a_bad_encoding_is_refused_as_a_whole(org_client, content):
    champ = championship()
    response = upload(org_client, champ, content)
    page = response.content.decode()
    assert response.status_code == 200
    assert "CSV UTF-8" in page
    assert not champ.pairs.exists()


def test_confirming_a_tampered_preview_is_checked_again_and_saves_only_its_valid_lines(org_client):
    champ = championship()
    text = HEADER + "A,Ana,,,Bea,,,,,\nA,Carla,,,Dora,,,,,\n"
    response = org_client.post(reverse("tournament:pairs_import", args=[champ.pk]), {"text": text, "confirm": "1"})
    assert response.status_code == 200
    assert list(champ.pairs.values_list("name", flat=True)) == ["A"] and "Carla" not in str(
        list(champ.pairs.values_list("players__full_name", flat=True))
    )
    assert "Line 3: pair &quot;A&quot; is repeated (line 2)" in response.content.decode()


def test_seeded_pairs_are_listed_first(org_client):
    champ = championship()
    Pair.objects.create(championship=champ, name="Aaa sin siembra")
    Pair.objects.create(championship=champ, name="Zzz", seed=1)
    page = org_client.get(reverse("tournament:pairs", args=[champ.pk])).content.decode()
    assert page.index("Zzz") < page.index("Aaa sin siembra")
