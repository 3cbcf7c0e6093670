"""The juez's page, as a tablet downloads it from the production set-up: compressed, under 150 KB.

Chromium opens the juez's screen of a mesa in play from the production
server (collectstatic's hashed, gzip and Brotli files; ``DEBUG=false``),
with an empty cache, and every response's bytes on the wire (headers and
encoded body) are added up. docs/deployment.md gives the figure.
"""

import uuid

import pytest
from playwright.sync_api import expect

from refereeing.claimlog.log import record_claim
from tests.support.production import production_server, set_production_password

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "sota-caballo-rey"
LIMIT = 150 * 1024


def test_the_juez_page_transfers_under_150_kb_compressed(people, mesa, production_static, browser, capsys):
    juez = people["juez"]
    set_production_password(juez, PASSWORD)
    record_claim(mesa, {"kind": "mano"}, uuid.uuid4(), user=juez)
    with production_server(production_static) as url:
        signing_in = browser.new_context()
        page = signing_in.new_page()
        page.goto(url + "/cuenta/entrar/")
        page.fill("input[name=username]", juez.username)
        page.fill("input[name=password]", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_url(url + "/")
        # A fresh context with the session alone: nothing in its HTTP cache.
        context = browser.new_context(
            viewport={"width": 1024, "height": 768},
            has_touch=True,
            locale="es-EC",
            storage_state=signing_in.storage_state(),
        )
        signing_in.close()
        page = context.new_page()
        responses = []
        page.on("requestfinished", lambda request: responses.append(request))
        page.goto(f"{url}/mesa/{mesa.pk}/", wait_until="networkidle")
        expect(page.locator("#st-chica")).not_to_have_text("–")
        sizes = {r.url.removeprefix(url): r.sizes() for r in responses}
        for r in responses:
            if "/favicon." in r.url:
                # Chromium fetches the page's icon by itself and may report
                # its body as minus its headers: its length is on the wire.
                sizes[r.url.removeprefix(url)]["responseBodySize"] = int(r.response().headers["content-length"])
        encodings = {r.url.removeprefix(url): (r.response().headers.get("content-encoding") or "") for r in responses}
        context.close()

    assert all(s["responseBodySize"] >= 0 and s["responseHeadersSize"] > 0 for s in sizes.values()), sizes
    total = sum(s["responseBodySize"] + s["responseHeadersSize"] for s in sizes.values())
    with capsys.disabled():
        print(f"\njuez's page: {len(sizes)} responses, {total / 1024:.1f} KB transferred")
        for path, size in sorted(sizes.items(), key=lambda item: -item[1]["responseBodySize"]):
            print(f"  {size['responseBodySize'] / 1024:7.1f} KB  {encodings[path] or '-':3}  {path}")
    scripts_and_styles = [p for p in sizes if p.endswith((".js", ".css"))]
    assert scripts_and_styles and all(encodings[p] in ("br", "gzip") for p in scripts_and_styles), encodings
    assert total < LIMIT
