"""The live updates in real browsers, against the production application (``config.asgi``) served by uvicorn.

A claim tapped on the juez's screen reaches the public scoreboard, the
projector, the pair's page and the mesa's second tablet, each in another
browser, within 2 s, pushed by the streams (``live.streams.app``); a page that
goes offline catches up when it is back; the call to a table appears on
the projector and on the pair's page as the organiser assigns it.
"""

import time
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

from refereeing.claimlog.log import record_claim
from tests.support.factories import championship, jueces, mesa_in_play, organiser, pairs, play
from tests.support.tablet import login
from tournament.draws import draws

pytestmark = [pytest.mark.browser]

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts"
PUSHED_WITHIN_MS = 2000


@pytest.fixture
def in_play(asgi_server):
    """A championship of four pairs, its first round at its tables, one mesa in play (a mano logged)."""
    return mesa_in_play("Copa Tungurahua")


def opened(browser, url, viewport):
    page = browser.new_context(viewport=viewport, locale="es-EC").new_page()
    page.goto(url)
    return page


def streaming(page):
    """Wait until the page's stream is open."""
    expect(page.locator("[data-live=stream]")).to_have_count(1)


def test_a_claim_tapped_on_the_juez_screen_shows_everywhere_within_2_s(asgi_server, in_play, browser, page):
    ARTIFACTS.mkdir(exist_ok=True)
    url = asgi_server.url
    champ = in_play.championship
    board = opened(browser, f"{url}/en-vivo/{champ.pk}/", {"width": 1024, "height": 768})
    projector = opened(browser, f"{url}/en-vivo/{champ.pk}/proyector/", {"width": 1920, "height": 1080})
    phone = opened(browser, f"{url}/pareja/{in_play.pair_a.token}/", {"width": 390, "height": 844})
    desk = browser.new_context(viewport={"width": 1024, "height": 768}, locale="es-EC").new_page()
    login(desk.context, asgi_server, organiser())
    desk.goto(f"{url}/campeonatos/{champ.pk}/control/")
    second_tablet = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True).new_page()
    for tablet in (page, second_tablet):
        login(tablet.context, asgi_server, in_play.juez)
        tablet.goto(f"{url}/mesa/{in_play.pk}/")
        expect(tablet.locator("#st-chica")).not_to_have_text("–")
    for watcher in (board, projector, phone, desk, second_tablet):
        streaming(watcher)
    row = f"tr[data-mesa='{in_play.pk}']"
    expect(board.locator(row)).not_to_contain_text("Caída")

    page.tap(".screen [data-claim=caida][data-pair=A]")
    tapped = time.monotonic()
    expect(board.locator(row)).to_contain_text("2 – 0", timeout=PUSHED_WITHIN_MS)
    expect(board.locator(row)).to_contain_text("Caída · A", timeout=PUSHED_WITHIN_MS)
    expect(board.locator(f"{row} .chip.tanto")).to_have_count(1)  # 2 points: one tanto (Art. 14)
    expect(projector.locator(row)).to_contain_text("2 – 0", timeout=PUSHED_WITHIN_MS)
    expect(phone.locator(f"#live-score {row}")).to_contain_text("2 – 0", timeout=PUSHED_WITHIN_MS)
    expect(second_tablet.locator(".pair-card[data-side=A] .score-num")).to_have_text("2", timeout=PUSHED_WITHIN_MS)
    expect(desk.locator(f"#board {row}")).to_contain_text("2–0 puntos", timeout=PUSHED_WITHIN_MS)
    assert time.monotonic() - tapped < 2 * PUSHED_WITHIN_MS / 1000  # every one of them, not each within its own 2 s

    board.screenshot(path=str(ARTIFACTS / "live-scoreboard-1024.png"))
    projector.screenshot(path=str(ARTIFACTS / "live-projector-1920.png"))
    phone.screenshot(path=str(ARTIFACTS / "live-pair-390.png"), full_page=True)
    for watcher in (board, phone):
        assert watcher.evaluate("document.documentElement.scrollWidth") <= watcher.viewport_size["width"]


