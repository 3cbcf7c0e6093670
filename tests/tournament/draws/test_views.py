"""The draw's pages through Django's test client: the knockout after the groups, and check-in feeding the draw."""

import pytest
from django.urls import reverse

from tests.support.factories import (
    championship,
    organiser,
    pairs,
)
from tournament.draws import draws
from tournament.models import Pair
from tournament.results import results

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_the_knockout_follows_the_groups(org_client):
    champ = championship(bracket_format="round_robin", group_size=4, advance_per_group=2)
    pairs(champ, 8)
    draws.draw_bracket(champ, seed=8, by=None)
    url = reverse("tournament:draw_knockout", args=[champ.pk])
    response = org_client.post(url, follow=True)
    assert "12 group mesas have no result yet." in response.content.decode()
    assert not champ.mesas.exclude(bracket="G").exists()
    desk = organiser("desk")
    for mesa in champ.mesas.all():
        results.record_walkover(mesa, "A", by=desk)
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
