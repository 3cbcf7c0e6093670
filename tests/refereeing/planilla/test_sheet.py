"""The planilla's content, read back from the PDF, against the mesa's log.

Art. 16: the Planilla de Juego records the results, the winning pair and
the signatures of each pair's representative and of the juez.
"""

import re
import subprocess
from pathlib import Path

import pytest
from django.utils import timezone, translation
from django.utils.formats import date_format

from refereeing.models import ClaimEntry
from refereeing.planilla import pdf as planilla_pdf
from refereeing.planilla import printed, verification
from refereeing.planilla import sheet as planilla
from resolutions import register
from tests.support import planilla_factories as factories
from tests.support.planilla import keep_rendering, pages_text, text
from tournament.models import Mesa

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts"

SPANISH = {
    "page": "Página {} de {}",
    "rep": "Representante de la pareja A",
    "won": "Chica 1 ganada por la pareja A",
    "voided": "anulada por #6",
    "accepted": "aceptada",
    "rules": "perfil «Reglamento de Riobamba»",  # the profile by its human name (issue 23)
    "message": "message",
    "player": "jugador",
    # The engine's one table of kind labels (engines.rules.messages.KIND_LABELS).
    "labels": {
        "ronda": "Ronda",
        "caida": "Caída",
        "limpia": "Limpia",
        "void": "Anulación de #5",
        "mal_repartidas": "Mal repartidas",
        "juego_y_veo": "Juego y veo rechazado",
        "doble_ronda": "Doble ronda",
        "caida_limpia": "Caída y limpia",
    },
}
ENGLISH = {
    "page": "Page {} of {}",
    "rep": "Representative of pair A",
    "won": "Chica 1 won by pair A",
    "voided": "voided by #6",
    "accepted": "accepted",
    "rules": "profile “Riobamba rulebook”",
    "message": "message_en",
    "player": "player",
    "labels": {
        "ronda": "Ronda",
        "caida": "Caída",
        "limpia": "Limpia",
        "void": "Void of #5",
        "mal_repartidas": "Misdeal",
        "juego_y_veo": "Juego y veo rejected",
        "doble_ronda": "Doble ronda",
        "caida_limpia": "Caída and limpia",
    },
}


def render(mesa, language):
    return printed.pdf(planilla.build(mesa, "https://mesa.example", language))


def signed(points):
    return f"{points:+d}"


@pytest.mark.parametrize("language,words", [("es-ec", SPANISH), ("en", ENGLISH)])
def test_every_section_matches_the_log(language, words):
    mesa, log = factories.short_mesa()
    replayed = log.replayed
    pages = pages_text(render(mesa, language))
    whole = " ".join(pages)
    assert len(pages) == 2
    for number, page in enumerate(pages, start=1):
        assert words["page"].format(number, 2) in page
    # Header: championship, edition, venue, date, place, table, juez, inspector, rule set.
    # The day it was played, in the venue's time zone and the reader's language.
    with translation.override(language):
        played_on = date_format(timezone.localdate(mesa.finished_at or mesa.started_at))
    for expected in [
        "Campeonato Nacional de Cuarenta",
        "XXIV",
        "Coliseo de Riobamba",
        played_on,
        "Carlos Yépez",
        "Ana Ortiz",
        words["rules"],
    ]:
        assert expected in whole, expected
    # The pairs and their players, each representative marked.
    for p in (mesa.pair_a, mesa.pair_b):
        assert p.name in whole
        for player in p.players.all():
            assert player.full_name in whole
    assert whole.count("★") == 2
    # Every accepted claim that scores is in its data's row with its points.
    for entry, decision in zip(log.mesa.claims.order_by("seq"), replayed["decisions"]):
        if decision["accepted"] and entry.kind not in ("mano", "conteo", "void"):
            side = entry.claim.get("pair") or ("A" if decision["points"]["A"] else "B")
            label = words["labels"][entry.kind]
            if entry.claim.get("player"):
                label += f" ({words['player']} {entry.claim['player']})"
            assert f"#{entry.seq} {label} {signed(decision['points'][side])}" in whole, entry
        if entry.kind == "conteo":
            detail = decision["detail"]
            assert f"A {detail['cards']['A']} · B {detail['cards']['B']}" in whole
            gained = next(s for s in "AB" if decision["points"][s])
            assert f"{gained} {signed(decision['points'][gained])}" in whole
    # The running score after the first data, and the dealer of each data.
    assert "A1 Juan Pérez" in whole and "B1 María Cando" in whole and "A2 Luis Andrade" in whole
    # Refused and voided claims, and the void itself, in their own list.
    refused = replayed["decisions"][9]
    assert refused["accepted"] is False and refused["voided_by"] is None
    assert refused[words["message"]] in whole and refused["article"] in whole
    assert f"5 {words['labels']['caida']} ({words['player']} 1) {words['voided']}" in whole
    assert f"6 {words['labels']['void']} {words['accepted']}" in whole
    # Results: each chica, the mesa and the winner; signatures of the three.
    assert words["won"] in whole
    for result in replayed["state"]["chica_results"]:
        assert f"{result['chica']} {result['scores']['A']} {result['scores']['B']}" in whole
    assert mesa.winner.name in whole and "2 – 0" in whole
    assert words["rep"] in whole
    assert verification.verification_code(mesa) in whole
    assert "PROVISIONAL" not in whole