def test_the_pages_follow_their_streams_on_a_server_of_their_own(asgi_server, in_play, browser, page, settings):
    """STREAMS_URL: pages served at one address open their streams at another. Here it is the same server under
    another name, which is another origin to the browser, as a second server is."""
    streams_at = asgi_server.url.replace("127.0.0.1", "localhost")
    settings.STREAMS_URL = streams_at
    directives = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]  # as config.settings makes them from STREAMS_URL
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {**directives, "connect-src": ["'self'", streams_at]}}
    board = opened(browser, f"{asgi_server.url}/en-vivo/{in_play.championship_id}/", {"width": 1024, "height": 768})
    login(page.context, asgi_server, in_play.juez)
    page.goto(f"{asgi_server.url}/mesa/{in_play.pk}/")
    for watcher in (board, page):
        streaming(watcher)
    assert board.locator("[data-stream]").get_attribute("data-stream").startswith(f"{streams_at}/flujo/")
    record_claim(in_play, {"kind": "caida", "pair": "B"}, uuid.uuid4(), user=in_play.juez)
    expect(board.locator(f"tr[data-mesa='{in_play.pk}']")).to_contain_text("0 – 2", timeout=PUSHED_WITHIN_MS)
    expect(page.locator(".pair-card[data-side=B] .score-num")).to_have_text("2", timeout=PUSHED_WITHIN_MS)


def test_a_page_that_went_offline_catches_up_when_it_is_back(asgi_server, in_play, browser):
    board = opened(browser, f"{asgi_server.url}/en-vivo/{in_play.championship_id}/", {"width": 390, "height": 844})
    streaming(board)
    row = board.locator(f"tr[data-mesa='{in_play.pk}']")
    board.context.set_offline(True)
    board.wait_for_timeout(1500)  # the stream notices the drop and starts retrying
    record_claim(in_play, {"kind": "caida", "pair": "B"}, uuid.uuid4(), user=in_play.juez)
    board.wait_for_timeout(1000)
    expect(row).not_to_contain_text("0 – 2")  # nothing can reach it
    board.context.set_offline(False)
    expect(row).to_contain_text("0 – 2", timeout=5000)  # the snapshot after reconnecting
    record_claim(in_play, {"kind": "caida", "pair": "B"}, uuid.uuid4(), user=in_play.juez)
    expect(row).to_contain_text("0 – 4", timeout=PUSHED_WITHIN_MS)  # and the stream goes on


def test_a_second_tablet_that_went_offline_fetches_the_claims_it_missed(asgi_server, in_play, browser, page):
    login(page.context, asgi_server, in_play.juez)
    page.goto(f"{asgi_server.url}/mesa/{in_play.pk}/")
    expect(page.locator("#st-chica")).not_to_have_text("–")
    streaming(page)
    page.context.set_offline(True)
    page.wait_for_timeout(1500)
    record_claim(in_play, {"kind": "caida", "pair": "B"}, uuid.uuid4(), user=in_play.juez)
    page.context.set_offline(False)
    # Back online, the stream's first event (the seq now) says a claim is missing.
    expect(page.locator(".pair-card[data-side=B] .score-num")).to_have_text("2", timeout=5000)


def test_the_call_to_a_table_appears_as_the_organiser_assigns_it(asgi_server, browser):
    champ = championship(name="Copa Cotopaxi")
    pairs(champ, 4)
    jueces(2)
    draws.draw_bracket(champ, seed=1, by=None)
    mesa = champ.mesas.filter(bracket="W", round=1).order_by("position").first()
    projector = opened(browser, f"{asgi_server.url}/en-vivo/{champ.pk}/proyector/", {"width": 1920, "height": 1080})
    phone = opened(browser, f"{asgi_server.url}/pareja/{mesa.pair_a.token}/", {"width": 390, "height": 844})
    for watcher in (projector, phone):
        streaming(watcher)
    expect(projector.locator("#calls")).to_contain_text("Ningún llamado")
    expect(phone.locator("#now")).to_contain_text("Todavía sin mesa física")

    desk = browser.new_context(viewport={"width": 1024, "height": 768}, locale="es-EC").new_page()
    login(desk.context, asgi_server, organiser())
    desk.goto(f"{asgi_server.url}/campeonatos/{champ.pk}/mesas/")
    desk.get_by_role("button", name="Asignar mesas y jueces libres").click()
    call = f"{mesa.pair_a.name} y {mesa.pair_b.name} → mesa física 1"
    expect(projector.locator("#calls")).to_contain_text(call, timeout=PUSHED_WITHIN_MS + 1000)
    expect(phone.locator("#now")).to_contain_text("Mesa física 1", timeout=PUSHED_WITHIN_MS + 1000)
    expect(phone.locator("#now.call-now")).to_have_count(1)
    projector.screenshot(path=str(ARTIFACTS / "live-projector-call-1920.png"))
    phone.screenshot(path=str(ARTIFACTS / "live-pair-call-390.png"), full_page=True)


