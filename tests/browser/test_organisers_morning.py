"""The organiser's morning, walked in Chromium (issue #35, "done when"): 64 pairs over two sedes and ten new jueces
in at most 40 desk actions, as ``benchmarks/day.py`` counts them through the same endpoints.

A desk action is a request of the organiser's browser that changes something, or previews it: every request it
sends that is not a GET, counted as the browser sends them (the page loads and the clicks are counted apart). The
organiser signs in, makes two sedes, imports ten jueces (available today as they are made; one of them cannot come
and is marked not available in place), and for each sede a championship that seats itself and lets its pairs check
themselves in, with its 32 pairs imported. 29 pairs of each check themselves in from their phones (their card's
link: not the desk); the desk checks in one with no phone and marks one withdrawn, both in place; the draw's page
lists the late pair, still expected, and the desk draws without it; the late pair arrives and is added to the draw
from its row. The desk never reloads a page to mark a pair or a juez: the marks are made in place.
"""

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from tests.support.browser import sign_in
from tests.support.factories import organiser
from tournament.accounts import accounts
from tournament.draws import draws
from tournament.models import Championship, Pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
GOAL = 40
JUECES = 10
PAIRS = 32  # a championship, at each of the two sedes


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"morning-{name}.png"), full_page=True)


class Desk:
    """The organiser's browser, its actions counted as it sends them."""

    def __init__(self, page):
        self.page, self.actions, self.loads = page, [], 0
        page.on("request", self.sent)

    def sent(self, request):
        if request.method != "GET":
            self.actions.append(request.url)
        elif request.resource_type == "document":
            self.loads += 1

    def upload(self, name, lines):
        self.page.set_input_files(
            "input[name=file]", files=[{"name": name, "mimeType": "text/csv", "buffer": "\n".join(lines).encode()}]
        )


def make_championship(page, live_server, number, sede):
    page.goto(f"{live_server.url}/")
    page.click("text=Nuevo campeonato")
    today = timezone.localdate().isoformat()
    page.fill("input[name=name]", f"Copa {number} de la mañana")
    page.fill("input[name=start_date]", today)
    page.fill("input[name=end_date]", today)
    page.select_option("select[name=sede]", label=sede)
    page.check("input[name=auto_seating]")
    page.select_option("select[name=start_mode]", Championship.Start.FIRST_CLAIM)
    page.check("input[name=self_check_in]")
    page.click("main button[type=submit]")
    expect(page.locator("#ruleset")).to_be_visible()
    return Championship.objects.get(name=f"Copa {number} de la mañana")


