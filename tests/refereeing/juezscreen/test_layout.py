"""The juez's screen laid out for a 1024x768 tablet and a 390x844 phone (issue 24, points 4 and 5), in Chromium.

A chica is played by taps on each: after every claim no control has moved
(the score, the chips, the dealer's chip, the next step and the banner
change, the buttons stay), and on the phone every control, both pairs'
claims included, is on the screen without scrolling. Every dialog fits the
screen with its decisions in sight; the pairs' names are never cut; a
suspended mesa offers no claim and says why, by the juez or by an appeal.
Screenshots go to artifacts/.
"""

import uuid

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from refereeing.appeals import procedure as appeals
from refereeing.models import ClaimEntry
from tests.support.claims import data_url, png
from tests.support.tablet import Tablet, open_screen, score, settled, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# Layout boxes (offsets, not transforms: a button pressed under the finger shrinks a little) of every control in
# sight: the status bar's buttons and links, the claims, the shared buttons.
CONTROLS_JS = """els => els.filter(e => e.offsetParent && getComputedStyle(e).visibility !== 'hidden').map(e => {
  let x = 0, y = 0;
  for (let n = e; n; n = n.offsetParent) { x += n.offsetLeft; y += n.offsetTop; }
  return [e.dataset.claim ? e.dataset.claim + (e.dataset.pair || '')
          : e.dataset.open ? e.dataset.open + (e.dataset.pair || e.dataset.counted || '')
          : e.textContent.trim(), [x, y, e.offsetWidth, e.offsetHeight]]; })"""


@pytest.fixture(params=["tablet", "phone"])
def screen(request, page, browser, browser_context_args, live_server, mesa):
    """The juez's screen open on a tablet or a phone, the pairs named alike but for their ends."""
    # Names a cut would make the same ("Los Rondadores del Ch…"): the screen must show them whole.
    for pair, name in ((mesa.pair_a, "Los Rondadores del Chimborazo"), (mesa.pair_b, "Los Rondadores del Cotopaxi")):
        pair.name = name
        pair.save()
    if request.param == "phone":
        page = browser.new_context(**{**browser_context_args, "viewport": PHONE, "is_mobile": True}).new_page()
    open_screen(page, live_server, mesa)
    page.name = request.param
    return page


def viewport(page):
    return page.viewport_size


def controls(page):
    """Every control in sight, by what it does: where it is. On the phone, each is on the screen without scrolling."""
    boxes = dict(page.eval_on_selector_all(".statusbar .btn, #controls button", CONTROLS_JS))
    if page.name == "phone":
        assert page.evaluate("window.scrollY") == 0
        size = viewport(page)
        outside = {
            k: b
            for k, b in boxes.items()
            if b[0] < 0 or b[1] < 0 or b[0] + b[2] > size["width"] or b[1] + b[3] > size["height"]
        }
        assert not outside, outside
    return boxes


def fits(page, dialog):
    """The open ``dialog`` lies within the screen, and so does each of its decisions: nothing to scroll to decide."""
    size = viewport(page)
    box = page.locator(dialog).bounding_box()
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"]
    for button in page.locator(f"{dialog} .dlg-actions button:visible, {dialog} [data-confirm]:visible").all():
        b = button.bounding_box()
        assert 0 <= b["y"] and b["y"] + b["height"] <= size["height"], button.text_content()
        assert 0 <= b["x"] and b["x"] + b["width"] <= size["width"], button.text_content()
        # Its words whole: "Comprobado" was cut on a phone.
        assert button.evaluate("e => e.scrollWidth <= e.clientWidth"), button.text_content()


def names_whole(page):
    """No pair's name is cut, on the board or over its claims, nor the status bar's table and mesa ("Mesa físic…")."""
    cut = page.eval_on_selector_all(
        ".pair-name, .claims-title, .statusbar .mesa-title",
        # A title kept for screen readers only (on the phone) is one pixel wide: not shown, so not cut.
        "els => els.filter(e => e.clientWidth > 1 && (e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight))"
        ".map(e => e.textContent)",
    )
    assert not cut


def test_a_chica_by_taps_moves_no_control_and_needs_no_scroll(screen, mesa):
    page = screen
    tablet = Tablet(page)
    before = controls(page)
    expect(page.locator(".statusbar .mesa-title")).to_have_text(f"Mesa física 7 · {mesa}")
    names_whole(page)
    shot(page, f"layout-{page.name}-statusbar", clip={"x": 0, "y": 0, "width": viewport(page)["width"], "height": 160})
    # Both pairs' claims, the conteo of each and the deal are all there at once, the phone included.
    claims = page.eval_on_selector_all(
        "#controls [data-claim][data-pair]", "els => els.map(e => e.dataset.claim + e.dataset.pair)"
    )
    assert len(claims) >= 12 and len(before) >= 20
    assert {*claims, "jyvA", "jyvB", "conteoA", "conteoB", "mano", "mal_repartidas", "suspender"} <= set(before)

    def claimed(kind, pair=None):
        tablet.claim(kind, pair)
        assert controls(page) == before, (kind, pair)

    def conteo(pair, cards):
        tablet.conteo(pair, cards)
        assert controls(page) == before, ("conteo", pair)

    # Chica 1 (Art. 3g, 14, 15h): B takes five caídas, A wins by conteos and four caídas; chips come, the dealer
    # changes pair, the next step changes with each claim, and the banner says who won the chica.
    claimed("mano")
    for _ in range(5):
        claimed("caida", "B")
    expect(page.locator(".pair-card[data-side=B] .chip.perro")).to_have_count(1)
    claimed("mano")
    conteo("A", 30)
    expect(score(page, "A")).to_have_text("16")
    shot(page, f"layout-{page.name}-chips")
    for _ in range(2):
        claimed("mano")
    conteo("A", 30)
    expect(score(page, "A")).to_have_text("32")
    claimed("mano")
    expect(page.locator(".pair-card[data-side=A] .dealer-chip")).to_be_visible()
    for _ in range(3):
        claimed("caida", "A")
    expect(score(page, "A")).to_have_text("38")
    shot(page, f"layout-{page.name}-38")
    claimed("caida", "A")
    expect(page.locator("#banner")).to_have_text("Chica para Los Rondadores del Chimborazo (40–10)")
    names_whole(page)
    # The banner covers no name and no counter.
    banner = page.locator("#banner").bounding_box()
    for covered in page.locator(".pair-name, .score-num, .chicas-num, .state-line dd").all():
        box = covered.bounding_box()
        assert box["y"] >= banner["y"] + banner["height"] or box["y"] + box["height"] <= banner["y"], covered
    shot(page, f"layout-{page.name}-banner")
    assert ClaimEntry.objects.filter(mesa=mesa).count() == tablet.seq == 16


