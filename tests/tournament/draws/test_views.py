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


@pytest.mark.slow
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


def test_the_draw_shows_the_expected_pairs_then_the_desk_waits_or_draws_without_them(org_client):
    champ = championship()
    present = pairs(champ, 5)
    late = Pair.objects.create(championship=champ, name="Los Tardíos", seed=2)
    Pair.objects.create(championship=champ, name="Los Retirados", arrival="withdrawn")
    url = reverse("tournament:draw", args=[champ.pk])
    page = org_client.post(url, {"seed": "7"}).content.decode()
    assert "1 pair is still expected" in page and f'id="pair-{late.pk}"' in page
    # The withdrawn pair is not asked about; the expected one is checked in or withdrawn right there.
    assert "Los Retirados" not in page and 'name="next" value="draw"' in page
    assert "Present: 5 · expected: 1 · withdrawn: 1." in page
    assert 'id="draw-without"' in page and 'id="wait"' in page and not champ.mesas.exists()
    # The same page is the draw's tab, and it lights that tab.
    tab = org_client.get(url).content.decode()
    assert f'nav-link active" href="{url}"' in tab and "1 pair is still expected" in tab
    org_client.post(url, {"seed": "7", "confirm": "1"})
    drawn = {p for m in champ.mesas.all() for p in (m.pair_a_id, m.pair_b_id) if p}
    assert drawn == {p.pk for p in present} and late.pk not in drawn
    assert champ.mesas.count() == 2 * 5 - 1  # double elimination of 5 pairs, the reset included
    late.refresh_from_db()
    assert late.arrival == "expected"  # it may still come: the desk adds it to the draw until play starts
    # The correction's page is the draw's too: it lights that tab, not the summary's.
    correct = org_client.get(reverse("tournament:draw_correct", args=[champ.pk])).content.decode()
    assert f'nav-link active" href="{url}"' in correct and correct.count("nav-link active") == 1


def test_with_no_pair_expected_the_draw_is_made_at_once(org_client):
    champ = championship()
    pairs(champ, 4)
    Pair.objects.create(championship=champ, name="Los Retirados", arrival="withdrawn")
    org_client.post(reverse("tournament:draw", args=[champ.pk]), {"seed": "7"})
    assert champ.mesas.exists()


def test_the_draw_is_refused_with_fewer_than_two_present(org_client):
    champ = championship()
    pairs(champ, 3, present=False)
    pairs_page = reverse("tournament:pairs", args=[champ.pk])
    response = org_client.post(reverse("tournament:draw", args=[champ.pk]), {"seed": "", "confirm": "1"}, follow=True)
    assert "At least two pairs must be present (checked in) to draw the bracket." in response.content.decode()
    page = org_client.get(pairs_page).content.decode()
    assert "Present: 0 · expected: 3 · withdrawn: 0." in page
    response = org_client.post(reverse("tournament:pairs_all_present", args=[champ.pk]), follow=True)
    assert (
        "3 pairs marked present." in response.content.decode()
        and "Present: 3 · expected: 0 · withdrawn: 0." in response.content.decode()
    )
    assert champ.pairs.filter(arrival="present").count() == 3
