"""A championship day, end to end in Chromium (issue #23, "done when"): a 16-pair double elimination at a
4-table sede with automatic seating.

The organiser, in the browser, makes the championship (seating itself, each mesa started by its juez's
first claim), imports 15 pairs, checks them in, draws, then adds a late pair to the draw before play; the
cards of the day are printed then, and checked by their text and a look at their first page. A tablet per
table is opened once with the table's PIN, never signed in, and follows its table: after every mesa it
shows the next one seated there, by its pairs' names, until the final. The mesas are played through the
claim log (a scripted winning pair per mesa, as the demo plays them) and signed by their three signatories
(Art. 16), as the tablets would; nobody at the desk seats or starts a mesa. Screenshots go to artifacts/.
"""

import re
import subprocess
import uuid
from io import BytesIO
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect
from pypdf import PdfReader

from audit.models import AuditEntry
from demo import scripted
from refereeing import signatures
from refereeing.access import permissions as access
from refereeing.claimlog.log import record_claim
from refereeing.models import Signature
from tests.support.browser import NAMES, sign_in
from tests.support.claims import SIGNED
from tests.support.factories import jueces, organiser
from tournament.models import Championship, Mesa, Pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
TABLES = 4
# The tablet asks its table every 10 s (static/refereeing/mesa/follow.js); the test moves its clock on.
FOLLOW_MS = 10_000
LATE = "Los Madrugadores"


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"day-{name}.png"), full_page=True)


def organise(page, live_server):
    """The organiser's acts, in the browser, up to the corrected draw; the championship."""
    sign_in(page, live_server, "organizador", "/")
    page.click("main a:has-text('Sedes')")
    page.fill("input[name=name]", "Coliseo de Guano")
    page.fill("input[name=tables]", str(TABLES))
    page.click("main button[type=submit]")
    expect(page.locator("#sedes")).to_contain_text(f"Coliseo de Guano · {TABLES} mesas físicas")

    page.goto(f"{live_server.url}/")
    page.click("text=Nuevo campeonato")
    today = timezone.localdate().isoformat()
    page.fill("input[name=name]", "Copa de Guano")
    page.fill("input[name=start_date]", today)
    page.fill("input[name=end_date]", today)
    page.select_option("select[name=sede]", label="Coliseo de Guano")
    page.select_option("select[name=bracket_format]", "double")
    page.check("input[name=auto_seating]")
    page.select_option("select[name=start_mode]", Championship.Start.FIRST_CLAIM)
    page.click("main button[type=submit]")
    expect(page.locator("#ruleset")).to_be_visible()
    championship = Championship.objects.get(name="Copa de Guano")
    assert championship.auto_seating and championship.start_mode == Championship.Start.FIRST_CLAIM

    page.click("a.nav-link:has-text('Parejas')")
    page.click("text=Importar CSV")
    rows = ["pareja;jugador_1;jugador_2"] + [
        f"{name};Jugador {n} Guamán;Jugadora {n} Pilco" for n, name in enumerate(NAMES[:15], 1)
    ]
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "parejas.csv", "mimeType": "text/csv", "buffer": "\n".join(rows).encode()}],
    )
    page.click("button[name=preview]")
    page.click("button[name=confirm]")
    expect(page.locator("#pairs tbody tr")).to_have_count(15)
    page.click("text=Marcar todas presentes")
    expect(page.locator("#attendance")).to_have_text("Presentes: 15 · esperadas: 0 · retiradas: 0.")

    page.click("a.nav-link:has-text('Resumen')")
    page.fill("input[name=seed]", "23")
    page.click("text=Sortear las llaves")
    expect(page.locator(".alert-success").first).to_be_visible()
    # Seated by the draw itself: the first four mesas, each at its table with its juez.
    seated = championship.mesas.exclude(table_number=None).exclude(juez=None)
    assert sorted(seated.values_list("table_number", flat=True)) == list(range(1, TABLES + 1))

    # The late pair arrives before play: registered, checked in and added to the draw from its row.
    page.goto(f"{live_server.url}/campeonatos/{championship.pk}/parejas/nueva/")
    page.fill("input[name=name]", LATE)
    page.fill("input[name=player1_name]", "Rosa Tenemaza")
    page.fill("input[name=player2_name]", "Juan Asqui")
    page.click("main button[type=submit]")
    late = Pair.objects.get(championship=championship, name=LATE)
    page.goto(f"{live_server.url}/campeonatos/{championship.pk}/parejas/")
    row = page.locator(f"#pair-{late.pk}")
    row.get_by_role("button", name="Marcar presente").click()
    row.get_by_role("link", name="Agregar al sorteo").click()
    expect(page.locator("#correction-preview")).to_contain_text(LATE)
    page.get_by_role("button", name="Confirmar la corrección").click()
    expect(page.locator(".alert-success")).to_have_text("Sorteo corregido.")
    assert championship.mesas.filter(bracket="W", round=1).exclude(pair_a=None).exclude(pair_b=None).count() == 8
    shot(page, "1-corrected-draw")
    return championship


