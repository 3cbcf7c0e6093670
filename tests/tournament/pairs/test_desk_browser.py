"""The check-in desk in a real browser (issue #23 point 5): a pair marked present in place, at the
queue's speed, without the page reloading or leaving its row, with an undo; the same without script;
and a late pair added to the draw from its row (point 4). Screenshots go to artifacts/."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.factories import championship, organiser, pairs
from tournament.draws import draws
from tournament.models import Pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts"


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"desk-{name}.png"), full_page=True)


def sign_in(page, live_server, to):
    page.goto(live_server.url + "/cuenta/entrar/?next=" + to)
    page.fill("input[name=username]", "organizador")
    page.fill("input[name=password]", "cuarenta")
    page.click("main button[type=submit]")


def test_check_in_marks_the_row_in_place_and_undoes_it(live_server, page):
    organiser("organizador")
    champ = championship(name="Copa Chimborazo")
    made = pairs(champ, 30, present=False)
    target = made[24]
    sign_in(page, live_server, f"/campeonatos/{champ.pk}/parejas/")
    expect(page.locator("#attendance")).to_have_text("Presentes: 0 · esperadas: 30 · retiradas: 0.")
    page.fill("#pair-search", "0025")
    row = page.locator(f"#pair-{target.pk}")
    expect(row).to_be_visible()
    # A mark on the page itself: a reload would wipe it.
    page.evaluate("window.stayed = true")
    row.get_by_role("button", name="Marcar presente").click()
    expect(row.locator(".badge.arrival")).to_have_text("Presente")
    expect(page.locator("#attendance")).to_have_text("Presentes: 1 · esperadas: 29 · retiradas: 0.")
    assert page.evaluate("window.stayed") is True
    expect(page.locator("#pair-search")).to_be_focused()
    target.refresh_from_db()
    assert target.arrival == "present"
    shot(page, "01-checked-in-in-place")

    row.get_by_role("button", name="Deshacer").click()
    expect(row.get_by_role("button", name="Marcar presente")).to_be_visible()
    expect(page.locator("#attendance")).to_have_text("Presentes: 0 · esperadas: 30 · retiradas: 0.")
    assert page.evaluate("window.stayed") is True
    target.refresh_from_db()
    assert target.arrival == "expected"
    shot(page, "02-undone")

    # The next of the queue, typed into the search box that kept the focus.
    page.keyboard.type("0003")
    expect(page.locator(f"#pair-{made[2].pk}")).to_be_visible()
    expect(page.locator(f"#pair-{target.pk}")).to_be_hidden()
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator(f"#pair-{made[2].pk}").get_by_role("button", name="Marcar presente").click()
    expect(page.locator("#attendance")).to_have_text("Presentes: 1 · esperadas: 29 · retiradas: 0.")
    shot(page, "03-phone")


def test_without_script_check_in_reloads_at_its_row(live_server, browser):
    organiser("organizador")
    champ = championship(name="Copa Chimborazo")
    made = pairs(champ, 30, present=False)
    context = browser.new_context(java_script_enabled=False, locale="es-EC")
    page = context.new_page()
    sign_in(page, live_server, f"/campeonatos/{champ.pk}/parejas/")
    with page.expect_navigation():
        page.locator(f"#pair-{made[27].pk}").get_by_role("button", name="Marcar presente").click()
    assert page.url.endswith(f"/parejas/#pair-{made[27].pk}")
    expect(page.locator(f"#pair-{made[27].pk} .badge.arrival")).to_have_text("Presente")
    expect(page.locator("#attendance")).to_have_text("Presentes: 1 · esperadas: 29 · retiradas: 0.")
    context.close()


def test_a_late_pair_is_added_to_the_draw_from_its_row_after_a_preview(live_server, page):
    organiser("organizador")
    champ = championship(name="Copa Chimborazo")
    pairs(champ, 5)
    draws.draw_bracket(champ, seed=7, by=None)
    late = Pair.objects.create(championship=champ, name="Los Tardíos")
    sign_in(page, live_server, f"/campeonatos/{champ.pk}/parejas/")
    row = page.locator(f"#pair-{late.pk}")
    row.get_by_role("button", name="Marcar presente").click()
    expect(row.locator(".not-drawn")).to_contain_text("No está en las llaves")
    shot(page, "04-late-pair")
    row.get_by_role("link", name="Agregar al sorteo").click()
    preview = page.locator("#correction-preview")
    expect(preview).to_contain_text("Cambian 2 mesas")
    expect(preview).to_contain_text("Los Tardíos")
    shot(page, "05-correction-preview")
    page.get_by_role("button", name="Confirmar la corrección").click()
    expect(page.locator(".alert-success")).to_have_text("Sorteo corregido.")
    assert late.pk in draws.drawn_pair_ids(champ)
    page.goto(f"{live_server.url}/campeonatos/{champ.pk}/parejas/")
    expect(page.locator(".not-drawn")).to_have_count(0)


def test_a_pair_checks_itself_in_from_its_phone(live_server, browser):
    champ = championship(name="Copa Chimborazo", self_check_in=True)
    pair = pairs(champ, 2, present=False)[0]
    phone = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True, locale="es-EC")
    phone.goto(f"{live_server.url}/pareja/{pair.token}/")
    expect(phone.locator("#not-drawn")).to_have_text("Las llaves todavía no se sortean.")
    shot(phone, "06-pair-page-check-in-open")
    phone.get_by_role("button", name="Ya estamos aquí").click()
    expect(phone.locator("#checked-in .badge")).to_have_text("Presente")
    expect(phone.locator("#check-in-itself")).to_have_count(0)
    pair.refresh_from_db()
    assert pair.arrival == "present"
    shot(phone, "07-pair-page-present")
    phone.close()