def test_the_bracket_is_drawn_with_connectors_and_moves_live(asgi_server, in_play, browser):
    champ = in_play.championship
    other = champ.mesas.filter(bracket="W", round=1).exclude(pk=in_play.pk).get()
    bracket = opened(browser, f"{asgi_server.url}/campeonatos/{champ.pk}/llaves/", {"width": 1024, "height": 768})
    standings = opened(browser, f"{asgi_server.url}/campeonatos/{champ.pk}/posiciones/", {"width": 390, "height": 844})
    # The reset is drawn once it is needed: when the losers' bracket's finalist wins the grand final.
    expect(bracket.locator(".brackets-viewer .match")).to_have_count(champ.mesas.exclude(bracket="GR").count())
    assert bracket.locator(".brackets-viewer .connect-next").count() > 0  # drawn with its connectors
    expect(bracket.locator(".brackets-viewer")).to_contain_text("CG ronda 1")
    for watcher in (bracket, standings):
        streaming(watcher)
    expect(standings.locator("#legend")).to_contain_text("Art. 12")

    record_claim(in_play, {"kind": "caida", "pair": "B"}, uuid.uuid4(), user=in_play.juez)
    scores = bracket.locator(f"[data-match-id='{in_play.pk}'] .result")
    expect(scores).to_have_text(["0", "2"], timeout=PUSHED_WITHIN_MS)
    expect(bracket.locator(f"[data-match-id='{in_play.pk}']")).to_have_attribute("data-match-status", "3")

    play(other, "A")
    winner = other.pair_a.name
    final = champ.mesas.get(bracket="W", round=2)
    expect(bracket.locator(f"[data-match-id='{final.pk}']")).to_contain_text(winner, timeout=PUSHED_WITHIN_MS)
    won = standings.locator("table.standings tbody tr", has_text=winner).locator("td").nth(3)
    expect(won).to_have_text("1", timeout=PUSHED_WITHIN_MS + 2000)  # fetched again after a moment of its own
    bracket.screenshot(path=str(ARTIFACTS / "live-bracket-1024.png"), full_page=True)
    standings.screenshot(path=str(ARTIFACTS / "live-standings-390.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_a_tablet_with_no_stream_to_open_polls_every_second(live_server, page):
    """Served by a server with no streams (WSGI: an old set-up, a buffering proxy), the tablet polls as before."""
    mesa = mesa_in_play("Copa Bolívar")
    login(page.context, live_server, mesa.juez)
    page.goto(f"{live_server.url}/mesa/{mesa.pk}/")
    expect(page.locator("#screen")).to_have_attribute("data-live", "polling")
    record_claim(mesa, {"kind": "caida", "pair": "B"}, uuid.uuid4(), user=mesa.juez)
    expect(page.locator(".pair-card[data-side=B] .score-num")).to_have_text("2", timeout=PUSHED_WITHIN_MS)


@pytest.mark.parametrize("viewport", [(1920, 1080), (1024, 768), (390, 844)], ids=["projector", "tablet", "phone"])
def test_the_live_pages_fit_each_screen(asgi_server, in_play, browser, viewport):
    """No live page scrolls sideways as a whole; a wide table or the bracket scrolls inside its own box."""
    width, height = viewport
    champ = in_play.championship
    paths = [
        f"/en-vivo/{champ.pk}/",
        f"/en-vivo/{champ.pk}/proyector/",
        f"/pareja/{in_play.pair_a.token}/",
        f"/campeonatos/{champ.pk}/llaves/",
        f"/campeonatos/{champ.pk}/posiciones/",
    ]
    page = browser.new_context(viewport={"width": width, "height": height}, locale="es-EC").new_page()
    for path in paths:
        page.goto(asgi_server.url + path)
        streaming(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, path
        name = path.strip("/").split("/")[-1] if "pareja" not in path else "pareja"
        page.screenshot(path=str(ARTIFACTS / f"live-{name}-{width}.png"))
