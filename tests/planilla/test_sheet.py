"""The planilla's content, read back from the PDF, against the mesa's log.

Art. 16: the Planilla de Juego records the results, the winning pair and
the signatures of each pair's representative and of the juez.
"""

import pytest

from refereeing import planilla
from refereeing.models import ClaimEntry
from tests.planilla import factories
from tests.planilla.helpers import pages_text, text

pytestmark = pytest.mark.django_db

LABELS_ES = {"ronda": "ronda", "caida": "caída", "limpia": "limpia", "void": "anulación",
             "mal_repartidas": "cartas mal repartidas", "juego_y_veo": "juego y veo",
             "doble_ronda": "doble ronda", "pedir_mal": "pidió mal los puntos", "caida_limpia": "caída y limpia"}
LABELS_EN = {"ronda": "ronda", "caida": "caída", "limpia": "limpia", "void": "void", "mal_repartidas": "misdeal",
             "juego_y_veo": "juego y veo", "doble_ronda": "doble ronda", "pedir_mal": "points asked wrongly",
             "caida_limpia": "caída y limpia"}


def render(mesa, language):
    return planilla.pdf(planilla.build(mesa, "https://mesa.example", language))


@pytest.mark.parametrize("language,words", [
    ("es-ec", {"page": "Página 1 de 2", "rep": "Representante de la pareja A", "won": "Chica 1 ganada por la pareja A",
               "refused": "negada: La caída ya caducó", "voided": "aceptada, luego anulada por #6",
               "rules": "perfil «riobamba»", "labels": LABELS_ES, "date": "21 de noviembre de 2026"}),
    ("en", {"page": "Page 1 of 2", "rep": "Representative of pair A", "won": "Chica 1 won by pair A",
            "refused": "refused: EN La caída ya caducó", "voided": "accepted, then voided by #6",
            "rules": "profile “riobamba”", "labels": LABELS_EN, "date": "Nov. 21, 2026"}),
])
def test_every_section_matches_the_log(language, words):
    mesa, log = factories.short_mesa()
    pdf = render(mesa, language)
    pages = pages_text(pdf)
    whole = " ".join(pages)
    assert words["page"] in pages[0] and words["page"].replace("1 ", "2 ", 1) in pages[1]
    # Header: championship, edition, venue, date, place, table, juez, inspector, rule set.
    for expected in ["Campeonato Nacional de Cuarenta", "XXIV", "Coliseo de Riobamba", words["date"],
                     "Carlos Yépez", "Ana Ortiz", words["rules"]]:
        assert expected in whole, expected
    # The pairs and their players, the representative marked.
    for p in (mesa.pair_a, mesa.pair_b):
        assert p.name in whole
        for player in p.players.all():
            assert player.full_name in whole
    assert whole.count("★") == 2
    # Every accepted claim with points is in its row, with its points.
    for entry in log.entries:
        if entry.accepted and entry.kind not in ("mano", "conteo"):
            assert f"#{entry.seq} {words['labels'][entry.kind]}" in whole, entry
    assert "#2 caída" in whole and "+2" in whole
    assert "#8 " + words["labels"]["mal_repartidas"] + " +10" in whole
    # Each conteo: cards of each pair and the points it gave.
    for entry in log.entries:
        if entry.kind == "conteo":
            cards = entry.decision["detail"]["cards"]
            assert f"A {cards['A']} · B {cards['B']}" in whole
    # Refused and voided claims in their own list.
    assert words["refused"] in whole and "Art. 6" in whole
    assert words["voided"] in whole
    # Results: each chica, the mesa and the winner; signatures of the three.
    assert words["won"] in whole
    for result in log.chicas:
        assert f"{result['chica']} {result['scores']['A']} {result['scores']['B']}" in whole
    assert mesa.winner.name in whole and "2 – 0" in whole
    assert words["rep"] in whole
    assert planilla.verification_code(mesa) in whole
    assert "PROVISIONAL" not in whole


def test_running_score_is_shown_in_points_and_as_perros_and_tantos():
    """Art. 14: a tanto is 2 points, five tantos a perro."""
    assert planilla.chips(26) == {"points": 26, "perros": 2, "tantos": 3, "odd": 0}
    assert planilla.chips(7) == {"points": 7, "perros": 0, "tantos": 3, "odd": 1}
    mesa, _log = factories.zapateria_mesa()
    whole = text(render(mesa, "es-ec"))
    assert "16 1 P · 3 T" in whole  # after the first data: 16 points
    assert "46 4 P · 3 T" in whole


