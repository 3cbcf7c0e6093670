"""The ranking and a person's page: public at the venue and on the mirror, names and clubs only, the rating over
time drawn on the server (docs/ratings.md, "Pages")."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.support import factories
from tournament.models import Mesa, Player, Rating
from tournament.ratings import merging, pages, skill

from .conftest import edition, play_all, roster, walkover

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(db):
    """Eight pairs of Riobamba and four of Guano, with cédulas, played in double elimination."""
    pairs = roster(8) + [
        (f"Guano {n}", "Guano", [(f"Guaneño {n}A", f"06{n}1"), (f"Guaneño {n}B", f"06{n}2")]) for n in range(1, 5)
    ]
    champ = edition(2026, pairs)
    play_all(champ)
    return champ


@pytest.mark.slow
def test_the_ranking_lists_every_person_with_enough_rated_mesas_strongest_first(played):
    rows = list(pages.ranking())
    assert rows and all(r.mesas >= pages.RANKED_FROM for r in rows)
    left_out = Rating.objects.filter(mesas__lt=pages.RANKED_FROM)
    assert left_out.exists()  # the pairs out after two mesas
    assert [r.strength for r in rows] == sorted((r.strength for r in rows), reverse=True)
    page = Client().get(reverse("ratings:ranking")).content.decode()
    shown = re.findall(r'href="/jugadores/(\d+)/"', page)
    assert [int(pk) for pk in shown] == [r.person_id for r in rows]
    for rating in left_out:
        assert f'href="/jugadores/{rating.person_id}/"' not in page
    assert "0611" not in page  # no cédula


@pytest.mark.slow
def test_the_ranking_filters_by_club(played):
    client = Client()
    page = client.get(reverse("ratings:ranking"), {"club": "guano"}).content.decode()
    people = set(re.findall(r'href="/jugadores/(\d+)/"', page))
    guano = {str(p) for p in Player.objects.filter(pair__club="Guano").values_list("person_id", flat=True)}
    assert people and people <= guano
    assert '<option value="guano" selected>Guano</option>' in page
    # An unknown club is no filter; a page past the end is the last one.
    assert client.get(reverse("ratings:ranking"), {"club": "<x>", "pagina": "99"}).status_code == 200


@pytest.mark.slow
def test_a_persons_page_shows_its_championships_mesas_chicas_and_chart_and_no_cedula(played):
    player = Player.objects.get(full_name="Guaneño 1A")
    person = player.person
    page = Client().get(reverse("ratings:person", args=[person.pk])).content.decode()
    record = pages.record(person)
    decided = Mesa.objects.filter(status__in=Mesa.DECIDED).filter(pair_a=player.pair) | Mesa.objects.filter(
        status__in=Mesa.DECIDED, pair_b=player.pair
    )
    assert len(record.mesas) == decided.count() and record.won + record.lost == decided.count()
    chicas_won = sum(m.chicas_a if m.pair_a_id == player.pair_id else m.chicas_b for m in decided)
    assert record.chicas_won == chicas_won and f"{record.chicas_won} – {record.chicas_lost}" in page
    assert (
        'id="rating-chart"' in page
        and "<polyline" in page
        and "<script" not in page.split('id="rating-chart"')[1].split("</svg>")[0]
    )
    assert page.count('class="dot"') == person.rating.mesas
    assert "Guaneño 1B" in page and played.name in page
    assert "0611" not in page and "06" + "11" not in page


@pytest.mark.slow
def test_a_walkover_is_on_the_page_without_chicas_or_rating(db):
    mesa = walkover(edition(2026, roster(4)))
    person = mesa.pair_a.players.first().person
    record = pages.record(person)
    [row] = record.mesas
    assert row["walkover"] and row["won"] and row["chicas"] == (0, 0) and row["strength"] is None
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("ratings:person", args=[person.pk])).content.decode()
    assert "walkover" in page and 'id="rating-chart"' not in page


@pytest.mark.slow
def test_a_merged_persons_page_leads_to_the_person_it_became(played):
    comite = factories.User.objects.create_superuser("comite", password=None)
    keep, gone = (Player.objects.get(full_name=name).person for name in ("Jugador 1A", "Guaneño 4B"))
    # Not the same championship for a merge: move one of them out first.
    other = edition(2027, [("Sola", "Quito", [("Otra persona", ""), ("Alguien más", "")])])
    gone = Player.objects.get(pair__championship=other, full_name="Otra persona").person
    merging.merge(keep, gone, by=comite)
    response = Client().get(reverse("ratings:person", args=[gone.pk]))
    assert response.status_code == 302 and response.url == reverse("ratings:person", args=[keep.pk])
    assert Client().get(reverse("ratings:person", args=[999999])).status_code == 404


def test_the_chart_is_the_strength_after_each_rated_mesa_from_the_newcomers():
    points = [(27.0, 8.0), (29.0, 7.0), (26.0, 6.5)]
    chart = pages.chart(points)
    line = [tuple(map(float, p.split(","))) for p in chart.line.split()]
    assert len(line) == 4 and len(chart.dots) == 3
    xs = [x for x, _y in line]
    assert xs == sorted(xs) and xs[0] == chart.left and xs[-1] == chart.right
    # Higher strength is higher on the chart (a smaller y).
    strengths = [skill.strength(*p) for p in [skill.NEW, *points]]
    ys = [y for _x, y in line]
    assert sorted(range(4), key=lambda i: strengths[i]) == sorted(range(4), key=lambda i: -ys[i])
    # From the lowest strength (0, the newcomer's) to the highest mean (29), every 10 points.
    assert [label for _y, label in chart.ticks] == ["0", "10", "20", "30"]
    assert pages.chart([]) is None


def test_the_pages_are_the_mirrors_too():
    from config import urls_mirror

    assert {"ratings:ranking", "ratings:person"} <= urls_mirror.PUBLIC
