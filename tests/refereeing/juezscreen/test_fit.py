"""The phone and the portrait tablet (issue 32, item 3), in Chromium with touch.

The whole appeal flow fits a phone (390x844) and a tablet in portrait
(768x1024) without scrolling: the form, the form sent back for a missing
reason, the screen it returns to, the Director's admission and ruling. No
message pushes a control: the success message after an appeal pushed
Mal repartidas, Anular la última and Suspensión below the fold on a phone.
The status line ("Por enviar: 1") and the centre panel's counters (they
jumped 19-20 px when the next step's words changed) keep their places, at
the three sizes.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from refereeing.appeals import procedure as appeals
from refereeing.models import Appeal
from tests.support.claims import MANO, caida
from tests.support.tablet import Tablet, draw, log_claims, open_screen, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Layout boxes (offsets: a button pressed under the finger shrinks a little, which is no move) of the controls, the
# counters and the board, by what each is.
PLACES_JS = """els => els.filter(e => e.offsetParent && getComputedStyle(e).visibility !== 'hidden').map(e => {
  let x = 0, y = 0;
  for (let n = e; n; n = n.offsetParent) { x += n.offsetLeft; y += n.offsetTop; }
  return [e.id || (e.matches('.board') ? 'board' : '') || (e.dataset.claim || e.dataset.open || e.dataset.action || e.textContent.trim())
          + (e.dataset.pair || e.dataset.counted || ''), [x, y, e.offsetWidth, e.offsetHeight]]; })"""
PLACES = ".statusbar .btn, #controls button, #st-chica, #st-data, #st-mano, #st-dealer, .board"


def places(page):
    """Where each control is, the board, and the height of each counter (its words change its width: the dealer)."""
    found = dict(page.eval_on_selector_all(PLACES, PLACES_JS))
    return {name: box[1::2] if name.startswith("st-") else box for name, box in found.items()}


def no_scrolling(page, bottom):
    """Nothing of the page needs a scroll: ``bottom`` (a selector) lies within the screen, as wide as it is."""
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    box = page.locator(bottom).bounding_box()
    assert box["y"] + box["height"] <= page.viewport_size["height"], (bottom, box)


@pytest.fixture
def director(mesa):
    director = get_user_model().objects.create_user("director", first_name="Jorge")
    mesa.championship.director = director
    mesa.championship.save()
    return director


@pytest.mark.parametrize("device_page", ["phone", "portrait"], indirect=True)
def test_the_whole_appeal_flow_fits_without_scrolling(device_page, live_server, mesa, director):
    page = device_page
    log_claims(mesa, [MANO, caida("A")])
    open_screen(page, live_server, mesa)
    tablet = Tablet(page, 2)
    before = places(page)
    tablet.press(".statusbar .btn-appeal")
    form = page.locator("#appeal-form")
    expect(form).to_be_visible()
    page.locator("label[for=id_pair_1]").tap()
    page.select_option("select[name=seq]", "2")
    draw(page, page.locator("#appeal-pad"), finger=True)
    no_scrolling(page, ".appeal-actions")
    # Sent back without a reason: the error has its line, nothing is lost and the form still fits.
    form.locator("button[type=submit]").tap()
    expect(page.locator("#div_id_reason")).to_contain_text("Este campo es requerido.")
    no_scrolling(page, ".appeal-actions")
    shot(page, f"fit-{page.name}-appeal-form")
    page.fill("textarea[name=reason]", "La caída se hizo con una carta ya jugada.")
    form.locator("button[type=submit]").tap()
    # Back at the table: the message lies over the board, and every control is where it was.
    notice = page.locator(".overlay .alert-success")
    expect(notice).to_contain_text("Apelación de la pareja B sobre la decisión #2")
    expect(page.locator("#st-chica")).not_to_have_text("–")
    assert places(page) == before
    no_scrolling(page, "#controls")
    shot(page, f"fit-{page.name}-appeal-filed")
    Tablet(page).press(".overlay .alert-success [data-action=dismiss]")
    expect(notice).to_have_count(0)

    appeal = Appeal.objects.get()
    appeals.admit(appeal, by=director)
    expect(page.locator("#banner")).to_have_text("Suspendida por apelación — espere al Director", timeout=5000)
    no_scrolling(page, "#controls")
    appeals.rule(appeal, True, "La carta ya se había jugado: se anula la caída.", by=director, undo=True)
    ruling = page.locator("#dlg-ruling")
    expect(ruling).to_be_visible(timeout=5000)
    no_scrolling(page, "#dlg-ruling [data-action=ack-ruling]")
    shot(page, f"fit-{page.name}-appeal-ruling")
    Tablet(page).press("#dlg-ruling [data-action=ack-ruling]")
    expect(ruling).to_be_hidden()
    expect(page.locator("#banner")).to_be_hidden()
    assert places(page) == before


def test_the_status_line_and_the_centre_panel_keep_their_places(device_page, live_server, mesa):
    page = device_page
    log_claims(mesa, [MANO])
    open_screen(page, live_server, mesa)
    tablet = Tablet(page, 1)
    before = places(page)
    # A claim waiting for the server's answer: "Por enviar: 1" in its room.
    held = []
    claims = re.compile(r"/api/mesas/\d+/claims/")
    page.route(claims, lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
    tablet.press(".screen [data-claim=caida][data-pair=A]")
    expect(page.locator("#net .net-waiting")).to_have_text("Por enviar: 1")
    assert places(page) == before
    held.pop().continue_()
    page.unroute(claims)
    tablet.seq += 1
    expect(page.locator("#net .net-waiting")).to_have_count(0)
    # The next step's words change and empty: the last mano, then the conteo due, then the next data to deal.
    tablet.claim("mano")
    expect(page.locator("#st-phase")).to_have_text("Última mano de la data: al terminarla, el conteo.")
    assert places(page) == before
    tablet.conteo("A", 30)
    expect(page.locator("#st-phase")).to_have_text("Reparta la data; toque «Mano» una vez repartidas las cartas.")
    assert places(page) == before
    # Offline, PROVISIONAL lies on the panel's edge.
    page.context.set_offline(True)
    tablet.press(".screen [data-claim=mano]")
    expect(page.locator(".provisional")).to_be_visible()
    assert places(page) == before
    shot(page, f"fit-{page.name}-provisional")
    page.context.set_offline(False)