def test_a_zapateria_mesa_fits_on_one_page_and_says_so():
    """Art. 12, 16: zapatería in the first chica ends the mesa."""
    mesa, _log = factories.zapateria_mesa()
    pages = pages_text(render(mesa, "es-ec"))
    assert len(pages) == 1 and "Página 1 de 1" in pages[0]
    assert "por zapatería (Art. 12)" in pages[0]
    assert "pareja B (zapatero)" in pages[0]


def test_three_long_chicas_read_over_two_pages_with_headers_repeated():
    mesa, log = factories.long_mesa()
    pages = pages_text(render(mesa, "es-ec"))
    assert len(pages) == 2
    assert "Página 2 de 2" in pages[1]
    # The chica table that runs onto page 2 repeats its header there.
    assert "REPARTE" in pages[1].upper() and "TANTEO A" in pages[1].upper()
    assert [c["winner"] for c in log.chicas] == ["A", "B", "A"]
    assert "2 – 1" in pages[1]


def test_a_mesa_in_play_is_marked_provisional():
    mesa, log = factories.short_mesa()
    mesa.status = mesa.Status.IN_PLAY
    mesa.winner = None
    mesa.save()
    pages = pages_text(render(mesa, "es-ec"))
    assert all("PROVISIONAL" in page for page in pages)
    assert "mesa aún en juego" in " ".join(pages)


def test_rule_settings_that_differ_from_the_profile_are_listed():
    champ = factories.championship(ruleset_profile="riobamba", ruleset_overrides={"caida_limpia_points": 4})
    mesa = factories.mesa(champ)
    whole = text(render(mesa, "es-ec"))
    assert "Caída y limpia: 4 puntos (Art. 9a)" in whole
    assert "Aún no se ha registrado ninguna jugada." in whole


def test_signatures_drawn_on_the_tablet_are_printed_and_missing_ones_left_blank():
    mesa, _log = factories.zapateria_mesa()
    html = planilla.html(planilla.build(mesa, "", "es-ec"))
    assert html.count('<img src="data:image/png;base64,') == 3
    mesa.signatures.all().delete()
    html = planilla.html(planilla.build(mesa, "", "es-ec"))
    assert "<img" not in html
    # The names still say who signs on paper.
    assert "Juan Pérez" in html and "María Cando" in html and "Carlos Yépez" in html


def test_the_pdf_fetches_nothing_from_the_network(monkeypatch):
    mesa, _log = factories.zapateria_mesa()
    mesa.signatures.filter(role="A").update(image="https://example.com/firma.png")
    fetched = []
    original = planilla.LocalOnlyFetcher.fetch

    def spy(self, url, headers=None):
        fetched.append(url)
        return original(self, url, headers)

    monkeypatch.setattr(planilla.LocalOnlyFetcher, "fetch", spy)
    assert render(mesa, "es-ec").startswith(b"%PDF")
    assert "https://example.com/firma.png" in fetched
    with pytest.raises(ValueError):
        planilla.LocalOnlyFetcher().fetch("https://example.com/firma.png")
    with pytest.raises(ValueError):
        planilla.LocalOnlyFetcher().fetch("file:///etc/passwd")


def test_nothing_is_typed_twice_the_sheet_follows_the_log():
    mesa, log = factories.zapateria_mesa()
    before = text(render(mesa, "es-ec"))
    ClaimEntry.objects.filter(mesa=mesa, seq=2).update(claim={"kind": "ronda", "pair": "A", "player": 1})
    after = text(render(mesa, "es-ec"))
    assert "#2 ronda (jugador 2)" in before and "#2 ronda (jugador 1)" in after


def test_every_page_carries_the_mesa_and_its_code_even_with_awkward_names():
    champ = factories.championship(name='Copa "Chimborazo" </style> & Cía\\')
    mesa = factories.mesa(champ)
    sheet = planilla.build(mesa, "", "es-ec")
    pages = pages_text(planilla.pdf(sheet))
    for page in pages:
        assert f"verificación {sheet.code}" in page
        assert 'Copa "Chimborazo" </style> & Cía\\' in page