def check_cards(page, live_server, championship):
    """The cards of the day, as the organiser downloads them: every pair's and every table's, read and seen."""
    response = page.request.get(f"{live_server.url}/informe/{championship.pk}/tarjetas/")
    assert response.ok and response.headers["content-type"] == "application/pdf"
    pdf = ARTIFACTS / "day-cards.pdf"
    pdf.write_bytes(response.body())
    reader = PdfReader(BytesIO(response.body()))
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    for pair in championship.pairs.prefetch_related("players"):
        assert pair.name in text
        for player in pair.players.all():
            assert player.full_name in text, player.full_name
    for table in championship.sede.tables.all():
        assert f"Mesa física {table.number}" in text and table.pin in text
    assert text.count("TARJETA DE PAREJA") == 16 and text.count("TARJETA DE LA MESA") == TABLES
    assert len(reader.pages) == 4  # 20 cards, six to a sheet
    subprocess.run(
        ["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(ARTIFACTS / "day-cards")],
        check=True,
        timeout=60,
    )
    assert (ARTIFACTS / "day-cards.png").stat().st_size > 10_000


def open_tablets(browser, browser_context_args, live_server, championship):
    """One tablet per table, opened once with the table's PIN (no sign-in), its clock in the test's hands."""
    tablets = {}
    for table in championship.sede.tables.order_by("number"):
        context = browser.new_context(**browser_context_args)
        context.clock.install()
        page = context.new_page()
        page.goto(f"{live_server.url}/acceso/mesa-fisica/{table.pk}/")
        page.fill("input[name=pin]", table.pin)
        page.click("main button[type=submit]")
        tablets[table.number] = (table, page)
    return tablets


def shows(page, mesa):
    """The tablet shows ``mesa``: its screen, with both its pairs' names, and nobody signed in."""
    expect(page).to_have_url(re.compile(rf"/mesa/{mesa.pk}/$"))
    expect(page.locator("nav").get_by_role("link", name="Entrar")).to_be_visible()
    expect(page.locator(".pair-card[data-side=A] .pair-name")).to_have_text(mesa.pair_a.name)
    expect(page.locator(".pair-card[data-side=B] .pair-name")).to_have_text(mesa.pair_b.name)


def play(mesa):
    """The mesa played to its end through the claim log, as its tablet logs it, and its planilla signed."""
    winner = "A" if (mesa.round + mesa.position) % 2 else "B"
    for n, claim in enumerate(scripted.claims(winner, mesa.pk)):
        if record_claim(mesa, claim, uuid.uuid4(), address="10.0.0.7").state["finished"]:
            break
        assert n < 400, "the scripted mesa never finished"
    mesa.refresh_from_db()
    for role, name in ((Signature.Role.PAIR_A, "Representante A"), (Signature.Role.PAIR_B, "Representante B")):
        signatures.sign(mesa, role, name, SIGNED)
    signatures.sign(mesa, Signature.Role.JUEZ, "Juez", SIGNED)


def test_a_championship_day_with_automatic_seating_and_tablets_that_follow_their_tables(
    live_server, page, browser, browser_context_args
):
    organiser("organizador")
    jueces(TABLES)
    championship = organise(page, live_server)
    check_cards(page, live_server, championship)
    tablets = open_tablets(browser, browser_context_args, live_server, championship)

    shown = {}
    for wave in range(40):
        championship.refresh_from_db(fields=["champion"])
        if championship.champion:
            break
        now = {number: access.table_mesa(table) for number, (table, _page) in tablets.items()}
        for number, mesa in now.items():
            if mesa is not None and shown.get(number) != mesa.pk:
                shows(tablets[number][1], mesa)
                shown[number] = mesa.pk
        if wave == 0:
            shot(tablets[1][1], "2-tablet-first-mesa")
        playing = [m for m in now.values() if m is not None]
        assert playing, "no mesa is seated and there is no champion"
        for mesa in playing:
            play(mesa)
        for _table, tablet in tablets.values():
            tablet.clock.fast_forward(FOLLOW_MS)
    else:
        pytest.fail("the day never ended")

    champion = championship.champion
    final = championship.mesas.filter(
        bracket__in=(Mesa.Bracket.GRAND_FINAL, Mesa.Bracket.RESET), status=Mesa.Status.FINISHED
    ).order_by("-bracket")
    assert final.first().winner == champion
    assert not championship.mesas.filter(status__in=Mesa.UNDECIDED).exclude(pair_a=None, pair_b=None).exists()
    # Every mesa with two pairs was played at one of the four tables, each by its table's tablet.
    played = championship.mesas.filter(status=Mesa.Status.FINISHED)
    assert set(played.values_list("table_number", flat=True)) == set(range(1, TABLES + 1))
    assert {m.pk for m in played} >= set(shown.values())
    # Nobody at the desk seated a mesa or started a round: every seating in the trail is the automatic one.
    seatings = AuditEntry.objects.filter(championship_id=championship.pk, changes__has_key="juez")
    assert seatings.count() >= played.count()
    assert set(seatings.values_list("reason", flat=True)) == {"Sentada automáticamente"}
    assert not AuditEntry.objects.filter(championship_id=championship.pk, changes__has_key="round").exists()
    shot(tablets[final.first().table_number][1], "3-tablet-final")
    page.goto(f"{live_server.url}/campeonatos/{championship.pk}/llaves/")
    expect(page.locator("#champion")).to_contain_text(champion.name)
    shot(page, "4-bracket")
