"""The table PIN in a real browser: a tablet opens its table's mesa from the QR code's page, and follows the table.

Screenshots go to artifacts/ (the PIN page, a wrong PIN, the juez's screen
the PIN opened, and the organiser's printable table card).
"""

from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import expect

from refereeing.models import ClaimEntry
from tests.support.claims import make_pair
from tests.support.factories import play
from tests.support.planilla_factories import sign_all
from tournament.models import Mesa
from tournament.seating import seating

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts"
ARTIFACTS.mkdir(exist_ok=True)


def shot(page, name):
    page.screenshot(path=str(ARTIFACTS / f"claimlog-{name}.png"), full_page=True)


def test_a_tablet_opens_its_mesa_with_the_pin_and_logs_a_claim(page, live_server, mesa, table, people):
    # The address of a card printed before tables had their own PIN: the table's PIN page.
    page.goto(f"{live_server.url}/acceso/mesa/{mesa.pk}/")
    expect(page).to_have_url(f"{live_server.url}/acceso/mesa-fisica/{table.pk}/")
    expect(page.get_by_role("heading")).to_contain_text("Mesa física 3")
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


def test_the_table_number_and_pin_open_the_mesa(page, live_server, mesa, table):
    page.goto(f"{live_server.url}/acceso/")
    page.get_by_label("Número de mesa").fill("3")
    page.get_by_label("PIN").fill("482913")
    page.get_by_role("button", name="Abrir").tap()
    expect(page).to_have_url(f"{live_server.url}/mesa/{mesa.pk}/")


def test_the_organiser_prints_a_table_card_with_the_qr_code(page, live_server, mesa, table, people):
    client = Client()
    client.force_login(people["staff"])
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/acceso/mesa-fisica/{table.pk}/tarjeta/")
    expect(page.get_by_test_id("pin")).to_have_text("482913")
    qr = page.locator(".qr svg")
    assert qr.bounding_box()["width"] > 150
    shot(page, "table-card")


def test_the_organiser_prints_a_new_pin_from_the_tables_page(
    page, live_server, mesa, table, people, browser, browser_context_args
):
    # A tablet opened with the printed PIN.
    tablet = browser.new_context(**browser_context_args).new_page()
    tablet.goto(f"{live_server.url}/acceso/mesa-fisica/{table.pk}/")
    tablet.get_by_label("PIN").fill("482913")
    tablet.get_by_role("button", name="Abrir").tap()
    expect(tablet).to_have_url(f"{live_server.url}/mesa/{mesa.pk}/")

    client = Client()
    client.force_login(people["staff"])
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/campeonatos/{mesa.championship_id}/mesas/")
    row = page.locator("#physical-tables tbody tr[data-table='3']")
    expect(row).to_contain_text("Los Ases")
    expect(row.locator(".font-monospace")).to_have_text("482913")
    button = row.get_by_role("button", name="Nuevo PIN")
    assert button.bounding_box()["height"] >= 38
    shot(page, "tables-new-pin")
    button.tap()

    # The new card opens, with the new PIN and what it did.
    expect(page).to_have_url(f"{live_server.url}/acceso/mesa-fisica/{table.pk}/tarjeta/")
    expect(page.get_by_role("alert")).to_contain_text(
        "los dispositivos abiertos con el PIN anterior ya no tienen acceso"
    )
    table.refresh_from_db()
    assert table.pin != "482913" and table.pin_issued_by == people["staff"]
    expect(page.get_by_test_id("pin")).to_have_text(table.pin)
    shot(page, "table-card-new-pin")

    # The tablet lost its access at once: its screen is refused, the old PIN opens nothing.
    tablet.goto(f"{live_server.url}/mesa/{mesa.pk}/")
    expect(tablet).to_have_url(f"{live_server.url}/cuenta/entrar/?next=/mesa/{mesa.pk}/")
    tablet.goto(f"{live_server.url}/acceso/mesa-fisica/{table.pk}/")
    tablet.get_by_label("PIN").fill("482913")
    tablet.get_by_role("button", name="Abrir").tap()
    expect(tablet.locator(".invalid-feedback")).to_contain_text("PIN equivocado para esta mesa.")
    tablet.get_by_label("PIN").fill(table.pin)
    tablet.get_by_role("button", name="Abrir").tap()
    expect(tablet).to_have_url(f"{live_server.url}/mesa/{mesa.pk}/")

    # The tables page says who printed it.
    page.goto(f"{live_server.url}/campeonatos/{mesa.championship_id}/mesas/")
    expect(row).to_contain_text("reimpreso por organizador")
    shot(page, "tables-after-new-pin")


def test_a_tablet_opened_once_follows_its_table_across_mesas(page, live_server, championship, mesa, table, people):
    """Issue #23: the PIN is the physical table's; the tablet shows each mesa seated there in turn, with no sign-in."""
    following = Mesa.objects.create(
        championship=championship,
        round=2,
        position=1,
        pair_a=make_pair(championship, "Los Reyes", 3),
        pair_b=make_pair(championship, "Los Sietes", 4),
        status=Mesa.Status.READY,
    )
    page.goto(f"{live_server.url}/acceso/mesa-fisica/{table.pk}/")
    page.get_by_label("PIN").fill("482913")
    page.get_by_role("button", name="Abrir").tap()
    expect(page).to_have_url(f"{live_server.url}/mesa/{mesa.pk}/")
    expect(page.locator("#st-chica")).not_to_have_text("–")

    # The mesa ends; nothing is seated at the table yet, and the tablet says so (it asks every 10 s).
    play(mesa)
    news = page.locator("#table-news")
    expect(news).to_contain_text("Todavía no hay nada asignado a la mesa física 3.", timeout=15000)
    expect(news.get_by_role("link")).to_be_hidden()
    shot(page, "follow-nothing-seated")

    # The next mesa is seated at table 3: the planilla is not signed yet, so the tablet offers it and stays.
    seating.assign_table(following, 3, people["other_juez"], by=None)
    expect(news).to_contain_text("Lo próximo en la mesa física 3: Los Reyes contra Los Sietes.", timeout=15000)
    expect(news.get_by_role("link", name="Abrir la próxima mesa")).to_be_visible()
    expect(page).to_have_url(f"{live_server.url}/mesa/{mesa.pk}/")
    shot(page, "follow-next-offered")

    # Once signed, the tablet goes on to the next mesa by itself: its pairs, waiting for its first claim.
    sign_all(mesa)
    expect(page).to_have_url(f"{live_server.url}/mesa/{following.pk}/", timeout=15000)
    expect(page.locator(".pair-a .pair-name")).to_have_text("Los Reyes")
    expect(page.locator(".pair-b .pair-name")).to_have_text("Los Sietes")
    expect(page.locator("#st-chica")).not_to_have_text("–")
    shot(page, "follow-next-mesa")
    # No sign-in: the device logs there as the mesa's juez.
    page.tap(".screen [data-claim=mano]")
    expect(page.locator("#log .log-item").first.locator(".log-seq")).to_have_text("#1")
    entry = ClaimEntry.objects.get(mesa=following)
    assert entry.kind == "mano" and entry.juez == people["other_juez"]
    # The QR code's page, opened again, goes straight to the mesa at the table now.
    page.goto(f"{live_server.url}/acceso/mesa-fisica/{table.pk}/")
    expect(page).to_have_url(f"{live_server.url}/mesa/{following.pk}/")