def test_running_score_is_shown_in_points_and_as_perros_and_tantos():
    """Art. 14: a tanto is 2 points, five tantos a perro."""
    assert planilla.chips(26) == {"points": 26, "perros": 2, "tantos": 3, "odd": 0}
    assert planilla.chips(7) == {"points": 7, "perros": 0, "tantos": 3, "odd": 1}
    mesa, log = factories.zapateria_mesa()
    whole = text(render(mesa, "es-ec"))
    for decision in log.replayed["decisions"]:
        if decision["kind"] == "conteo":
            a = decision["scores"]["A"]
            assert f"{a} {a // 10} P · {a % 10 // 2} T" in whole


def test_a_zapateria_mesa_fits_on_one_page_and_says_so():
    """Art. 12, 16: zapatería in the first chica ends the mesa."""
    mesa, _log = factories.zapateria_mesa()
    pages = pages_text(render(mesa, "es-ec"))
    assert len(pages) == 1 and "Página 1 de 1" in pages[0]
    assert "por zapatería (Art. 12)" in pages[0]
    assert "zapatería: la pareja B con menos de 10" in pages[0]  # the chica's own row says it
    assert "1 – 0" in pages[0]


def test_three_long_chicas_read_over_two_pages_with_headers_repeated():
    mesa, log = factories.long_mesa()
    pages = pages_text(render(mesa, "es-ec"))
    assert len(pages) == 2
    assert "Página 2 de 2" in pages[1]
    # The chica table that runs onto page 2 repeats its header there, with
    # the chica's number, above a row that is not its chica's first data.
    continued = re.match(r"CHICA (\d) DATA ?REPARTE JUGADAS DE A .*? TANTEO A ?TANTEO B (\d+) ", pages[1])
    assert continued and continued.group(2) != "1"
    assert pages[0].count(f"CHICA {continued.group(1)} ") == 1
    assert [c["winner"] for c in log.replayed["state"]["chica_results"]] == ["A", "B", "A"]
    assert "2 – 1" in pages[1]


def test_a_mesa_in_play_is_marked_provisional():
    mesa = factories.mesa()
    log = factories.Log(mesa)
    log.data("A", 26, plays=[("caida", "A")])
    assert mesa.status == mesa.Status.IN_PLAY
    pages = pages_text(render(mesa, "es-ec"))
    assert all("PROVISIONAL" in page for page in pages)
    assert "mesa aún en juego" in " ".join(pages)
    assert "PROVISIONAL" in text(render(mesa, "en"))