def test_every_dialog_fits_the_screen(screen, mesa):
    page = screen
    tablet = Tablet(page)
    tablet.claim("mano")
    tablet.claim("caida", "B")
    tablet.claim("limpia", "B")
    tablet.press(".screen [data-open=conteo][data-counted=B]")
    fits(page, "#dlg-conteo")
    shot(page, f"layout-{page.name}-conteo")
    tablet.press("#dlg-conteo [data-close]")
    # Juego y veo with its longest content: cards on every line, the checker's verdict, the plays to protest.
    tablet.press(".screen [data-open=jyv][data-pair=A]")
    for rank in ("5", "2", "3", "4"):
        tablet.press(f"#dlg-jyv .rank-btn[data-rank='{rank}']")
    tablet.press("#dlg-jyv [data-target=played]")
    tablet.press("#dlg-jyv .rank-btn[data-rank='7']")
    tablet.press("#dlg-jyv .rank-btn[data-rank='5']")
    tablet.press("#dlg-jyv [data-jyv=check]")
    expect(page.locator("#dlg-jyv .verdict")).to_be_visible()
    fits(page, "#dlg-jyv")
    shot(page, f"layout-{page.name}-juego-y-veo")
    tablet.press("#dlg-jyv [data-close]")
    tablet.press(".screen [data-claim=mal_repartidas]")
    fits(page, "#dlg-confirm")
    tablet.press("#dlg-confirm [data-label=no]")
    tablet.press(".statusbar [data-open=settings]")
    fits(page, "#dlg-settings")
    tablet.press("#dlg-settings [value=close]")
    assert ClaimEntry.objects.filter(mesa=mesa).count() == 3


def test_a_suspended_mesa_offers_no_claim_and_says_why(screen, mesa):
    page = screen
    director = get_user_model().objects.create_user("director", password="director-secret")
    mesa.championship.director = director
    mesa.championship.save()
    tablet = Tablet(page)
    tablet.claim("mano")
    tablet.claim("caida", "A")
    before = controls(page)
    hidden = page.locator("#controls button:not([data-claim=reanudar])")
    tablet.claim("suspender")
    # By the juez (Art. 16): only Reanudar, where Suspender was; the rest are out of reach and nothing moved.
    note = page.locator(".suspended-note")
    expect(note).to_have_text(
        "El juez suspendió la mesa: ninguna jugada hasta reanudarla. Solo el juez la reanuda, con Reanudar.",
        use_inner_text=True,
    )
    expect(page.locator("#banner")).to_have_text("Mesa suspendida")
    suspended = controls(page)
    assert set(suspended) == {"Planilla", "Apelación", "settings", "reanudar"}
    assert suspended["reanudar"] == before["suspender"]
    assert all(suspended[k] == before[k] for k in ("Planilla", "Apelación", "settings"))
    for control in hidden.all():
        expect(control).to_be_hidden()
    # A tap where a claim was lands on nothing that logs it.
    caida = before["caidaA"]
    page.touchscreen.tap(caida[0] + caida[2] / 2, caida[1] + caida[3] / 2)
    page.wait_for_timeout(500)
    assert ClaimEntry.objects.filter(mesa=mesa).count() == 3
    shot(page, f"layout-{page.name}-suspended")
    tablet.claim("reanudar")
    expect(note).to_be_hidden()
    assert controls(page) == before

    # By an appeal the Director admitted (Art. 17): not even Reanudar; the Director's ruling resumes the mesa.
    appeal = appeals.file_appeal(
        mesa, "B", 2, "La caída fue con una carta ya jugada.", "Marta Yépez", data_url(png()), uuid.uuid4(), by=None
    )
    appeals.admit(appeal, by=director)
    expect(note).to_have_text(
        "Suspendida por una apelación: ninguna jugada hasta que el Director resuelva. Su resolución reanuda la mesa.",
        use_inner_text=True,
    )
    settled(page, 5)
    expect(page.locator("#controls [data-claim=reanudar]")).to_be_hidden()
    for control in hidden.all():
        expect(control).to_be_hidden()
    assert set(controls(page)) == {"Planilla", "Apelación", "settings"}
    shot(page, f"layout-{page.name}-appeal")
