"""Printing a round from the browser: the progress page polls until the PDF is ready."""

import pytest
from django.conf import settings
from django.test import Client

from tests.support import planilla_factories as factories
from tests.support.factories import organiser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = settings.BASE_DIR / "artifacts"


def sign_in(page, live_server, user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def test_printing_a_round_shows_progress_then_the_pdf(live_server, page):
    mesa, _log = factories.zapateria_mesa()
    factories.short_mesa(factories.mesa(mesa.championship, position=4))
    sign_in(page, live_server, organiser("staff"))
    hosts = set()
    page.on("request", lambda request: hosts.add(request.url.split("/")[2]))
    page.goto(f"{live_server.url}/planilla/campeonato/{mesa.championship_id}/imprimir/")
    page.select_option("select[name=scope]", "W-2")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "planilla-batch-form.png"))
    page.get_by_role("button", name="Preparar el PDF").click()
    page.wait_for_url("**/planilla/lote/**")
    assert page.get_by_text("Imprimiendo planillas").first.is_visible()
    download = page.get_by_role("link", name="Abrir el PDF")
    download.wait_for(state="visible", timeout=90_000)
    assert page.locator("#count").inner_text() == "2 de 2 planillas compuestas"
    page.screenshot(path=str(ARTIFACTS / "planilla-batch-done.png"))
    response = page.request.get(live_server.url + download.get_attribute("href"))
    assert response.status == 200 and response.body().startswith(b"%PDF")
    assert hosts == {live_server.url.split("/")[2]}


def test_the_verification_page_on_a_phone(live_server, page):
    from refereeing.planilla import verification

    mesa, _log = factories.zapateria_mesa()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/planilla/verificar/")
    page.fill("input[name=codigo]", verification.verification_code(mesa).lower())
    page.get_by_role("button", name="Comprobar").click()
    assert page.get_by_text("El código coincide con el registro.").is_visible()
    page.screenshot(path=str(ARTIFACTS / "planilla-verify-phone.png"), full_page=True)
    page.goto(f"{live_server.url}/planilla/verificar/{mesa.pk}-AAAA-BBBB-CCCC/")
    assert page.get_by_text("Este código no corresponde a ninguna planilla.").is_visible()