def test_an_unplayed_planilla_prints_blank_grids_to_score_on_paper_art_16():
    """If the tablets fail, the juez keeps the planilla by hand (Art. 16): a grid for every chica the mesa may take."""
    mesa = factories.mesa()
    data = render(mesa, "es-ec")
    keep_rendering(data, "planilla-blank-es")
    whole = text(data)
    assert "PROVISIONAL" in whole and "Si fallan las tabletas, el juez anota la mesa en estas cuadrículas." in whole
    for n in (1, 2, 3):  # two chicas win the mesa: three at most
        assert re.search(
            rf"CHICA {n} DATA ?REPARTE JUGADAS DE A · LOS ASES DE GUANO JUGADAS DE B · REYES DE ALAUSÍ ?CONTEO TANTEO A ?TANTEO B 1 2 3 4 5 6 7 8 9 10 11 12 ",
            whole,
        )
    log = factories.Log(mesa)
    log("mano")
    assert "CHICA 2" not in text(render(mesa, "es-ec"))  # once the log has begun, the sheet is the log's


def test_the_annex_stays_on_the_sheet_when_it_fits():
    """A 27-entry mesa in its second chica: its three refused and voided claims printed on a page of their own."""
    mesa = factories.mesa()
    log = factories.Log(mesa)
    log("mano")
    log("caida", pair="A", player=1)
    log("caida", pair="B", player=1)
    log("void", target=3)
    log("mano")
    log("conteo", cards={"A": 20, "B": 20})
    log("pedir_mal", pair="A")  # refused: after its data's conteo (Art. 11)
    for winner in "BAAAB":
        log.data(winner, 30 if winner == "B" else 40, plays=[("caida", winner)])
    assert (mesa.last_seq, mesa.state["chica"]) == (27, 2)
    data = render(mesa, "es-ec")
    keep_rendering(data, "planilla-annex-es")
    pages = pages_text(data)
    assert len(pages) == 1
    annex = pages[0].split("JUGADAS NEGADAS Y ANULADAS")[1]
    assert "3 Caída (jugador 1) anulada por #4" in annex and "7 Pedir mal Rechazada" in annex


def test_rule_settings_that_differ_from_the_profile_are_listed():
    champ = factories.championship(ruleset_profile="riobamba", ruleset_overrides={"caida_limpia_points": 4})
    mesa = factories.mesa(champ)
    whole = text(render(mesa, "es-ec"))
    assert "Caída y limpia: 4 puntos (Reglamento de Riobamba, Art. 9a)" in whole
    assert "Aún no se ha registrado ninguna jugada." in whole
    assert "Caída and limpia: 4 points (Riobamba reglamento, Art. 9a)" in text(render(mesa, "en"))


def test_signatures_drawn_on_the_tablet_are_printed_and_missing_ones_left_blank():
    mesa, _log = factories.zapateria_mesa()
    html = printed.html(planilla.build(mesa, "", "es-ec"))
    assert html.count('<img src="data:image/png;base64,') == 3
    mesa.signatures.all().delete()
    html = printed.html(planilla.build(mesa, "", "es-ec"))
    assert "<img" not in html
    # The names still say who signs on paper.
    assert "Juan Pérez" in html and "María Cando" in html and "Carlos Yépez" in html


def test_the_pdf_fetches_nothing_from_the_network(monkeypatch):
    mesa, _log = factories.zapateria_mesa()
    mesa.signatures.filter(role="A").update(image="https://example.com/firma.png")
    fetched = []
    original = planilla_pdf.LocalOnlyFetcher.fetch

    def spy(self, url, headers=None):
        fetched.append(url)
        return original(self, url, headers)

    monkeypatch.setattr(planilla_pdf.LocalOnlyFetcher, "fetch", spy)
    assert render(mesa, "es-ec").startswith(b"%PDF")
    # A stored image that is not a real PNG never reaches the renderer (the
    # box prints empty); and the fetcher would refuse it anyway.
    assert "https://example.com/firma.png" not in fetched
    assert all(url.startswith("data:") for url in fetched)
    with pytest.raises(ValueError):
        planilla_pdf.LocalOnlyFetcher().fetch("https://example.com/firma.png")
    with pytest.raises(ValueError):
        planilla_pdf.LocalOnlyFetcher().fetch("file:///etc/passwd")


