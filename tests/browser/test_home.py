"""The home page in a real browser, at tablet size, with no other host."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_home_loads_only_local_assets(live_server, page):
    hosts = set()
    page.on("request", lambda request: hosts.add(request.url.split("/")[2]))
    page.goto(live_server.url)
    assert page.locator("nav .navbar-brand").inner_text() == "Mesa de Control"
    assert hosts == {live_server.url.split("/")[2]}


def test_language_can_be_switched_to_english(live_server, page):
    page.goto(live_server.url)
    with page.expect_navigation():
        page.select_option("select[name=language]", "en")
    assert page.locator("html").get_attribute("lang") == "en"
