"""axe-core (vendored in static/vendor/axe-core) on the juez's screens, in
each state a juez sees: no serious or critical violation (contrast of
4.5:1, labels on every input, names on every button...)."""

import pytest
from playwright.sync_api import expect

from refereeing.models import Appeal
from tests.claimlog.conftest import SIGNED
from tests.juezscreen.conftest import MANO, caida, log_claims, login, open_screen

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def violations(page, live_server, context=None):
    """The serious and critical violations axe finds on the page (or inside ``context``), as readable lines."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(url=f"{live_server.url}/static/vendor/axe-core/axe.min.js")
    found = page.evaluate(
        "async (ctx) => (await axe.run(ctx ? document.querySelector(ctx) : document)).violations"
        ".filter(v => ['serious', 'critical'].includes(v.impact))"
        ".map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))",
        context,
    )
    return found


def test_the_screen_in_play_with_a_refusal_and_offline(live_server, page, mesa):
    log_claims(
        mesa, [MANO, caida("A"), {"kind": "void", "target": 2}, MANO, {"kind": "conteo", "cards": {"A": 20, "B": 20}}]
    )
    open_screen(page, live_server, mesa)
    expect(page.locator("#refusal")).to_be_hidden()
    assert violations(page, live_server) == []
    page.tap(".screen [data-claim=caida][data-pair=B]")  # no mano dealt: refused
    expect(page.locator("#refusal")).to_be_visible()
    page.context.set_offline(True)
    page.tap(".screen [data-claim=caida][data-pair=B]")
    expect(page.locator(".provisional")).to_be_visible()
    assert violations(page, live_server) == []
    page.context.set_offline(False)


@pytest.mark.parametrize(
    "opener, dialog",
    [
        (".screen [data-open=conteo][data-counted=A]", "#dlg-conteo"),
        (".screen [data-open=jyv][data-pair=B]", "#dlg-jyv"),
        (".screen [data-claim=mal_repartidas]", "#dlg-confirm"),
        ("[data-open=settings]", "#dlg-settings"),
    ],
)
def test_the_dialogs(live_server, page, mesa, opener, dialog):
    log_claims(mesa, [MANO, caida("A")])
    open_screen(page, live_server, mesa)
    page.tap(opener)
    expect(page.locator(dialog)).to_be_visible()
    if dialog == "#dlg-conteo":
        page.tap("#dlg-conteo [data-key='2']")
    assert violations(page, live_server, dialog) == []


def test_the_appeal_banner_and_the_ruling(live_server, page, mesa):
    log_claims(mesa, [MANO, caida("A"), {"kind": "suspender"}])
    appeal = Appeal.objects.create(
        mesa=mesa,
        client_id="00000000-0000-4000-8000-000000000001",
        pair="B",
        seq=2,
        reason="Carta ya jugada.",
        name="Marta Yépez",
        signature=SIGNED,
        status=Appeal.Status.ADMITTED,
        suspended_mesa=True,
    )
    open_screen(page, live_server, mesa)
    expect(page.locator("#banner")).to_have_text("Suspendida por apelación — espere al Director")
    assert violations(page, live_server) == []
    Appeal.objects.filter(pk=appeal.pk).update(status=Appeal.Status.REJECTED, ruling="La caída vale.")
    expect(page.locator("#dlg-ruling")).to_be_visible(timeout=5000)
    assert violations(page, live_server, "#dlg-ruling") == []


def test_the_finished_mesa_mis_mesas_and_the_appeal_form(live_server, page, mesa):
    from tests.juezscreen.conftest import ZAPATERIA

    log_claims(mesa, ZAPATERIA)
    open_screen(page, live_server, mesa)
    expect(page.locator("#signatures")).to_be_visible()
    assert violations(page, live_server) == []
    page.goto(f"{live_server.url}/mesa/")
    assert violations(page, live_server) == []
    login(page.context, live_server, mesa.juez)
    page.goto(f"{live_server.url}/mesa/{mesa.pk}/apelacion/")
    assert violations(page, live_server) == []
