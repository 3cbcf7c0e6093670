"""The organiser's screens through Django's test client: who may see what,
bad input answered with a clear message and nothing saved, and query
counts that do not grow with the championship."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournament import accounts, draws, results, seating
from tournament.models import Championship, Mesa, Pair

from .factories import championship, dependent_in_play, finished_state, jueces, organiser, pairs, play_to_the_end, start

pytestmark = pytest.mark.django_db

HEADER = "pareja,jugador_1,cedula_1,telefono_1,jugador_2,cedula_2,telefono_2,representante,club,cabeza_de_serie\n"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def client(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def org_client(client):
    client.force_login(organiser())
    return client


def upload(client, champ, content: bytes, name="parejas.csv"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(
        reverse("tournament:pairs_import", args=[champ.pk]), {"file": SimpleUploadedFile(name, content, "text/csv")}
    )


# --- access -------------------------------------------------------------------


def test_public_pages_are_public_and_the_rest_needs_an_organiser(client, django_user_model):
    champ = championship()
    assert client.get(reverse("home")).status_code == 200
    assert client.get(reverse("tournament:bracket", args=[champ.pk])).status_code == 200
    assert client.get(reverse("tournament:standings", args=[champ.pk])).status_code == 200
    private = reverse("tournament:pairs", args=[champ.pk])
    response = client.get(private)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(django_user_model.objects.create_user("someone", is_staff=False))
    assert client.get(private).status_code == 403
    client.force_login(django_user_model.objects.create_user("staff_only", is_staff=True))
    assert client.get(private).status_code == 403
    client.force_login(organiser())
    assert client.get(private).status_code == 200


# --- the championship form ----------------------------------------------------


def test_a_championship_is_created_with_overrides_and_shows_its_rule_set(org_client):
    response = org_client.post(
        reverse("tournament:new"),
        {
            "name": "Copa Chimborazo",
            "start_date": "2026-11-21",
            "end_date": "2026-11-22",
            "ruleset_profile": "riobamba",
            "players_per_pair": 2,
            "bracket_format": "double",
            "group_size": 4,
            "advance_per_group": 0,
            "tables": 10,
            "appeal_window_minutes": 10,
            "rule_caida_limpia_points": "4",
        },
    )
    champ = Championship.objects.get(name="Copa Chimborazo")
    assert response.status_code == 302
    assert champ.ruleset_overrides == {"caida_limpia_points": 4}
    page = org_client.get(reverse("tournament:detail", args=[champ.pk])).content.decode()
    assert "Caída and limpia" in page and "4 points" in page


def test_a_bad_override_is_a_form_error_not_a_500(org_client):
    response = org_client.post(
        reverse("tournament:new"),
        {
            "name": "Copa",
            "start_date": "2026-11-21",
            "end_date": "2026-11-22",
            "ruleset_profile": "riobamba",
            "players_per_pair": 2,
            "bracket_format": "double",
            "group_size": 4,
            "advance_per_group": 0,
            "tables": 10,
            "appeal_window_minutes": 10,
            "rule_caida_limpia_points": "7",
        },
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Championship.objects.exists()


# --- pairs ----------------------------------------------------------------


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
    assert "A pair named &quot;los ases&quot; is already registered." in response.content.decode()
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
    assert "confirm" not in response.content.decode()
    assert champ.pairs.count() == 1


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


def test_confirming_a_tampered_preview_saves_nothing(org_client):
    champ = championship()
    text = HEADER + "A,Ana,,,Bea,,,,,\nA,Carla,,,Dora,,,,,\n"
    response = org_client.post(reverse("tournament:pairs_import", args=[champ.pk]), {"text": text, "confirm": "1"})
    assert response.status_code == 200 and not champ.pairs.exists()


# --- results ----------------------------------------------------------------


def test_a_correction_blocked_by_a_later_mesa_names_it_and_saves_nothing(org_client):
    champ = dependent_in_play()
    later = champ.mesas.get(bracket="W", round=2, position=1)
    first = champ.mesas.get(bracket="W", round=1, position=1)
    response = org_client.post(
        reverse("tournament:mesa_result", args=[champ.pk, first.pk]),
        {"winner": "B", "chicas_a": 0, "chicas_b": 2, "override": "on"},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "cannot be corrected" in page and f"Winners&#x27; bracket R2-1 (table {later.table_number})" in page
    first.refresh_from_db()
    assert first.winner == first.pair_a


def test_a_walkover_from_the_board(org_client):
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=5)
    mesa = champ.mesas.get(bracket="W", round=1, position=1)
    response = org_client.post(reverse("tournament:mesa_result", args=[champ.pk, mesa.pk]), {"winner": "A"})
    assert response.status_code == 302
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.WALKOVER


# --- query counts -------------------------------------------------------------


@pytest.fixture
def big_championship():
    champ = championship(tables=64)
    pairs(champ, 256)
    jueces(8)
    draws.draw_bracket(champ, seed=11)
    seating.assign_tables(champ)
    seating.start_round(champ, "W", 1)
    for mesa in champ.mesas.filter(bracket="W", round=1).exclude(table_number=None)[:20]:
        start(mesa)
        mesa.state = finished_state("B", 2, 1)
        results.record_result(mesa)
    return champ


@pytest.mark.parametrize("name", ["tournament:board", "tournament:bracket", "tournament:standings"])
def test_big_pages_make_a_fixed_number_of_queries(org_client, big_championship, name, django_assert_max_num_queries):
    url = reverse(name, args=[big_championship.pk])
    with django_assert_max_num_queries(8):
        response = org_client.get(url)
    assert response.status_code == 200
    assert response.content.decode().count("Pareja 0") >= 256


def test_round_robin_groups_have_their_own_standings(client):
    champ = championship(bracket_format="round_robin", group_size=4)
    pairs(champ, 8)
    draws.draw_bracket(champ, seed=8)
    assert set(champ.mesas.values_list("group", flat=True)) == {1, 2}
    mesa = champ.mesas.filter(group=1).first()
    results.record_walkover(mesa, "A")
    page = client.get(reverse("tournament:standings", args=[champ.pk]))
    tables = page.context["tables"]
    assert [t["group"] for t in tables] == [1, 2]
    leader = tables[0]["rows"][0]
    assert (leader["pair"], leader["won"], leader["chicas_won"]) == (mesa.pair_a, 1, 2)
    assert "Group 2" in page.content.decode()


def test_only_the_director_sees_and_uses_the_override(client):
    champ = championship()
    director = organiser("director")
    champ.director = director
    champ.save()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=5)
    seating.assign_tables(champ)
    seating.start_round(champ, "W", 1)
    first = champ.mesas.get(bracket="W", round=1, position=1)
    start(first)
    first.state = finished_state("A")
    results.record_result(first)
    loser_mesa = champ.mesas.get(pk=first.loser_to_id)
    # Another mesa feeding the losers' mesa finishes, so it can start.
    feeder = champ.mesas.filter(loser_to=loser_mesa).exclude(pk=first.pk).get()
    start(feeder)
    feeder.state = finished_state("A")
    results.record_result(feeder)
    seating.start_round(champ, "L", 1)
    seating.assign_tables(champ)
    start(champ.mesas.get(pk=loser_mesa.pk))
    url = reverse("tournament:mesa_result", args=[champ.pk, first.pk])
    client.force_login(organiser("org2"))
    assert "override" not in client.get(url).content.decode()
    client.force_login(director)
    assert 'name="override"' in client.get(url).content.decode()
    response = client.post(url, {"winner": "B", "chicas_a": 1, "chicas_b": 2, "override": "on"})
    assert response.status_code == 200 and "states its reason" in response.content.decode()  # Art. 18: said why
    response = client.post(
        url,
        {"winner": "B", "chicas_a": 1, "chicas_b": 2, "override": "on", "reason": "The juez misread the last conteo."},
    )
    assert response.status_code == 302
    first.refresh_from_db()
    winners_mesa = champ.mesas.get(pk=first.winner_to_id)
    assert first.winner == first.pair_b
    assert getattr(winners_mesa, "pair_" + first.winner_to_slot.lower()) == first.pair_b


def test_the_knockout_follows_the_groups(org_client):
    champ = championship(bracket_format="round_robin", group_size=4, advance_per_group=2)
    pairs(champ, 8)
    draws.draw_bracket(champ, seed=8)
    url = reverse("tournament:draw_knockout", args=[champ.pk])
    response = org_client.post(url, follow=True)
    assert "12 group mesas have no result yet." in response.content.decode()
    assert not champ.mesas.exclude(bracket="G").exists()
    for mesa in champ.mesas.all():
        results.record_walkover(mesa, "A")
    org_client.post(url)
    knockout = champ.mesas.exclude(bracket="G")
    # 4 pairs go on: two semi-finals and a final.
    assert knockout.count() == 3
    first_round = knockout.filter(round=1)
    tables = draws.group_standings(champ.mesas.filter(bracket="G"))
    winners = {rows[0].entrant for rows in tables.values()}
    assert winners <= {p for m in first_round for p in (m.pair_a_id, m.pair_b_id)}
    # Group winners do not meet in the first round.
    assert all({m.pair_a_id, m.pair_b_id} != winners for m in first_round)


def test_elimination_standings_rank_the_finalists_first(client):
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=3)
    champion = play_to_the_end(champ)
    final = champ.mesas.get(bracket="GF")
    rows = client.get(reverse("tournament:standings", args=[champ.pk])).context["tables"][0]["rows"]
    assert [rows[0]["pair"], rows[1]["pair"]] == [champion, final.pair_b]
    assert [r["out"] for r in rows] == [False] + [True] * 15


def test_the_format_cannot_change_once_drawn(org_client):
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=1)
    response = org_client.post(
        reverse("tournament:edit", args=[champ.pk]),
        {
            "name": champ.name,
            "start_date": "2026-11-21",
            "end_date": "2026-11-22",
            "ruleset_profile": "riobamba",
            "players_per_pair": 2,
            "bracket_format": "single",
            "group_size": 4,
            "advance_per_group": 0,
            "tables": 8,
            "appeal_window_minutes": 10,
        },
    )
    assert "The bracket is drawn: this can no longer change." in response.content.decode()
    champ.refresh_from_db()
    assert champ.bracket_format == "double"


def test_a_walkover_needs_both_pairs(org_client):
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=1)
    later = champ.mesas.get(bracket="W", round=2, position=1)
    response = org_client.post(reverse("tournament:mesa_result", args=[champ.pk, later.pk]), {"winner": "A"})
    assert "does not know both its pairs yet" in response.content.decode()
    later.refresh_from_db()
    assert later.status == Mesa.Status.WAITING


# --- tables across championships ------------------------------------------------


def test_the_tables_page_names_jueces_and_where_each_is_busy_and_says_what_was_assigned(org_client):
    other = championship(name="Copa de Quito")
    pairs(other, 2)
    draws.draw_bracket(other, seed=1)
    judges = jueces(2)
    judges[0].first_name, judges[0].last_name = "Ana", "Pérez"
    judges[0].save()
    seating.assign_tables(other)  # Ana referees in the Copa de Quito
    champ = championship(name="Campeonato de Riobamba")
    pairs(champ, 4)
    draws.draw_bracket(champ, seed=1)
    url = reverse("tournament:tables", args=[champ.pk])
    response = org_client.post(url, follow=True)
    page = response.content.decode()
    assert (
        "2 mesas assigned: Winners&#x27; bracket R1-1: table 2, juez juez2; "
        "Winners&#x27; bracket R1-2: table 3, no juez." in page
    )
    jueces_list = page[page.index('id="jueces"') :]
    assert "Ana Pérez" in jueces_list and "busy: Winners&#x27; bracket R1-1, Copa de Quito" in jueces_list
    mesa = champ.mesas.get(bracket="W", round=1, position=2)
    form = org_client.get(reverse("tournament:mesa_table", args=[champ.pk, mesa.pk])).content.decode()
    assert "Ana Pérez (busy: Winners&#x27; bracket R1-1 (table 1) in Copa de Quito)" in form
    response = org_client.post(
        reverse("tournament:mesa_table", args=[champ.pk, mesa.pk]), {"table_number": "4", "juez": judges[0].pk}
    )
    assert (
        "Ana Pérez is the juez of Winners&#x27; bracket R1-1 (table 1) in Copa de Quito." in response.content.decode()
    )
    response = org_client.post(
        reverse("tournament:mesa_table", args=[champ.pk, mesa.pk]), {"table_number": "4", "juez": ""}, follow=True
    )
    assert "Winners&#x27; bracket R1-2: table 4, no juez." in response.content.decode()


# --- check-in feeds the draw -------------------------------------------------------


def test_the_draw_asks_first_then_leaves_the_absent_pairs_out(org_client):
    champ = championship()
    present = pairs(champ, 5)
    late = Pair.objects.create(championship=champ, name="Los Tardíos", seed=2)
    url = reverse("tournament:draw", args=[champ.pk])
    page = org_client.post(url, {"seed": "7"}).content.decode()
    assert "1 pair is not present" in page and "Los Tardíos (seed 2)" in page
    assert "Draw with the 5 pairs present" in page and not champ.mesas.exists()
    org_client.post(url, {"seed": "7", "confirm": "1"})
    drawn = {p for m in champ.mesas.all() for p in (m.pair_a_id, m.pair_b_id) if p}
    assert drawn == {p.pk for p in present} and late.pk not in drawn
    assert champ.mesas.count() == 2 * 5 - 1  # double elimination of 5 pairs, the reset included


def test_the_draw_is_refused_with_fewer_than_two_present(org_client):
    champ = championship()
    pairs(champ, 3, present=False)
    pairs_page = reverse("tournament:pairs", args=[champ.pk])
    response = org_client.post(reverse("tournament:draw", args=[champ.pk]), {"seed": "", "confirm": "1"}, follow=True)
    assert "At least two pairs must be present (checked in) to draw the bracket." in response.content.decode()
    page = org_client.get(pairs_page).content.decode()
    assert "Present: 0 · absent: 3." in page
    response = org_client.post(reverse("tournament:pairs_all_present", args=[champ.pk]), follow=True)
    assert (
        "3 pairs marked present." in response.content.decode()
        and "Present: 3 · absent: 0." in response.content.decode()
    )
    assert champ.pairs.filter(checked_in=True).count() == 3


def test_seeded_pairs_are_listed_first(org_client):
    champ = championship()
    Pair.objects.create(championship=champ, name="Aaa sin siembra")
    Pair.objects.create(championship=champ, name="Zzz", seed=1)
    page = org_client.get(reverse("tournament:pairs", args=[champ.pk])).content.decode()
    assert page.index("Zzz") < page.index("Aaa sin siembra")


def test_the_walkover_form_names_the_pairs(org_client):
    champ = championship()
    pairs(champ, 2)
    draws.draw_bracket(champ, seed=1)
    mesa = champ.mesas.get(bracket="W", round=1)
    page = org_client.get(reverse("tournament:mesa_result", args=[champ.pk, mesa.pk])).content.decode()
    assert f"A · {mesa.pair_a.name}" in page and f"B · {mesa.pair_b.name}" in page


# --- the championship form and the Comité's accounts ----------------------------------


def test_the_championship_form_offers_directors_by_name_and_names_profiles_and_sources(org_client):
    director = organiser("ruth")
    director.first_name, director.last_name = "Ruth", "Vallejo"
    director.save()
    accounts.give_role(director, "director")
    jueces(1)
    page = org_client.get(reverse("tournament:new")).content.decode()
    director_field = page[page.index('name="director"') : page.index("</select>", page.index('name="director"'))]
    assert "Ruth Vallejo" in director_field and "juez1" not in director_field and "org" not in director_field
    # Each rule names the profile's value and its source as people know it.
    assert "as the profile says: no limit" in page  # the ronda limit, riobamba
    assert "(Riobamba reglamento, Art. 9a)" in page and "(Quito variant)" in page
    assert "Deck maker&#x27;s rules, Art. 15B" in page
    assert "seed 003" not in page and "002 Art." not in page
    assert 'data-formats="round_robin"' in page and 'data-formats="single"' in page
    page = org_client.post(reverse("tournament:new"), {"ruleset_profile": "pichincha"}).content.decode()
    assert "as the profile says: 30 points" in page  # the form sent back names the chosen profile's value


def test_only_the_committee_makes_organisers_and_directors(org_client):
    url = reverse("roles:list")
    assert org_client.get(url).status_code == 403
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert client.get(url).status_code == 302  # to sign in
    admin = get_user_model().objects.create_superuser("comite", password="cuarenta")
    client.force_login(admin)
    response = client.post(
        url,
        {
            "first_name": "Ruth",
            "last_name": "Vallejo",
            "username": "rvallejo",
            "password1": "tres-cuarenta",
            "password2": "tres-cuarenta",
            "role": "director",
        },
        follow=True,
    )
    assert "Ruth Vallejo can now sign in as rvallejo (Director)." in response.content.decode()
    ruth = get_user_model().objects.get(username="rvallejo")
    assert ruth in accounts.directors() and not ruth.is_staff
    client.post(
        url,
        {
            "first_name": "Ana",
            "last_name": "Paz",
            "username": "apaz",
            "password1": "tres-cuarenta",
            "password2": "tres-cuarenta",
            "role": "organiser",
        },
    )
    ana = get_user_model().objects.get(username="apaz")
    assert ana.is_staff and ana.has_perm("tournament.run_championship")
    bad = client.post(
        url,
        {
            "first_name": "X\x00",
            "last_name": "Y",
            "username": "xy",
            "password1": "tres-cuarenta",
            "password2": "tres-cuarenta",
            "role": "rey",
        },
    )
    assert bad.status_code == 200 and not get_user_model().objects.filter(username="xy").exists()
