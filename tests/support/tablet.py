"""The juez's screen in a real browser: signing a context in, opening a mesa, tapping, drawing, axe's verdict.

Shared by the browser tests of several packages (juezscreen, access, appeals,
live, tournament, the public pages); the fixtures they use stay in their conftest.
"""

import json
import time
import uuid
from pathlib import Path

from django.test import Client
from playwright.sync_api import expect

from refereeing.claimlog import log as claimlog
from tests.support.claims import MANO, caida

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
ARTIFACTS.mkdir(exist_ok=True)


def shot(page, name, **kwargs):
    page.screenshot(path=str(ARTIFACTS / f"juezscreen-{name}.png"), **kwargs)


def login(context, live_server, user):
    """Give a browser context the session of ``user``."""
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])


def open_screen(page, live_server, mesa, user=None):
    login(page.context, live_server, user or mesa.juez)
    response = page.goto(f"{live_server.url}/mesa/{mesa.pk}/")
    expect(page.locator("#st-chica")).not_to_have_text("–")
    return response


def score(page, side):
    return page.locator(f".pair-card[data-side={side}] .score-num")


def draw(page, canvas, finger):
    """A zigzag across the pad: with a finger (touch events) or a mouse."""
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    points = [
        (box["x"] + box["width"] * (0.1 + 0.08 * i), box["y"] + box["height"] * (0.3 + 0.4 * (i % 2)))
        for i in range(10)
    ]
    if finger:
        # Playwright has taps but no swipes: a touch sequence through CDP, with
        # its own touch id so that it does not clash with Playwright's taps.
        cdp = page.context.new_cdp_session(page)
        x, y = points[0]
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 7}]})
        for x, y in points[1:]:
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y, "id": 7}]})
        # The finger rests before it lifts: a lift in motion is a fling, and
        # the browser swallows the next tap to stop it.
        page.wait_for_timeout(150)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y, "id": 7}]})
        page.wait_for_timeout(150)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
    else:
        page.mouse.move(*points[0])
        page.mouse.down()
        for x, y in points[1:]:
            page.mouse.move(x, y, steps=3)
        page.mouse.up()


def data_for_a():
    """Two manos and a conteo of 30 cards to 10: +16 for A (Art. 15h)."""
    return [MANO, MANO, {"kind": "conteo", "cards": {"A": 30, "B": 10}}]


# Chica 1 to A, 40 to 0: the mesa ends by zapatería (Art. 3g.6, 12).
ZAPATERIA = data_for_a() + data_for_a() + [MANO] + [caida("A")] * 4


def log_claims(mesa, claims):
    """Log ``claims`` at ``mesa`` through the claim log service, as a tablet would."""
    for claim in claims:
        claimlog.record_claim(mesa, claim, str(uuid.uuid4()), user=mesa.juez)
    mesa.refresh_from_db()


def violations(page, live_server, context=None):
    """The serious and critical violations axe finds on the page (or inside ``context``), as readable lines."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(url=f"{live_server.url}/static/vendor/axe-core/axe.min.js")
    found = page.evaluate(
        "async (ctx) => (await axe.run(ctx ? document.querySelector(ctx) : document)).violations"
        ".filter(v => ['serious', 'critical'].includes(v.impact))"
        ".map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))",
        context,
    )
    return found


ASKED = ("mal_repartidas", "suspender")


def settled(page, seq):
    """Wait until the server has confirmed every claim up to ``seq``."""
    expect(page.locator("#net .net-waiting")).to_have_count(0)
    expect(page.locator("#log .log-item").first.locator(".log-seq")).to_have_text(f"#{seq}")


DOUBLE_TAP_MS = 850  # the screen's window (0.8 s), and a little more


def unhushed(page):
    """Wait until the screen takes taps again: for the double-tap window after it changed by itself (a question
    opened, buttons shown or hidden), it takes none (static/refereeing/mesa/guard.js)."""
    expect(page.locator("html[data-settling]")).to_have_count(0)


class Tablet:
    """Taps on one device, counting the claims it expects the server to log."""

    def __init__(self, page, seq=0):
        self.page, self.seq = page, seq
        self.tapped = {}  # by selector: when it was last tapped
        self.last = None  # (when, x, y) of the last tap

    def press(self, selector):
        """Tap ``selector`` as a juez does: a second tap of one button after the double-tap window (or it is a
        double tap), a tap where the last one landed a moment ago after it too (or it fell through what that one
        changed), and none while the screen is settling."""
        target = self.page.locator(selector).first
        box = target.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        waits = [0]
        if selector in self.tapped:
            waits.append(DOUBLE_TAP_MS - (time.monotonic() - self.tapped[selector]) * 1000)
        if (
            self.last
            and abs(self.last[1] - x) <= box["width"] / 2 + 12
            and abs(self.last[2] - y) <= box["height"] / 2 + 12
        ):
            waits.append(DOUBLE_TAP_MS - (time.monotonic() - self.last[0]) * 1000)
        if max(waits) > 0:
            self.page.wait_for_timeout(max(waits))
        unhushed(self.page)
        self.page.touchscreen.tap(x, y)
        now = time.monotonic()
        self.tapped[selector] = now
        self.last = (now, x, y)

    def tap(self, selector, confirm=True):
        self.press(selector)
        self.seq += 1
        if confirm:
            settled(self.page, self.seq)

    def claim(self, kind, pair=None, **kwargs):
        selector = f"[data-claim={kind}]" + (f"[data-pair={pair}]" if pair else "")
        if kind in ASKED:
            # Plays that end or stop things are confirmed first: the claim is taken on the confirmation.
            self.press(f".screen {selector}")
            self.tap("#dlg-confirm [data-label=yes]", **kwargs)
        else:
            self.tap(f".screen {selector}", **kwargs)

    def conteo(self, counted_pair, cards, confirm=True):
        """The pair's conteo button, the digits on the keypad, confirm."""
        self.press(f".screen [data-open=conteo][data-counted={counted_pair}]")
        for digit in str(cards):
            self.press(f"#dlg-conteo [data-key='{digit}']")
        self.tap("#dlg-conteo [data-confirm=conteo]", confirm=confirm)

    def data_for_a(self):
        """Two manos and a conteo of 30 cards to 10: +16 for A (Art. 15h)."""
        self.claim("mano")
        self.claim("mano")
        self.conteo("A", 30)


def screen_config(response):
    """The JSON the juez's screen is started with, read from the page ``response`` served."""
    html = response.content.decode()
    start = html.index('<script id="screen-config" type="application/json">') + len(
        '<script id="screen-config" type="application/json">'
    )
    return json.loads(html[start : html.index("</script>", start)])