def test_nothing_is_typed_twice_the_sheet_follows_the_log():
    mesa, log = factories.zapateria_mesa()
    before = text(render(mesa, "es-ec"))
    ClaimEntry.objects.filter(mesa=mesa, seq=2).update(claim={"kind": "ronda", "pair": "A", "player": 2})
    after = text(render(mesa, "es-ec"))
    assert "#2 Ronda (jugador 1)" in before and "#2 Ronda (jugador 2)" in after


def test_every_page_carries_the_mesa_and_its_code_even_with_awkward_names():
    champ = factories.championship(name='Copa "Chimborazo" </style> & Cía\\')
    mesa = factories.mesa(champ)
    sheet = planilla.build(mesa, "", "es-ec")
    for page in pages_text(printed.pdf(sheet)):
        assert f"verificación {sheet.code}" in page
        assert 'Copa "Chimborazo" </style> & Cía\\' in page


def test_suspensions_resumptions_and_adjustments_sit_in_a_row_of_their_own():
    """Art. 17-18: what happens to the mesa is no pair's play, so it is in no pair's column."""
    mesa = factories.mesa()
    director = factories.user("directora", first_name="Ruth", last_name="Vallejo")
    mesa.championship.director = director
    mesa.championship.save()
    log = factories.Log(mesa)
    log("mano")
    log("caida", pair="B", player=1)  # 2
    log("suspender")  # 3
    log("reanudar")  # 4
    register.resolve(
        mesa.championship, "Una carta cayó al suelo.", "Dos puntos a la pareja A.", ajuste=(mesa, "A", 2), by=director
    )  # 5
    mesa.refresh_from_db()
    with translation.override("en"):
        sheet = planilla.build(mesa, "https://mesa.example", "en")
        data = printed.pdf(sheet)
    row = sheet.chicas[0].rows[0]
    assert row.plays_text == {"A": "", "B": "#2 Caída (player 1) +2"}
    assert row.events_text.startswith("#3 Suspension · #4 Resumption · #5 Director's adjustment")
    assert row.events_text.endswith("A +2")
    assert "#5 Director's adjustment" in text(data)
    render_to_look_at(data, "planilla-adjustment-en")


def test_a_one_chica_mesa_with_refusals_and_a_void_fits_on_one_page():
    """Art. 12, 16: a mesa ended by zapatería in its first chica is one sheet, refusals and voids included."""
    mesa = factories.mesa()
    log = factories.Log(mesa)
    log("mano")
    log("caida", pair="B", player=1)
    log("void", target=mesa.last_seq)
    log("mano")
    log("conteo", cards={"A": 24, "B": 16})
    log("pedir_mal", pair="B")  # refused: after its data's conteo (Art. 11)
    while mesa.status != Mesa.Status.FINISHED:
        log.data("A", 24, plays=[("caida", "A")])
    assert mesa.status == Mesa.Status.FINISHED and mesa.zapateria and mesa.chicas_a == 1, mesa.state
    factories.sign_all(mesa)
    sheet = planilla.build(mesa, "https://mesa.example", "es-ec")
    assert len(sheet.chicas) == 1 and len(sheet.refused) >= 3
    data = printed.pdf(sheet)
    pages = pages_text(data)
    assert len(pages) == 1 and "Página 1 de 1" in pages[0]
    assert "anulada por" in pages[0] and "por zapatería (Art. 12)" in pages[0]
    render_to_look_at(data, "planilla-one-chica-es")


def render_to_look_at(data, name):
    """The PDF and its first page as a PNG in artifacts/, to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{name}.pdf").write_bytes(data)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "70", "-f", "1", "-l", "1", str(ARTIFACTS / f"{name}.pdf"), str(ARTIFACTS / name)],
        check=True,
    )
