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
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/acceso/mesa/{mesa.pk}/tarjeta/")
    expect(page.get_by_test_id("pin")).to_have_text("482913")
    qr = page.locator(".qr svg")
    assert qr.bounding_box()["width"] > 150
    shot(page, "table-card")
