"""axe-core (vendored for the tests in tests/support/static/vendor/axe-core) on the juez's screens, in
each state a juez sees, on the Director's desk and on every other page each
role reaches: no serious or critical violation (contrast of 4.5:1, labels
on every input, names on every button...)."""

import uuid

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from refereeing.access.permissions import table_of
from refereeing.models import Appeal
from tests.support.claims import MANO, SIGNED, caida
from tests.support.factories import organiser
from tests.support.tablet import log_claims, login, open_screen, violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def directed(mesa):
    """The Director of the mesa's championship, made for it."""
    director = get_user_model().objects.create_user("directora")
    mesa.championship.director = director
    mesa.championship.save()
    return director


def appeal_of_b(mesa, **fields):
    """Pair B's appeal of claim #2, signed."""
    return Appeal.objects.create(
        mesa=mesa,
        client_id=uuid.uuid4(),
        pair="B",
        seq=2,
        reason="Carta ya jugada.",
        name="Marta Yépez",
        signature=SIGNED,
        **fields,
    )


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
    appeal = appeal_of_b(mesa, status=Appeal.Status.ADMITTED, suspended_mesa=True)
    open_screen(page, live_server, mesa)
    expect(page.locator("#banner")).to_have_text("Suspendida por apelación — espere al Director")
    assert violations(page, live_server) == []
    Appeal.objects.filter(pk=appeal.pk).update(status=Appeal.Status.REJECTED, ruling="La caída vale.")
    expect(page.locator("#dlg-ruling")).to_be_visible(timeout=5000)
    assert violations(page, live_server, "#dlg-ruling") == []


def test_the_finished_mesa_mis_mesas_and_the_appeal_form(live_server, page, mesa):
    from tests.support.tablet import ZAPATERIA

    log_claims(mesa, ZAPATERIA)
    open_screen(page, live_server, mesa)
    expect(page.locator("#signatures")).to_be_visible()
    assert violations(page, live_server) == []
    page.goto(f"{live_server.url}/mesa/")
    assert violations(page, live_server) == []
    login(page.context, live_server, mesa.juez)
    page.goto(f"{live_server.url}/mesa/{mesa.pk}/apelacion/")
    assert violations(page, live_server) == []


def test_the_directors_list_of_appeals_takes_a_new_one_in_place(live_server, page, mesa):
    """The list is fetched again every 15 s and put in place: no page refresh (axe's meta-refresh: a reload every
    15 s lost the reader's place), and on a phone each table scrolls sideways and can be reached from the keyboard."""
    director = directed(mesa)
    log_claims(mesa, [MANO, caida("A"), {"kind": "suspender"}])
    page.clock.install()
    login(page.context, live_server, director)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/apelaciones/")
    expect(page.locator("tr[data-appeal]")).to_have_count(0)
    assert violations(page, live_server) == []
    page.evaluate("window.sameDocument = true")
    appeal = appeal_of_b(mesa)
    page.clock.run_for(16000)
    expect(page.locator(f"tr[data-appeal='{appeal.pk}']")).to_contain_text("Caballos de Espada")
    assert page.evaluate("window.sameDocument") is True
    assert violations(page, live_server) == []


@pytest.mark.parametrize("width, height", [(1024, 768), (390, 844)])
def test_the_other_pages_of_each_role(live_server, page, mesa, width, height):
    """The PIN pages and the planilla's verification (anyone), the Director's appeal, the organiser's jueces, sedes,
    batch printing and cards, the accounts (the juez's own pages: the tests above)."""
    director = directed(mesa)
    log_claims(mesa, [MANO, caida("A")])
    appeal = appeal_of_b(mesa)
    champ = mesa.championship_id
    table = table_of(mesa)
    pages = [
        (None, ["/acceso/", f"/acceso/mesa-fisica/{table.pk}/", "/planilla/verificar/"]),
        (director, [f"/apelaciones/{appeal.pk}/"]),
        (
            organiser(),
            [
                "/jueces/",
                f"/planilla/campeonato/{champ}/imprimir/",
                f"/acceso/mesa-fisica/{table.pk}/tarjeta/",
                "/campeonatos/sedes/",
                f"/campeonatos/{champ}/parejas/{mesa.pair_a_id}/tarjeta/",
            ],
        ),
        (get_user_model().objects.create_superuser("raiz", password=None), ["/comite/cuentas/"]),
    ]
    page.set_viewport_size({"width": width, "height": height})
    for user, paths in pages:
        page.context.clear_cookies()
        if user:
            login(page.context, live_server, user)
        for path in paths:
            assert page.goto(live_server.url + path).status == 200, path
            assert (path, violations(page, live_server)) == (path, [])


@pytest.mark.parametrize("width, height", [(1024, 768), (390, 844)])
def test_the_directors_ruling_form_and_waiting_count(live_server, page, mesa, width, height, tmp_path):
    """The ruling form of an admitted appeal, its ajuste offering the pairs by name, and the count in the bar."""
    director = directed(mesa)
    log_claims(mesa, [MANO, caida("A")])
    appeal = appeal_of_b(mesa, status=Appeal.Status.ADMITTED, suspended_mesa=True)
    login(page.context, live_server, director)
    page.set_viewport_size({"width": width, "height": height})
    assert page.goto(f"{live_server.url}/apelaciones/{appeal.pk}/").status == 200
    options = page.locator("select[name=rule-adjust_pair] option").all_inner_texts()
    assert options == ["—", str(mesa.pair_a), str(mesa.pair_b)]
    assert page.locator(".waiting-appeals").first.text_content().startswith("1")
    page.screenshot(path=str(tmp_path / f"ruling-{width}.png"), full_page=True)
    assert violations(page, live_server) == []
