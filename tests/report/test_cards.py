"""The cards of the day (``report.cards``): every pair's card and one for each physical table of the sede, in one PDF,
six to a sheet."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.support.factories import championship, jueces, organiser, pairs
from tests.support.planilla import keep_rendering, pages_text
from tournament.draws import draws
from tournament.seating import seating

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_one_pdf_holds_every_pair_card_with_its_players_and_every_table_card_six_to_a_sheet(client):
    champ = championship(name="Copa Chimborazo", tables=10)
    made = pairs(champ, 16)
    made[0].name = "Los Invencibles de la Costa y la Sierra " * 3  # the longest name a pair may have
    made[0].name = made[0].name[:120]
    made[0].save()
    jueces(8)
    draws.draw_bracket(champ, seed=1, by=None)
    seating.assign_tables(champ, by=None)
    # Eight mesas of the first round are seated; the sede has ten tables, and each gets its card once.
    assert champ.mesas.exclude(table_number=None).count() == 8
    client.force_login(organiser())

    response = client.get(reverse("report:cards", args=[champ.pk]), HTTP_ACCEPT_LANGUAGE="es")

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pages = pages_text(response.content)
    assert len(pages) == 5  # 16 pair cards and 10 table cards, 26 cards at six a sheet
    assert len(PdfReader(io.BytesIO(response.content)).pages) == 5
    whole = " ".join(pages)
    for pair in made:
        assert " ".join(pair.name.split()[:4]) in whole
        for player in pair.players.all():
            assert player.full_name in whole
        assert pair.token in whole.replace(" ", "")  # the pair's private link, as its QR code holds it
    for table in champ.sede.tables.all():
        # Its PIN, and its QR code's address: the table's PIN page, the same for every mesa played there.
        assert f"Mesa física {table.number}" in whole and table.pin in whole
        assert reverse("access:table_pin", args=[table.pk]) in whole.replace(" ", "")
    assert whole.count("TARJETA DE LA MESA") == 10
    assert pages[0].count("TARJETA DE PAREJA") == 6 and pages[4].count("TARJETA DE LA MESA") == 2
    keep_rendering(response.content, "cards-es")


def test_only_organisers_and_the_director_print_the_cards(client):
    champ = championship()
    pairs(champ, 2)
    url = reverse("report:cards", args=[champ.pk])
    assert client.get(url).status_code == 302  # to the sign-in
    client.force_login(jueces(1)[0])
    assert client.get(url).status_code == 403
    assert client.get(reverse("report:cards", args=[987654])).status_code == 404
    client.force_login(organiser())
    assert client.post(url).status_code == 405
