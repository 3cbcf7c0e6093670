"""The screen previews what the engine then decides (issue 13: one
implementation of each rule). The script computes no points: it shows the
engine's preview (`state["preview"]`). Over several engine states, what the
screen shows before confirming is compared with what the server decides
once the claim is logged; a refusal the engine would give is shown before
confirming, and the server gives the same one."""

import importlib.util
import re

import pytest
from playwright.sync_api import expect

from engines.rules import replay
from refereeing.claimlog import log as claimlog
from refereeing.models import ClaimEntry
from tests.support.claims import MANO, caida
from tests.support.tablet import Tablet, data_for_a, log_claims, open_screen, score

# The preview is the engine helper's (contract 1, engines.rules.preview):
# these run from the moment it is on the branch.
HAS_PREVIEW = importlib.util.find_spec("engines.rules.preview") is not None
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not HAS_PREVIEW, reason="the engine's preview (contract 1) has not landed"),
]

NAMES = {"A": "Los Ases", "B": "Caballos de Espada"}


def points_text(points):
    """The decision's points as the screen writes them ("Los Ases +12 · Caballos de Espada −2")."""
    parts = [f"{NAMES[s]} {'+' if points[s] > 0 else '−'}{abs(points[s])}" for s in "AB" if points.get(s)]
    return " · ".join(parts) or "sin puntos"


# (the log before the conteo, the pair counted, its cards)
STATES = [
    pytest.param([MANO, MANO], "A", 26, id="a-data-26-14"),
    pytest.param([MANO, MANO], "B", 20, id="tie-dos-por-darlas"),
    pytest.param([MANO, caida("B"), MANO], "A", 19, id="mayoria-under-20"),
    pytest.param(data_for_a() + data_for_a() + [MANO, caida("A"), caida("A"), MANO], "A", 30, id="chica-ends"),
    pytest.param(data_for_a() + data_for_a() + [MANO, caida("A"), MANO], "B", 31, id="the-other-pair-near-40"),
]


@pytest.mark.parametrize("log, side, cards", STATES)
def test_the_conteo_preview_is_what_the_engine_decides(live_server, page, mesa, log, side, cards):
    log_claims(mesa, log)
    open_screen(page, live_server, mesa)
    page.tap(f".screen [data-open=conteo][data-counted={side}]")
    for digit in str(cards):
        page.tap(f"#dlg-conteo [data-key='{digit}']")
    preview = page.locator("#conteo-preview")
    expect(preview).to_contain_text("Puntos: ")
    shown = re.search(r"Puntos: (.*)\.$", preview.inner_text()).group(1)
    Tablet(page, len(log)).tap("#dlg-conteo [data-confirm=conteo]")
    decision = ClaimEntry.objects.get(mesa=mesa, seq=len(log) + 1).decision
    assert decision["accepted"]
    assert shown == points_text(decision["points"])


def test_a_conteo_the_engine_would_refuse_is_refused_before_confirming(live_server, page, mesa):
    # A took a limpia in this data: it cannot be counted at 0 cards (the rulings: a conteo that contradicts the log).
    log = [MANO, {"kind": "limpia", "pair": "A"}, MANO]
    log_claims(mesa, log)
    open_screen(page, live_server, mesa)
    tablet = Tablet(page, len(log))
    tablet.press(".screen [data-open=conteo][data-counted=A]")
    tablet.press("#dlg-conteo [data-key='0']")
    preview = page.locator("#conteo-preview")
    expect(preview).to_have_class(re.compile("is-bad"))
    # Confirmar logs nothing then: it offers the deliberate second confirmation, which logs the refused conteo.
    tablet.press("#dlg-conteo [data-confirm=conteo]")
    anyway = page.locator("#dlg-conteo [data-anyway]")
    expect(anyway).to_be_visible()
    expect(page.locator("#dlg-conteo")).to_be_visible()
    assert ClaimEntry.objects.filter(mesa=mesa).count() == len(log)
    # The engine's own answer to that conteo is the same refusal.
    entries = [e.claim for e in ClaimEntry.objects.filter(mesa=mesa).order_by("seq")]
    result = replay(claimlog.header_for(mesa), entries + [{"kind": "conteo", "cards": {"A": 0, "B": 40}}])
    refused = result.decisions[-1]
    assert not refused.accepted
    # The same words (the log's decision starts with "Rechazada: "), and its article linked to the rules page.
    shown = re.sub(r" \(Art\. [^)]*\)$", "", preview.inner_text().strip())
    assert shown and refused.message.endswith(shown)
    expect(preview.locator("a")).to_have_attribute("href", re.compile(r"/reglas/#"))
    tablet.tap("#dlg-conteo [data-anyway]")
    logged = ClaimEntry.objects.get(mesa=mesa, seq=len(log) + 1)
    assert logged.claim == {"kind": "conteo", "cards": {"A": 0, "B": 40}} and not logged.accepted
    assert logged.decision["code"] == refused.code


def test_the_confirmation_and_the_provisional_board_show_the_engines_points(live_server, page, mesa):
    log_claims(mesa, [MANO, caida("A")])
    open_screen(page, live_server, mesa)
    page.tap(".screen [data-claim=mal_repartidas]")
    dialog = page.locator("#dlg-confirm")
    expect(dialog).to_contain_text("Puntos: ")
    shown = re.search(r"Puntos: (.*)\.", dialog.locator(".confirm-text").inner_text()).group(1)
    Tablet(page, 2).tap("#dlg-confirm [data-label=yes]")
    decision = ClaimEntry.objects.get(mesa=mesa, seq=3).decision
    assert shown == points_text(decision["points"])
    # Offline, the board shows the engine's answer to the first waiting claim
    # (the preview is of the next claim); the ones after it are pending, not
    # guessed (issue 24). The server's answer to the first is the same.
    page.tap(".screen [data-claim=mano]")
    page.route("**/api/**", lambda route: route.abort())
    page.wait_for_timeout(1500)
    page.tap(".screen [data-claim=caida][data-pair=B]")
    expect(page.locator(".provisional")).to_be_visible()
    # 2 for A, 10 + 2 for B: caída (Art. 6), mal repartidas to the pair that did not deal (Art. 4).
    expect(score(page, "B")).to_have_text("12")
    expect(page.locator(".provisional-pending")).to_have_text("")
    # The centre panel does not guess the step after a waiting claim.
    expect(page.locator("#st-phase")).to_have_text("")
    page.wait_for_timeout(900)
    page.tap(".screen [data-claim=limpia][data-pair=A]")
    expect(page.locator(".provisional-pending")).to_have_text(" · 1 sin respuesta aún")
    assert (score(page, "A").inner_text(), score(page, "B").inner_text()) == ("2", "12")
    page.unroute("**/api/**")
    expect(page.locator("#net .net-waiting")).to_have_count(0, timeout=10000)
    expect(page.locator(".provisional")).to_be_hidden()
    # Caída (Art. 6) and limpia (Art. 9), as the server decided them.
    assert (score(page, "A").inner_text(), score(page, "B").inner_text()) == ("4", "12")
    assert [e.decision["points"] for e in ClaimEntry.objects.filter(mesa=mesa, seq__gt=4).order_by("seq")] == [
        {"A": 0, "B": 2},
        {"A": 2, "B": 0},
    ]
