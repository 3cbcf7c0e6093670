"""One tap never logs a claim the engine refuses (issue 32, item 2), in Chromium.

Every control that logs a claim asks the engine's preview first (the one
in the state, also offline): a claim it would refuse is not sent by one
tap; its refusal is shown with its article and only "Anotarla igual", a
second and deliberate confirmation, logs it. A claim tapped behind others
is asked about when its turn to be sent comes. The conteo is previewed
whatever was typed: a count that leaves cards out is asked of the engine.
"""

import re

import pytest
from playwright.sync_api import expect

from refereeing.models import ClaimEntry
from tests.support.claims import MANO, caida
from tests.support.tablet import Tablet, log_claims, open_screen, score, settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def entries(mesa):
    return [(e.kind, e.accepted) for e in ClaimEntry.objects.filter(mesa=mesa).order_by("seq")]


def test_a_mano_while_the_conteo_is_due_is_refused_before_it_is_sent_art_3f(live_server, page, mesa):
    """It was sent and logged as a refused entry (conteo_pendiente)."""
    log_claims(mesa, [MANO, MANO])
    open_screen(page, live_server, mesa)
    tablet = Tablet(page, 2)
    tablet.press(".screen [data-claim=mano]")
    refusal = page.locator("#refusal")
    expect(refusal.locator(".refusal-text")).to_have_text(
        "Mano: Ya se repartieron todas las manos de la data; falta el conteo. (Art. 3f)"
    )
    expect(refusal.locator("a")).to_have_attribute("href", re.compile(r"/reglas/#art-3"))
    # A double tap, and a second tap later on the same button: still nothing logged.
    tablet.press(".screen [data-claim=mano]")
    page.wait_for_timeout(500)
    assert entries(mesa) == [("mano", True), ("mano", True)]
    # The deliberate confirmation logs it: a pair may want the refused claim on record for an appeal.
    tablet.tap("#refusal [data-action=anyway]")
    assert entries(mesa)[-1] == ("mano", False)


def test_a_ronda_after_its_window_is_refused_before_it_is_sent_art_7(live_server, page, mesa):
    # Four caídas: every player has thrown a card, no ronda can be claimed any more (Art. 7b).
    log_claims(mesa, [MANO] + [caida("A"), caida("B")] * 2)
    open_screen(page, live_server, mesa)
    tablet = Tablet(page, 5)
    tablet.press(".screen [data-claim=ronda][data-pair=A]")
    expect(page.locator("#refusal .refusal-text")).to_contain_text("Ronda · Los Ases: ")
    expect(page.locator("#refusal .refusal-text")).to_contain_text("(Art. 7")
    # The offer answers the mesa as it was: another claim withdraws it.
    tablet.claim("caida", "A")
    expect(page.locator("#refusal [data-action=anyway]")).to_be_hidden()
    assert [kind for kind, _ in entries(mesa)].count("ronda") == 0


def test_the_conteo_is_previewed_whatever_was_typed_art_3f(live_server, page, mesa):
    """After mano 1, with the other pair's count typed by hand, conteo.js stopped asking and logged a conteo the
    engine refused (conteo_prematuro)."""
    log_claims(mesa, [MANO])
    open_screen(page, live_server, mesa)
    tablet = Tablet(page, 1)
    tablet.press(".screen [data-open=conteo][data-counted=A]")
    for key in "20":
        tablet.press(f"#dlg-conteo [data-key='{key}']")
    tablet.press("#dlg-conteo [data-field=rest]")
    for key in "18":
        tablet.press(f"#dlg-conteo [data-key='{key}']")
    preview = page.locator("#conteo-preview")
    expect(preview).to_have_text("Aún no se han repartido todas las manos de la data. (Art. 3f)")
    tablet.press("#dlg-conteo [data-confirm=conteo]")
    expect(page.locator("#dlg-conteo [data-anyway]")).to_be_visible()
    tablet.press("#dlg-conteo [data-close]")
    page.wait_for_timeout(500)
    assert entries(mesa) == [("mano", True)]


def test_a_conteo_that_leaves_cards_out_shows_the_engines_points_before_confirming_art_15h(live_server, page, mesa):
    log_claims(mesa, [MANO, MANO])
    open_screen(page, live_server, mesa)
    tablet = Tablet(page, 2)
    tablet.press(".screen [data-open=conteo][data-counted=B]")
    for key in "23":
        tablet.press(f"#dlg-conteo [data-key='{key}']")
    tablet.press("#dlg-conteo [data-field=rest]")
    for key in "15":
        tablet.press(f"#dlg-conteo [data-key='{key}']")
    # Two cards on the table: the engine, asked for this count alone, gives B 23 cards: 6 + 3, rounded up to 10.
    expect(page.locator("#conteo-preview")).to_have_text(
        "Conteo: Los Ases 15 cartas, Caballos de Espada 23. Puntos: Caballos de Espada +10."
    )
    tablet.tap("#dlg-conteo [data-confirm=conteo]")
    expect(score(page, "B")).to_have_text("10")
    assert ClaimEntry.objects.get(mesa=mesa, seq=3).decision["points"] == {"A": 0, "B": 10}


@pytest.mark.browser_context_args(service_workers="block")
def test_a_claim_tapped_offline_behind_another_is_held_when_the_engine_would_refuse_it(live_server, page, mesa):
    """Offline the preview answers only the first waiting claim; the second Mano (the data's manos all dealt) is
    asked about when its turn comes, and the juez decides: dropped, it is never logged."""
    log_claims(mesa, [MANO])
    open_screen(page, live_server, mesa)
    tablet = Tablet(page, 1)
    page.context.set_offline(True)
    tablet.claim("mano", confirm=False)
    tablet.claim("mano", confirm=False)
    expect(page.locator("#net .net-waiting")).to_have_text("Por enviar: 2")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    dialog = page.locator("#dlg-confirm")
    expect(dialog).to_contain_text("Mano no se envió: el motor la rechazaría.", timeout=10000)
    expect(dialog).to_contain_text("Ya se repartieron todas las manos de la data; falta el conteo. (Art. 3f)")
    assert entries(mesa) == [("mano", True), ("mano", True)]
    Tablet(page).press("#dlg-confirm [data-label=no]")
    expect(page.locator("#net .net-waiting")).to_have_count(0)
    page.wait_for_timeout(1000)
    assert entries(mesa) == [("mano", True), ("mano", True)]
    settled(page, 2)
