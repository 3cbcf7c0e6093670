"""The organisers' and the public pages through Django's test client: who may see what, and query counts
that do not grow with the championship. Each feature's own pages are tested in its folder."""

import pytest
from django.urls import reverse

from tests.support.factories import (
    championship,
    finished_state,
    jueces,
    organiser,
    pairs,
    play_to_the_end,
    start,
)
from tournament.draws import draws
from tournament.results import results
from tournament.seating import seating

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_public_pages_are_public_and_the_rest_needs_an_organiser(english_client, django_user_model):
    champ = championship()
    assert english_client.get(reverse("home")).status_code == 200
    assert english_client.get(reverse("tournament:bracket", args=[champ.pk])).status_code == 200
    assert english_client.get(reverse("tournament:standings", args=[champ.pk])).status_code == 200
    private = reverse("tournament:pairs", args=[champ.pk])
    response = english_client.get(private)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    english_client.force_login(django_user_model.objects.create_user("someone", is_staff=False))
    assert english_client.get(private).status_code == 403
    english_client.force_login(django_user_model.objects.create_user("staff_only", is_staff=True))
    assert english_client.get(private).status_code == 403
    english_client.force_login(organiser())
    assert english_client.get(private).status_code == 200


@pytest.fixture
def big_championship():
    champ = championship(tables=64)
    pairs(champ, 256)
    jueces(8)
    draws.draw_bracket(champ, seed=11, by=None)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    for mesa in champ.mesas.filter(bracket="W", round=1).exclude(table_number=None)[:20]:
        start(mesa)
        mesa.state = finished_state("B", 2, 1)
        results.record_result(mesa)
    return champ


@pytest.mark.parametrize("name", ["tournament:board", "tournament:bracket", "tournament:standings"])
@pytest.mark.slow
def test_big_pages_make_a_fixed_number_of_queries(org_client, big_championship, name, django_assert_max_num_queries):
    url = reverse(name, args=[big_championship.pk])
    # The board reads three more, whatever the size: its idle tables are the sede's (the sede, its
    # tables, and the tables the championships sharing them hold).
    with django_assert_max_num_queries(11 if name == "tournament:board" else 8):
        response = org_client.get(url)
    assert response.status_code == 200
    assert response.content.decode().count("Pareja 0") >= 256


@pytest.mark.slow
def test_round_robin_groups_have_their_own_standings(english_client):
    champ = championship(bracket_format="round_robin", group_size=4)
    pairs(champ, 8)
    draws.draw_bracket(champ, seed=8, by=None)
    assert set(champ.mesas.values_list("group", flat=True)) == {1, 2}
    mesa = champ.mesas.filter(group=1).first()
    results.record_walkover(mesa, "A", by=organiser())
    page = english_client.get(reverse("tournament:standings", args=[champ.pk]))
    tables = page.context["tables"]
    assert [t["group"] for t in tables] == [1, 2]
    leader = tables[0]["rows"][0]
    assert (leader["pair"], leader["won"], leader["chicas_won"]) == (mesa.pair_a, 1, 2)
    assert "Group 2" in page.content.decode()


@pytest.mark.slow
def test_elimination_standings_rank_the_finalists_first(english_client):
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=3, by=None)
    champion = play_to_the_end(champ)
    final = champ.mesas.get(bracket="GF")
    rows = english_client.get(reverse("tournament:standings", args=[champ.pk])).context["tables"][0]["rows"]
    assert [rows[0]["pair"], rows[1]["pair"]] == [champion, final.pair_b]
    assert [r["out"] for r in rows] == [False] + [True] * 15
