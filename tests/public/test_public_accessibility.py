"""axe-core on the public pages, at the size each is read at: the scoreboard on a tablet and a phone, the projector
at 1920×1080, the bracket, the standings and a pair's own page on a phone, and what anyone reaches from them (the
home page, the sign-in, the rules, the guides). No serious or critical violation
(contrast of 4.5:1, names on links and buttons, a language on the page...), with a mesa decided and one in play,
so that the score's chips, the statuses and the latest claim are all on screen."""

import pytest
from playwright.sync_api import expect

from tests.support.public import played  # noqa: F401  (the fixture)
from tests.support.tablet import violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"projector": (1920, 1080), "tablet": (1024, 768), "phone": (390, 844)}


@pytest.mark.parametrize(
    "path, size, shown",
    [
        ("/en-vivo/{pk}/", "tablet", "#scoreboard tbody tr"),
        ("/en-vivo/{pk}/", "phone", "#scoreboard tbody tr"),
        ("/en-vivo/{pk}/proyector/", "projector", "#projector tbody tr"),
        ("/campeonatos/{pk}/llaves/", "tablet", ".brackets-viewer .match"),
        ("/campeonatos/{pk}/posiciones/", "phone", "table tbody tr"),
        ("/pareja/{token}/", "phone", "#live-score tbody tr"),
        ("/", "tablet", "main"),
        ("/cuenta/entrar/", "phone", "main form"),
        ("/reglas/", "phone", ".rules-document"),
        ("/ayuda/", "tablet", ".guide-index"),
        ("/ayuda/juez/", "phone", ".guide-shot img"),
        ("/ayuda/organizador/", "tablet", ".guide-shot img"),
    ],
)
def test_no_serious_violation(played, live_server, page, path, size, shown):  # noqa: F811
    in_play = played.mesas.get(bracket="W", round=1, position=2)
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server.url + path.format(pk=played.pk, token=in_play.pair_a.token))
    expect(page.locator(shown).first).to_be_visible()
    assert violations(page, live_server) == []
