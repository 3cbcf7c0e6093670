"""Every tap means one thing (issue 32, item 1), on a phone, a portrait tablet and a landscape tablet.

A double tap on a dialog's confirm logs one claim: the second tap, which
used to land on the claim button under the closed dialog, is dropped. The
conteo's keypad and the juego y veo dialog keep every control where it was
while they fill, so two taps at one place on "2" type 22. A dialog opened
on a mesa that another device then changes closes, logs nothing and says
why. Taps are timed by the page's clock (``page.clock``): what counts is how
far apart they are for the page, however loaded the machine.
"""

import datetime
import uuid

import pytest
from playwright.sync_api import expect

from refereeing.appeals import procedure as appeals
from refereeing.models import ClaimEntry
from tests.support.claims import MANO, caida, data_url, png
from tests.support.tablet import log_claims, open_screen, settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every control of a dialog, where it is on the screen.
BOXES = """els => els.filter(e => e.offsetParent).map(e => { const r = e.getBoundingClientRect();
  return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; })"""


class Finger:
    """Taps by the page's clock, which stands still between them (its timers run)."""

    def __init__(self, page):
        self.page = page
        self.now = datetime.datetime(2026, 11, 26, 10, 0, tzinfo=datetime.UTC)
        page.clock.set_fixed_time(self.now)

    def tap(self, selector, after=1000):
        """Tap the middle of ``selector``, ``after`` ms of the page's time since the last tap; the place tapped."""
        box = self.page.locator(selector).first.bounding_box()
        return self.at((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2), after)

    def at(self, point, after):
        self.now += datetime.timedelta(milliseconds=after)
        self.page.clock.set_fixed_time(self.now)
        self.page.touchscreen.tap(*point)
        return point

    def double(self, selector, apart):
        self.at(self.tap(selector), apart)


def boxes(page, dialog):
    return page.eval_on_selector_all(f"{dialog} button, {dialog} input, {dialog} label", BOXES)


def kinds(mesa):
    return list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values_list("kind", flat=True))


def quiet(page, mesa, count):
    """Whatever a stray tap would have logged has had the time to arrive: ``count`` entries, no more."""
    page.wait_for_timeout(1200)
    assert ClaimEntry.objects.filter(mesa=mesa).count() == count, kinds(mesa)


def test_a_double_tap_on_a_confirm_logs_one_claim(device_page, live_server, mesa):
    """Anularla, Anotar mal repartidas and Confirmar el conteo tapped twice, 159 to 300 ms apart: one claim each, and
    nothing for the claim button that lay beneath (it was a caída, +2, and a doble ronda)."""
    page = device_page
    log_claims(mesa, [MANO, caida("A")])
    open_screen(page, live_server, mesa)
    finger = Finger(page)
    finger.tap("[data-action=undo]")
    expect(page.locator("#dlg-confirm")).to_contain_text("¿Anular la jugada n.º 2 (Caída · Los Ases)?")
    finger.double("#dlg-confirm [data-label=yes]", 159)
    settled(page, 3)
    quiet(page, mesa, 3)
    assert kinds(mesa) == ["mano", "caida", "void"]

    finger.tap(".screen [data-claim=mal_repartidas]")
    expect(page.locator("#dlg-confirm [data-label=yes]")).to_have_text("Anotar mal repartidas")
    finger.double("#dlg-confirm [data-label=yes]", 230)
    settled(page, 4)
    quiet(page, mesa, 4)

    for seq in (5, 6):
        finger.tap(".screen [data-claim=mano]")
        settled(page, seq)
    finger.tap(".screen [data-open=conteo][data-counted=A]")
    for key in "30":
        finger.tap(f"#dlg-conteo [data-key='{key}']", after=300)
    finger.double("#dlg-conteo [data-confirm=conteo]", 300)
    settled(page, 7)
    quiet(page, mesa, 7)
    assert kinds(mesa) == ["mano", "caida", "void", "mal_repartidas", "mano", "mano", "conteo"]


