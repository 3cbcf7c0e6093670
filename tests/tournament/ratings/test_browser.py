"""The ranking and a person's page in a browser, at a tablet's width (1024 px) and a phone's (390 px): nothing to
scroll sideways, the chart drawn with no script, no serious accessibility violation (axe). Screenshots go to
/tmp/ratings-*.png, to look at."""

import pytest
from playwright.sync_api import expect

from tests.support.tablet import violations
from tournament.models import Player

from .conftest import edition, play_all, roster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"tablet": (1024, 768), "phone": (390, 844)}


@pytest.fixture
def rated():
    """Two editions of eight pairs of two clubs, with cédulas (which no page shows)."""
    pairs = roster(4) + [
        (f"Guano {n}", "Guano", [(f"Guaneño {n}A", f"06{n}1"), (f"Guaneño {n}B", "")]) for n in range(1, 5)
    ]
    play_all(edition(2025, pairs))
    play_all(edition(2026, pairs), pick=lambda mesa: "B")
    return Player.objects.filter(full_name="Guaneño 1A").first().person  # one person, in both editions


@pytest.mark.parametrize("size", WIDTHS)
def test_the_ranking_and_a_persons_page_read_at_a_tablets_and_a_phones_width(rated, live_server, page, size):
    width, height = WIDTHS[size]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server.url + "/jugadores/")
    expect(page.locator("#ranking tbody tr").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.select_option("#club", "guano")
    page.click("#ranking-filter button[type=submit]")
    expect(page).to_have_url(live_server.url + "/jugadores/?club=guano")
    rows = page.locator("#ranking tbody tr")
    expect(rows.first).to_be_visible()
    assert all("Guano" in text for text in rows.all_inner_texts())
    page.screenshot(path=f"/tmp/ratings-ranking-{size}.png", full_page=True)
    assert violations(page, live_server) == []

    page.goto(live_server.url + f"/jugadores/{rated.pk}/")
    chart = page.locator("#rating-chart")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["width"] <= width and box["height"] > 50
    assert page.locator("#rating-chart circle.dot").count() == rated.rating.mesas
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    body = page.locator("body").inner_text()
    assert "0611" not in body and "Guaneño 1B" in body
    page.screenshot(path=f"/tmp/ratings-person-{size}.png", full_page=True)
    assert violations(page, live_server) == []
