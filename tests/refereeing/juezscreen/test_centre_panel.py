"""The centre panel says what is true, as the engine tells it (issue 24).

With the first dealer A1 (Ana Chávez) and four players, a mano's turns run
B1, A2, B2, A1 (Art. 3e); a data has two manos; after a data the deal
passes to B1 (Marta Yépez, Art. 3f).
"""

import pytest
from playwright.sync_api import expect

from refereeing.models import ClaimEntry
from tests.support.claims import MANO
from tests.support.tablet import Tablet, log_claims, open_screen, score, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAST_MANO = "Última mano de la data: al terminarla, el conteo."
END_OF_DATA = "Fin de la data: haga el conteo."
DEAL = "Reparta la data; toque «Mano» una vez repartidas las cartas."


def counters(page):
    return [page.locator(f"#st-{name}").inner_text() for name in ("chica", "data", "mano", "dealer")]


def test_end_of_the_data_only_once_the_last_mano_is_played_then_the_next_data_art_3f(live_server, page, mesa):
    log_claims(mesa, [MANO, MANO])
    open_screen(page, live_server, mesa)
    # The last mano is dealt, not played: no "end of the data" yet.
    expect(page.locator("#st-phase")).to_have_text(LAST_MANO)
    assert counters(page) == ["1", "1", "2", "Ana Chávez (A1)"]
    shot(page, "panel-last-mano")
    tablet = Tablet(page, 2)
    tablet.conteo("A", 26)
    # Right after the conteo: the next data, its first mano, its dealer (Art. 3f).
    expect(page.locator("#st-data")).to_have_text("2")
    assert counters(page) == ["1", "2", "1", "Marta Yépez (B1)"]
    expect(page.locator("#st-phase")).to_have_text(DEAL)
    expect(page.locator(".pair-card[data-side=B] .dealer-chip")).to_be_visible()
    shot(page, "panel-after-conteo")


def test_end_of_the_data_once_the_dealer_played_his_last_card_art_3f(live_server, page, mesa):
    # Five caídas by A1, the dealer: the last is at the mano's last turn, so every card is played.
    log_claims(mesa, [MANO, MANO] + [{"kind": "caida", "pair": "A", "player": 1}] * 5)
    open_screen(page, live_server, mesa)
    expect(page.locator("#st-phase")).to_have_text(END_OF_DATA)


def test_mal_repartidas_is_taken_while_dealing_art_4(live_server, page, mesa):
    open_screen(page, live_server, mesa)
    expect(page.locator("#st-phase")).to_have_text(DEAL)
    page.tap(".screen [data-claim=mal_repartidas]")
    dialog = page.locator("#dlg-confirm")
    # The engine's answer before confirming: 10 to the pair that did not deal (Art. 4c).
    expect(dialog).to_contain_text("Puntos: Caballos de Espada +10.")
    Tablet(page).tap("#dlg-confirm [data-label=yes]")
    expect(score(page, "B")).to_have_text("10")
    expect(page.locator(".pair-card[data-side=B] .chip.perro")).to_have_count(1)
    # The rewarded pair deals the next data (Art. 4c).
    assert counters(page) == ["1", "2", "1", "Marta Yépez (B1)"]
    assert ClaimEntry.objects.get(mesa=mesa, seq=1).accepted
    shot(page, "panel-mal-repartidas")


def test_undo_names_the_engines_target_and_its_refusal_art_16(live_server, page, mesa):
    # The ronda is voided: "undo" would now void the mano, which only the claim right after it may.
    log_claims(mesa, [MANO, {"kind": "ronda", "pair": "A", "player": 1}, {"kind": "void", "target": 2}])
    open_screen(page, live_server, mesa)
    page.tap("[data-action=undo]")
    expect(page.locator("#refusal .refusal-text")).to_have_text(
        "Anulación #1: Una mano se anula solo mientras no hay ninguna jugada anotada en ella. (Art. 16)"
    )
    assert ClaimEntry.objects.filter(mesa=mesa).count() == 3


def highlighted(page, expected):
    """Whether the controls the screen highlights as the next step are ``expected``, once their shadows' transition
    (Bootstrap's, 0.15 s) is over."""
    for _ in range(20):
        shown = page.eval_on_selector_all(
            "#controls button",
            "els => els.filter(e => getComputedStyle(e).boxShadow.includes('255, 193, 7'))"
            ".map(e => e.dataset.claim || e.dataset.open + e.dataset.counted)",
        )
        if shown == expected:
            return True
        page.wait_for_timeout(100)
    return shown


def test_the_highlights_follow_the_engines_next_step_art_3f(live_server, page, mesa):
    """The conteo was highlighted as soon as the last mano was dealt; it is due once its cards are all played."""
    dealers_caida = {"kind": "caida", "pair": "A", "player": 1}
    log_claims(mesa, [MANO, MANO] + [dealers_caida] * 4)
    open_screen(page, live_server, mesa)
    expect(page.locator("#st-phase")).to_have_text(LAST_MANO)
    assert highlighted(page, []) is True
    # The dealer's fifth caída is at the mano's last turn: every card is played (Art. 3f).
    log_claims(mesa, [dealers_caida])
    expect(page.locator("#st-phase")).to_have_text(END_OF_DATA)
    assert highlighted(page, ["conteoA", "conteoB"]) is True
    Tablet(page, 7).conteo("A", 30)
    expect(page.locator("#st-phase")).to_have_text(DEAL)
    assert highlighted(page, ["mano"]) is True