def test_the_keypad_stays_put_and_two_taps_on_one_key_type_it_twice(device_page, live_server, mesa):
    """The keys moved 42 px on a phone after the first digit (the preview grew and the dialog centred itself
    again): two taps at one place on 2 typed 25, and the engine took 25 cards."""
    page = device_page
    log_claims(mesa, [MANO, MANO])
    open_screen(page, live_server, mesa)
    finger = Finger(page)
    finger.tap(".screen [data-open=conteo][data-counted=A]")
    before = boxes(page, "#dlg-conteo")
    point = finger.tap("#dlg-conteo [data-key='2']")
    assert boxes(page, "#dlg-conteo") == before
    finger.at(point, 200)
    expect(page.locator("#dlg-conteo [data-num=counted]")).to_have_text("22")
    expect(page.locator("#conteo-preview")).to_contain_text("Puntos: Los Ases +8.")
    assert boxes(page, "#dlg-conteo") == before
    # The other pair's count typed by hand, a count the engine refuses, the keypad's refusal of a third digit.
    finger.tap("#dlg-conteo [data-field=rest]")
    for key in "945":
        finger.tap(f"#dlg-conteo [data-key='{key}']", after=300)
        assert boxes(page, "#dlg-conteo") == before, key
    finger.tap("#dlg-conteo [data-close]")
    quiet(page, mesa, 2)


def test_the_juego_y_veo_dialog_stays_put_while_it_fills(device_page, live_server, mesa):
    """Choosing the protested play moved the dialog's contents 11-12 px; nor do the cards, the checker's answer and
    the choice move anything now."""
    page = device_page
    log_claims(mesa, [MANO, caida("B")])
    open_screen(page, live_server, mesa)
    finger = Finger(page)
    finger.tap(".screen [data-open=jyv][data-pair=A]")
    dialog = "#dlg-jyv"
    before = boxes(page, dialog)
    for rank in ("5", "2", "3", "4", "6", "7"):
        finger.tap(f"{dialog} .rank-btn[data-rank='{rank}']", after=300)
    finger.tap(f"{dialog} [data-target=played]")
    finger.tap(f"{dialog} .rank-btn[data-rank='7']")
    finger.tap(f"{dialog} .rank-btn[data-rank='5']")
    finger.tap(f"{dialog} [data-jyv=check]")
    expect(page.locator(f"{dialog} .verdict")).to_be_visible()
    finger.tap(f"{dialog} .jyv-against label")
    expect(page.locator(f"{dialog} [data-confirm=upheld]")).to_be_enabled()
    # The card chips come and go in their rows; every other control is where it was.
    chips = len(page.locator(f"{dialog} .card-chip").all())
    assert [b for b in boxes(page, dialog) if b not in before] and chips == 8
    still = page.eval_on_selector_all(f"{dialog} button:not(.card-chip), {dialog} input, {dialog} label", BOXES)
    assert still == before
    finger.tap(f"{dialog} [data-close]")
    quiet(page, mesa, 2)


def test_a_dialog_closes_when_another_device_logs_a_claim(page, live_server, mesa):
    """Today's dialog kept its Confirmar for a mesa that had moved on: the conteo it logged was decided on another."""
    log_claims(mesa, [MANO, MANO])
    open_screen(page, live_server, mesa)
    finger = Finger(page)
    finger.tap(".screen [data-open=conteo][data-counted=A]")
    finger.tap("#dlg-conteo [data-key='3']")
    log_claims(mesa, [caida("B")])  # another device, through the claim log
    expect(page.locator("#dlg-conteo")).to_be_hidden(timeout=5000)
    expect(page.locator("#refusal .refusal-text")).to_have_text(
        "Otro dispositivo anotó #3 Caída · Caballos de Espada: el diálogo se cerró sin anotar nada."
    )
    quiet(page, mesa, 3)


def test_a_question_closes_when_the_director_suspends_the_mesa_for_an_appeal(
    page, live_server, mesa, django_user_model
):
    director = django_user_model.objects.create_user("director")
    mesa.championship.director = director
    mesa.championship.save()
    log_claims(mesa, [MANO, caida("A")])
    open_screen(page, live_server, mesa)
    finger = Finger(page)
    finger.tap(".screen [data-claim=mal_repartidas]")
    expect(page.locator("#dlg-confirm")).to_be_visible()
    appeal = appeals.file_appeal(
        mesa, "B", 2, "Carta ya jugada.", "Marta Yépez", data_url(png()), uuid.uuid4(), by=None
    )
    appeals.admit(appeal, by=director)
    expect(page.locator("#dlg-confirm")).to_be_hidden(timeout=5000)
    expect(page.locator("#refusal .refusal-text")).to_have_text(
        "El Director admitió una apelación y suspendió la mesa: el diálogo se cerró sin anotar nada."
    )
    quiet(page, mesa, 3)
    assert kinds(mesa) == ["mano", "caida", "suspender"]
