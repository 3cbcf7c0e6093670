"""In Chromium: every answer carries the Content Security Policy, and the pages whose scripts moved to
static files still work under it, with no violation reported."""

import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from refereeing.access.permissions import table_of
from refereeing.planilla import batch as planilla_batch
from tests.support.claims import make_pair
from tests.support.factories import championship, organiser
from tournament.models import Mesa

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", e => window.__violations.push(e.violatedDirective + " " + e.blockedURI));
window.print = () => { window.__printed = true; };
"""


@pytest.fixture
def watched(page, live_server):
    """The page, with CSP violations and console errors recorded, and every request to another host refused."""
    page.add_init_script(WATCH)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    foreign = []

    def only_this_server(route):
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:
            foreign.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_server)
    yield page
    assert page.evaluate("window.__violations") == []
    assert [e for e in errors if "Content Security Policy" in e] == []
    assert foreign == []


def sign_in(page, live_server, username, password="cuarenta"):
    page.goto(live_server.url + "/cuenta/entrar/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")


def test_pages_carry_the_policy_and_the_language_menu_works(watched, live_server):
    response = watched.goto(live_server.url + "/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    expect(watched.locator("html")).to_have_attribute("lang", "es-ec")
    watched.select_option("select[name=language]", "en")
    expect(watched.locator("html")).to_have_attribute("lang", "en")
    expect(watched.locator("main")).to_contain_text("Championships")


def test_the_pin_card_prints_and_the_planilla_job_shows_its_progress(watched, live_server, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    organiser("organizador")
    champ = championship()
    mesa = Mesa.objects.create(
        championship=champ,
        round=1,
        position=1,
        table_number=5,
        pair_a=make_pair(champ, "Los Ases", 1),
        pair_b=make_pair(champ, "Las Sotas", 2),
        status=Mesa.Status.READY,
    )
    sign_in(watched, live_server, "organizador")

    watched.goto(f"{live_server.url}/acceso/mesa-fisica/{table_of(mesa).pk}/tarjeta/")
    watched.click("button[data-print]")
    assert watched.evaluate("window.__printed") is True

    job = {
        "id": "a" * 32,
        "championship": champ.pk,
        "user": get_user_model().objects.get(username="organizador").pk,
        "title": "Ronda 1",
        "language": "es-ec",
        "total": 4,
        "done": 1,
        "status": "running",
        "error": "",
        "updated": time.time(),
    }
    planilla_batch._write(job)
    watched.goto(f"{live_server.url}/planilla/lote/{job['id']}/")
    expect(watched.locator("#count")).to_have_text("1 de 4 planillas compuestas")
    planilla_batch._write({**job, "done": 3})
    expect(watched.locator("#count")).to_have_text("3 de 4 planillas compuestas")
    planilla_batch._write({**job, "done": 4, "status": "done"})
    expect(watched.locator("#download")).to_be_visible()
    expect(watched.locator("#bar")).to_have_attribute("style", "width: 100%;")


def test_the_api_documentation_loads_from_this_server_alone(watched, live_server):
    operations = watched.request.get(live_server.url + "/api/schema/?format=json").json()["paths"]
    count = sum(1 for methods in operations.values() for method in methods if method in {"get", "post"})
    assert count >= 7, operations.keys()
    response = watched.goto(live_server.url + "/api/docs/")
    assert "content-security-policy" in response.headers
    expect(watched.locator(".opblock")).to_have_count(count)
    expect(watched.locator(".opblock-summary-path").first).to_contain_text("/api/")