def test_the_organisers_morning_takes_at_most_forty_desk_actions(live_server, page):
    organiser("organizador")
    desk = Desk(page)
    sign_in(page, live_server, "organizador", "/")
    expect(page.locator("main")).to_contain_text("Nuevo campeonato")

    sedes = ["Coliseo de Riobamba", "Casa Barrial de Guano"]
    page.goto(f"{live_server.url}{reverse('tournament:sedes')}")
    for sede in sedes:
        page.fill("input[name=name]", sede)
        page.fill("input[name=tables]", "5")
        page.click("main button[type=submit]")
        expect(page.locator("#sedes")).to_contain_text(sede)

    page.goto(f"{live_server.url}{reverse('jueces:list')}")
    page.click("main a:has-text('Importar CSV')")
    desk.upload("jueces.csv", ["nombre;apellido;usuario"] + [f"Juez {n};Tenesaca;jtenesaca{n}" for n in range(1, 11)])
    page.click("button[name=preview]")
    expect(page.locator("#import-preview tbody tr")).to_have_count(JUECES)
    shot(page, "1-jueces-preview")
    page.click("button[name=confirm]")
    expect(page.locator(".alert-success")).to_contain_text("10 jueces importados, disponibles hoy.")
    expect(page.locator("#available-count")).to_have_text("10 jueces disponibles hoy.")
    # One of them cannot come: marked in place, the page stays (a reload would wipe the mark).
    page.evaluate("window.stayed = true")
    absent = page.locator("#jueces tr", has_text="jtenesaca10")
    absent.get_by_role("button", name="Disponible hoy").click()
    expect(page.locator("#available-count")).to_have_text("9 jueces disponibles hoy.")
    expect(absent.get_by_role("button", name="Disponible hoy")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("window.stayed") is True
    shot(page, "2-jueces")

    for number, sede in enumerate(sedes, 1):
        championship = make_championship(page, live_server, number, sede)
        page.click("a.nav-link:has-text('Parejas')")
        page.click("text=Importar CSV")
        names = [f"Pareja {number}-{n:02d}" for n in range(1, PAIRS + 1)]
        desk.upload("parejas.csv", ["pareja;jugador_1;jugador_2"] + [f"{n};{n} uno;{n} dos" for n in names])
        page.click("button[name=preview]")
        page.click("button[name=confirm]")
        expect(page.locator("#pairs tbody tr")).to_have_count(PAIRS)

        # The pairs arrive: 29 say so from their phones; the desk marks the one with no phone, and the one that
        # withdrew, in place; the last is late.
        pairs = list(Pair.objects.filter(championship=championship).order_by("name"))
        for pair in pairs[3:]:
            assert Client().post(reverse("public:pair_here", args=[pair.token])).status_code == 302
        page.reload()
        page.evaluate("window.stayed = true")
        expect(page.locator("#attendance")).to_have_text("Presentes: 29 · esperadas: 3 · retiradas: 0.")
        page.locator(f"#pair-{pairs[0].pk}").get_by_role("button", name="Marcar presente").click()
        expect(page.locator(f"#pair-{pairs[0].pk} .badge.arrival")).to_have_text("Presente")
        page.locator(f"#pair-{pairs[1].pk}").get_by_role("button", name="Retirada").click()
        expect(page.locator(f"#pair-{pairs[1].pk} .badge.arrival")).to_have_text("Retirada")
        expect(page.locator("#attendance")).to_have_text("Presentes: 30 · esperadas: 1 · retiradas: 1.")
        assert page.evaluate("window.stayed") is True
        shot(page, f"3-pairs-{number}")

        # The draw's tab: the pair still expected, and the choice to wait or to draw without it.
        page.click("a.nav-link:has-text('Sorteo')")
        expect(page.locator("#expected tbody tr")).to_have_count(1)
        expect(page.locator("#expected")).to_contain_text(pairs[2].name)
        shot(page, f"4-draw-{number}")
        page.click("#draw-without")
        expect(page.locator(".alert-success")).to_contain_text("Llaves sorteadas")
        assert championship.mesas.exclude(table_number=None).exclude(juez=None).exists()  # seated by the draw

        # The late pair arrives before play: added to the draw from its row, after the preview.
        page.click("a.nav-link:has-text('Parejas')")
        page.locator(f"#pair-{pairs[2].pk}").get_by_role("link", name="Agregar al sorteo").click()
        page.get_by_role("button", name="Confirmar la corrección").click()
        expect(page.locator(".alert-success")).to_have_text("Sorteo corregido.")
        assert pairs[2].pk in draws.drawn_pair_ids(championship)

    # The tables page: the pool says who is free and who is not available.
    page.goto(f"{live_server.url}{reverse('tournament:tables', args=[championship.pk])}")
    expect(page.locator("#pool-counts")).to_contain_text("1 no disponibles")
    shot(page, "5-pool")

    made = [f"{re.sub(r'^https?://[^/]+', '', url)}" for url in desk.actions]
    print(f"the morning: {len(made)} desk actions, {desk.loads} page loads: {made}")
    assert len(made) <= GOAL, made
    assert len(accounts.jueces()) == JUECES and len(accounts.available_today()) == JUECES - 1
    for championship in Championship.objects.all():
        assert draws.attendance(championship) == {"expected": 0, "present": PAIRS - 1, "withdrawn": 1}
