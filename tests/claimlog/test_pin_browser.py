"""The table PIN in a real browser: a tablet opens its mesa from the QR code's page.

Screenshots go to artifacts/ (the PIN page, a wrong PIN, the juez's screen
the PIN opened, and the organiser's printable table card).
"""

from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import expect

from refereeing.models import ClaimEntry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
ARTIFACTS.mkdir(exist_ok=True)


def shot(page, name):
    page.screenshot(path=str(ARTIFACTS / f"claimlog-{name}.png"), full_page=True)


def test_a_tablet_opens_its_mesa_with_the_pin_and_logs_a_claim(page, live_server, mesa, people):
    page.goto(f"{live_server.url}/acceso/mesa/{mesa.pk}/")
    expect(page.get_by_role("heading")).to_have_text("Mesa física 3")
    pin = page.get_by_label("PIN")
    box = pin.bounding_box()
    assert box["height"] >= 48  # a touch target
    shot(page, "pin-page")

    pin.fill("000000")
    page.get_by_role("button", name="Abrir").tap()
    expect(page.locator(".invalid-feedback")).to_contain_text("PIN equivocado para esta mesa.")
    shot(page, "pin-wrong")

    page.get_by_label("PIN").fill("482913")
    page.get_by_role("button", name="Abrir").tap()
    expect(page).to_have_url(f"{live_server.url}/mesa/{mesa.pk}/")
    expect(page.locator("#st-chica")).not_to_have_text("–")
    # The anonymous device now logs claims as the mesa's juez.
    page.tap(".screen [data-claim=mano]")
    expect(page.locator("#log .log-item").first.locator(".log-seq")).to_have_text("#1")
    shot(page, "pin-screen")
    entry = ClaimEntry.objects.get(mesa=mesa)
    assert entry.kind == "mano" and entry.juez == people["juez"]


def test_the_table_number_and_pin_open_the_mesa(page, live_server, mesa):
    page.goto(f"{live_server.url}/acceso/")
    page.get_by_label("Número de mesa").fill("3")
    page.get_by_label("PIN").fill("482913")
    page.get_by_role("button", name="Abrir").tap()
    expect(page).to_have_url(f"{live_server.url}/mesa/{mesa.pk}/")


def test_the_organiser_prints_a_table_card_with_the_qr_code(page, live_server, mesa, people):
    client = Client()
    client.force_login(people["staff"])
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/acceso/mesa/{mesa.pk}/tarjeta/")
    expect(page.get_by_test_id("pin")).to_have_text("482913")
    qr = page.locator(".qr svg")
    assert qr.bounding_box()["width"] > 150
    shot(page, "table-card")


def test_the_organiser_prints_a_new_pin_from_the_tables_page(
    page, live_server, mesa, people, browser, browser_context_args
):
    # A tablet opened with the printed PIN.
    tablet = browser.new_context(**browser_context_args).new_page()
    tablet.goto(f"{live_server.url}/acceso/mesa/{mesa.pk}/")
    tablet.get_by_label("PIN").fill("482913")
    tablet.get_by_role("button", name="Abrir").tap()
    expect(tablet).to_have_url(f"{live_server.url}/mesa/{mesa.pk}/")

    client = Client()
    client.force_login(people["staff"])
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/campeonatos/{mesa.championship_id}/mesas/")
    row = page.locator("#tables tbody tr", has_text="Los Ases")
    expect(row.locator(".font-monospace")).to_have_text("482913")
    button = row.get_by_role("button", name="Nuevo PIN")
    assert button.bounding_box()["height"] >= 38
    shot(page, "tables-new-pin")
    button.tap()

    # The new card opens, with the new PIN and what it did.
    expect(page).to_have_url(f"{live_server.url}/acceso/mesa/{mesa.pk}/tarjeta/")
    expect(page.get_by_role("alert")).to_contain_text(
        "los dispositivos abiertos con el PIN anterior ya no tienen acceso"
    )
    mesa.refresh_from_db()
    assert mesa.pin != "482913" and mesa.pin_issued_by == people["staff"]
    expect(page.get_by_test_id("pin")).to_have_text(mesa.pin)
    shot(page, "table-card-new-pin")

    # The tablet lost its access at once: its screen is refused, the old PIN opens nothing.
    tablet.goto(f"{live_server.url}/mesa/{mesa.pk}/")
    expect(tablet).to_have_url(f"{live_server.url}/cuenta/entrar/?next=/mesa/{mesa.pk}/")
    tablet.goto(f"{live_server.url}/acceso/mesa/{mesa.pk}/")
    tablet.get_by_label("PIN").fill("482913")
    tablet.get_by_role("button", name="Abrir").tap()
    expect(tablet.locator(".invalid-feedback")).to_contain_text("PIN equivocado para esta mesa.")
    tablet.get_by_label("PIN").fill(mesa.pin)
    tablet.get_by_role("button", name="Abrir").tap()
    expect(tablet).to_have_url(f"{live_server.url}/mesa/{mesa.pk}/")

    # The tables page says who printed it.
    page.goto(f"{live_server.url}/campeonatos/{mesa.championship_id}/mesas/")
    expect(row).to_contain_text("reimpreso por organizador")
    shot(page, "tables-after-new-pin")
