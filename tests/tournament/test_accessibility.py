"""axe-core on the organiser's pages, signed in, with a mesa decided and one in play (its row on the control board
stands out in yellow): no serious or critical violation. The control board is read on a tablet and a phone too."""

import pytest
from playwright.sync_api import expect

from tests.support.factories import organiser
from tests.support.public import played  # noqa: F401  (the fixture)
from tests.support.tablet import login, violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGES = [
    "/campeonatos/{pk}/",
    "/campeonatos/{pk}/editar/",
    "/campeonatos/{pk}/parejas/",
    "/campeonatos/{pk}/parejas/nueva/",
    "/campeonatos/{pk}/parejas/importar/",
    "/campeonatos/{pk}/sorteo/corregir/",
    "/campeonatos/{pk}/mesas/",
    "/resoluciones/{pk}/",
    "/auditoria/",
]


@pytest.mark.parametrize("path", PAGES)
def test_no_serious_violation(played, live_server, page, path):  # noqa: F811
    login(page.context, live_server, organiser())
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(live_server.url + path.format(pk=played.pk))
    expect(page.locator("main")).to_be_visible()
    assert violations(page, live_server) == []


@pytest.mark.parametrize("width, height", [(1024, 768), (390, 844)])
def test_the_control_board_with_a_mesa_in_play(played, live_server, page, width, height):  # noqa: F811
    login(page.context, live_server, organiser())
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/campeonatos/{played.pk}/control/")
    expect(page.locator("tr.status-in_play")).to_have_count(1)
    assert violations(page, live_server) == []
