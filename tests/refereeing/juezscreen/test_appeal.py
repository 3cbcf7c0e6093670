"""An appeal in real browsers (Art. 17): filed on the juez's tablet, signed by
the pair's representative; admitted by the Director, which suspends the mesa
on the tablet; ruled, which resumes it with the score the ruling gives."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from refereeing.models import Appeal
from tests.support.claims import caida
from tests.support.tablet import draw, log_claims, login, open_screen, score, shot
from tournament.models import Mesa

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_appeal_suspends_the_mesa_and_the_ruling_resumes_it(live_server, page, browser, mesa):
    director = get_user_model().objects.create_user("director", password="director-secret", first_name="Jorge")
    mesa.championship.director = director
    mesa.championship.save()
    log_claims(mesa, [{"kind": "mano"}, caida("A")])

    open_screen(page, live_server, mesa)
    expect(score(page, "A")).to_have_text("2")
    page.tap("text=Apelación")
    # Touch targets of at least 48 px, as on the rest of the screen.
    assert all(box.bounding_box()["height"] >= 48 for box in page.locator("#div_id_pair .form-check").all())
    # The representative of the pair chosen is filled in (Art. 17: the appeal is signed).
    page.check("input[name=pair][value=B]")
    expect(page.locator("input[name=name]")).to_have_value("Marta Yépez")
    # Only the decisions a pair can object to, each with its pair, points and time:
    # the mano (#1) decides nothing.
    options = page.locator("select[name=seq] option").all_inner_texts()
    assert len(options) == 1 and options[0].lower().startswith("#2 · caída · a · los ases · a +2 · "), options
    page.select_option("select[name=seq]", "2")
    page.tap("text=Presentar la apelación")
    expect(page.locator("#pad-error")).to_be_visible()  # not signed yet: nothing is sent
    draw(page, page.locator("#appeal-pad"), finger=True)
    expect(page.locator("#pad-error")).to_be_hidden()
    page.tap("text=Presentar la apelación")  # no reason: the server sends the form back
    expect(page.locator("#div_id_reason")).to_contain_text("Este campo es requerido.")
    assert not Appeal.objects.exists()
    # Nothing typed or drawn is lost: only the reason is missing.
    expect(page.locator("input[name=name]")).to_have_value("Marta Yépez")
    page.fill("textarea[name=reason]", "La caída se hizo con una carta ya jugada.")
    shot(page, "appeal-form", full_page=True)
    page.tap("text=Presentar la apelación")
    expect(page.locator(".alert-success")).to_contain_text("Apelación de la pareja B sobre la decisión #2")
    appeal = Appeal.objects.get()
    assert (appeal.pair, appeal.seq, appeal.name) == ("B", 2, "Marta Yépez")
    expect(score(page, "A")).to_have_text("2")

    desk = browser.new_context(viewport={"width": 1024, "height": 768}, locale="es-EC")
    login(desk, live_server, director)
    director_page = desk.new_page()
    director_page.goto(f"{live_server.url}/apelaciones/")
    director_page.click(f"tr[data-appeal='{appeal.pk}'] >> text=Abrir")
    expect(director_page.locator("#appeal")).to_contain_text("La caída se hizo con una carta ya jugada.")
    director_page.click("text=Admitir: suspender la mesa")
    expect(director_page.locator(".alert-success")).to_contain_text("la mesa queda suspendida")
    shot(director_page, "appeal-director", full_page=True)

    # The tablet learns it from its poll, within its 2 seconds (Art. 17), and
    # says why: only the Director's ruling resumes it, so no Reanudar is offered.
    expect(page.locator("#banner")).to_have_text("Suspendida por apelación — espere al Director", timeout=5000)
    expect(page.locator(".screen [data-claim=reanudar]")).to_be_hidden()
    expect(page.locator(".screen [data-claim=suspender]")).to_be_hidden()
    shot(page, "appeal-suspended")

    director_page.check("input[name=rule-upheld][value=yes]")
    director_page.fill("textarea[name=rule-ruling]", "La carta ya se había jugado: se anula la caída.")
    director_page.check("input[name=rule-undo]")
    director_page.select_option("select[name=rule-adjust_pair]", "B")
    director_page.fill("input[name=rule-adjust_points]", "2")
    director_page.click("text=Resolver (inapelable) y reanudar la mesa")
    expect(director_page.locator(".alert-success")).to_contain_text("inapelable")
    expect(director_page.locator("#appeal")).to_contain_text("Con lugar")
    desk.close()

    # The ruling appears at the table, and stays until the pairs have read it.
    ruling = page.locator("#dlg-ruling")
    expect(ruling).to_be_visible(timeout=5000)
    expect(ruling).to_contain_text("Apelación de Caballos de Espada sobre la jugada n.º 2: Con lugar.")
    expect(ruling).to_contain_text("La carta ya se había jugado: se anula la caída.")
    expect(page.locator("#banner")).to_be_hidden()
    expect(score(page, "A")).to_have_text("0")
    expect(score(page, "B")).to_have_text("2")
    shot(page, "appeal-ruling")
    # A poll of the appeals answered by the server before the acknowledgement, and read by the tablet after it,
    # does not open the ruling again over the board.
    held = []

    def hold(route):
        if route.request.method != "GET":
            return route.continue_()
        held.append((route, route.fetch()))

    appeals_url = f"**/mesa/{mesa.pk}/apelaciones/"
    page.route(appeals_url, hold)
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the tablet polls its appeals while one waits to be read"
    ruling.locator("[data-action=ack-ruling]").tap()
    expect(ruling).to_be_hidden()
    for route, answer in list(held):
        route.fulfill(response=answer)
    page.unroute(appeals_url)  # after: it lets any later poll through
    page.wait_for_timeout(1500)
    expect(ruling).to_be_hidden()
    appeal.refresh_from_db()
    assert appeal.acknowledged_at is not None and appeal.acknowledged_by == mesa.juez
    # Read once: a reload does not show it again.
    page.reload()
    expect(page.locator("#st-chica")).not_to_have_text("–")
    page.wait_for_timeout(1500)
    expect(ruling).to_be_hidden()
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.IN_PLAY
    shot(page, "appeal-resumed")
