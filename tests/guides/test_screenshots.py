"""The guides' pictures: real pages of the demo championship in Chromium.

Each picture is taken here, in Spanish and in English, and the page it
shows is checked first (in that language). In the suite they go to a
temporary folder; ``make guide-screenshots`` runs this file with
``GUIDE_SCREENSHOTS=1``, which writes them into ``static/help/es/`` and
``static/help/en/`` (committed, served by the app to venues without
internet; a guide shows those of its page's language). One test takes
them all: building the demo costs about 20 s, and a transactional test's
data do not outlive it.
"""

import os
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import expect

from refereeing.models import Appeal
from tests.support.factories import group
from tournament.access import is_organiser
from tournament.accounts import accounts
from tournament.models import Championship, Mesa

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HELP = Path(__file__).resolve().parents[2] / "static" / "help"
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
# A list of two mesas fills a third of a phone: the rest would be an empty picture.
PHONE_LIST = {"width": 390, "height": 520}
# Whether an element stands in the middle half of the screen.
CENTRED = """element => {
    const box = element.getBoundingClientRect();
    return box.top > innerHeight / 4 && box.bottom < innerHeight * 3 / 4;
}"""


# Each language's folder of static/help/, its code for the site, and the words its pages must show.
LANGUAGES = {
    "es": (
        "es-ec",
        {
            "rules": "Reglamento de Riobamba",
            "import": "Importar CSV",
            "pin": "Nuevo PIN",
            "appeal": "Apelación",
            "mine": "Mis mesas",
            "live": "Marcador en vivo",
            "round": "CG ronda 1",
        },
    ),
    "en": (
        "en",
        {
            "rules": "Riobamba rulebook",
            "import": "Import CSV",
            "pin": "New PIN",
            "appeal": "Appeal",
            "mine": "My mesas",
            "live": "Live scoreboard",
            "round": "WB round 1",
        },
    ),
}


def shots(championship, words):
    """Each picture: its name, who looks (None: nobody signed in), the address, the size, what the page must
    show (``words``: in the page's language), and optionally what the picture must show (scrolled to the
    middle of the screen)."""
    c = championship.pk
    appeal = Appeal.objects.get()
    juez = appeal.mesa.juez.username
    pair = appeal.mesa.pair_a
    return [
        ("organizador-inicio", "organizador", "/", TABLET, championship.name),
        ("organizador-resumen", "organizador", f"/campeonatos/{c}/", TABLET, words["rules"]),
        ("organizador-parejas", "organizador", f"/campeonatos/{c}/parejas/", TABLET, words["import"]),
        ("organizador-mesas", "organizador", f"/campeonatos/{c}/mesas/", TABLET, words["pin"]),
        ("control-tablero", "organizador", f"/campeonatos/{c}/control/", TABLET, words["appeal"], ".appeal-badge"),
        ("juez-mis-mesas", juez, "/mesa/", PHONE_LIST, words["mine"]),
        ("juez-mesa", juez, f"/mesa/{appeal.mesa.pk}/", TABLET, pair.name),
        ("director-apelaciones", "director", "/apelaciones/", TABLET, appeal.mesa.pair_b.name),
        ("publico-marcador", None, f"/en-vivo/{c}/", TABLET, words["live"]),
        ("publico-proyector", None, f"/en-vivo/{c}/proyector/", TABLET, championship.name),
        ("publico-llaves", None, f"/campeonatos/{c}/llaves/", TABLET, words["round"]),
        ("publico-pareja", None, f"/pareja/{pair.token}/", PHONE, pair.name),
    ]


@pytest.fixture
def demo(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    group(accounts.ORGANISERS_GROUP)
    group(accounts.JUECES_GROUP)
    call_command("demo", "--if-empty")
    return Championship.objects.first()  # this year's edition (last year's is older)


@pytest.fixture
def folder(tmp_path):
    if os.environ.get("GUIDE_SCREENSHOTS"):
        return HELP
    return tmp_path


def test_every_picture_of_the_guides_is_its_page_in_the_demo(live_server, browser, browser_context_args, demo, folder):
    assert demo.mesas.filter(status=Mesa.Status.IN_PLAY).exists()
    # The Director's pictures are a Director's alone: nothing of an organiser's shows on them (issue 33).
    assert demo.director.username == "director" and not is_organiser(demo.director)
    for language, (code, words) in LANGUAGES.items():
        (folder / language).mkdir(parents=True, exist_ok=True)
        for name, username, path, size, shown, *focus in shots(demo, words):
            context = browser.new_context(**{**browser_context_args, "viewport": size, "locale": code})
            # The language as the bar's chooser leaves it, whatever the browser asks for.
            cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": code, "url": live_server.url}]
            if username:
                client = Client()
                client.force_login(get_user_model().objects.get(username=username))
                cookies.append(
                    {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}
                )
            context.add_cookies(cookies)
            page = context.new_page()
            response = page.goto(live_server.url + path)
            assert response.ok, (language, name, response.status)
            expect(page.locator("html")).to_have_attribute("lang", re.compile(f"^{language}"))
            expect(page.locator("body")).to_contain_text(shown)
            # The live pages fill themselves in after the first paint; the picture waits for them.
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(500)
            for selector in focus:
                # The board puts its rows in again once its stream connects, which can undo a scroll made
                # before, or move what it scrolled to: scroll until it stays in the middle of the screen.
                expect(page.locator("#board-updated")).not_to_be_empty()
                for _attempt in range(20):
                    page.wait_for_timeout(500)
                    if page.locator(selector).first.evaluate(CENTRED):
                        break
                    page.locator(selector).first.evaluate("element => element.scrollIntoView({block: 'center'})")
                assert page.locator(selector).first.evaluate(CENTRED), (language, name, selector)
            picture = folder / language / f"{name}.png"
            page.screenshot(path=str(picture))
            context.close()
            assert picture.stat().st_size > 5000, (language, name)
