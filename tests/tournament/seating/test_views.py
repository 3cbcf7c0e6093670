"""The tables page through Django's test client, across championships."""

import pytest
from django.urls import reverse

from tests.support.factories import (
    championship,
    jueces,
    pairs,
)
from tournament.draws import draws
from tournament.seating import seating

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english"), pytest.mark.slow]


def test_the_tables_page_names_jueces_and_where_each_is_busy_and_says_what_was_assigned(org_client):
    other = championship(name="Copa de Quito")
    pairs(other, 2)
    draws.draw_bracket(other, seed=1, by=None)
    judges = jueces(2)
    judges[0].first_name, judges[0].last_name = "Ana", "Pérez"
    judges[0].save()
    seating.assign_tables(other, by=None)  # Ana referees in the Copa de Quito
    champ = championship(name="Campeonato de Riobamba", sede=other.sede)  # the same sede: its tables are shared
    pairs(champ, 4)
    draws.draw_bracket(champ, seed=1, by=None)
    url = reverse("tournament:tables", args=[champ.pk])
    response = org_client.post(url, follow=True)
    page = response.content.decode()
    assert (
        "2 mesas assigned: Winners&#x27; bracket R1-1: table 2, juez juez2; "
        "Winners&#x27; bracket R1-2: table 3, no juez." in page
    )
    jueces_list = page[page.index('id="jueces"') :]
    ana = jueces_list[jueces_list.index(f'id="juez-{judges[0].pk}"') :].split("</li>")[0]
    assert "Ana Pérez" in ana and "refereeing elsewhere" in ana and "Copa de Quito, Winners&#x27; bracket R1-1" in ana
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
