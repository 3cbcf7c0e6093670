"""A juez starts a seated mesa at the table (#23.3): the screen says what starts it,
"Iniciar mesa" starts it, and the first claim is taken. Chromium, a 1024x768 tablet, es-EC."""

import pytest
from playwright.sync_api import expect

from tests.support.rows import force
from tests.support.tablet import open_screen, shot
from tournament.models import Championship, Mesa

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_juez_starts_the_mesa_at_the_table_and_deals(live_server, page, mesa):
    Championship.objects.filter(pk=mesa.championship_id).update(start_mode=Championship.Start.TAP)
    force(Mesa.objects.filter(pk=mesa.pk), status=Mesa.Status.WAITING)
    open_screen(page, live_server, mesa)
    notice = page.locator("#start-notice")
    expect(notice).to_contain_text("Esta mesa no ha empezado.")
    # A claim before the start is refused with what to do.
    page.locator("[data-claim=mano]").click()
    expect(page.locator("#refusal")).to_contain_text("toque «Iniciar mesa» en esta pantalla")
    shot(page, "start-refused")
    page.locator("#refusal .refusal-ack").click()
    page.get_by_role("button", name="Iniciar mesa").click()
    expect(page.locator(".alert-success")).to_contain_text("La mesa ha empezado: registre sus jugadas.")
    expect(notice).to_have_count(0)
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.READY
    expect(page.locator("#st-chica")).not_to_have_text("–")  # the reloaded screen has its state
    page.locator("[data-claim=mano]").click()
    # The empty log has an item of its own: wait for the server's #1, not for any item.
    expect(page.locator("#log .log-item").first.locator(".log-seq")).to_have_text("#1")
    expect(page.locator("#net .net-waiting")).to_have_count(0)
    shot(page, "started")
    mesa.refresh_from_db()
    assert (mesa.status, mesa.last_seq) == (Mesa.Status.IN_PLAY, 1)
