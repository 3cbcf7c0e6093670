"""The public pages (``public``): the live scoreboard and each pair's private page. No sign-in.

No public page or pair page shows a cédula, a phone number or another pair's private link.
"""

import time
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from refereeing.claimlog.log import record_claim
from refereeing.planilla import verification
from tests.support import public
from tests.support.factories import championship, jueces, organiser, pairs, start
from tests.support.public import CEDULA, PHONE
from tournament.draws import draws
from tournament.models import Mesa
from tournament.seating import seating

pytestmark = pytest.mark.django_db

played = public.played  # the fixture, shared with the accessibility tests


def anonymous():
    return Client(HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.slow
def test_the_scoreboard_shows_every_mesa_live_without_sign_in(played):
    page = anonymous().get(reverse("public:scoreboard", args=[played.pk])).content.decode()
    in_play = played.mesas.get(bracket="W", round=1, position=2)
    decided = played.mesas.get(bracket="W", round=1, position=1)
    assert in_play.pair_a.name in page and in_play.pair_b.name in page
    assert "0 – 2" in page and "Caída · B" in page and "In play" in page  # its score and latest claim
    assert f"chicas {decided.chicas_a} – {decided.chicas_b}" in page and "Finished" in page
    rows = anonymous().get(reverse("public:scoreboard", args=[played.pk]) + "?rows=1").content.decode()
    # A row per mesa whose pairs are known, in play first; one line counts the others (issue 23 point 9).
    known = played.mesas.exclude(pair_a=None).exclude(pair_b=None)
    assert rows.count("<tr data-mesa") + rows.count("<tr data-status") == known.count() == 2
    assert rows.index(f'data-mesa="{in_play.pk}"') < rows.index(f'data-mesa="{decided.pk}"')
    assert f"And {played.mesas.count() - 2} more mesas, whose pairs come from mesas still to be played." in rows


@pytest.mark.slow
def test_a_pair_page_shows_where_it_plays_and_its_planillas(played):
    winner = played.mesas.get(bracket="W", round=1, position=1)
    pair = winner.winner
    page = anonymous().get(reverse("public:pair", args=[pair.token]))
    assert page["Referrer-Policy"] == "no-referrer"
    text = page.content.decode()
    assert pair.name in text and verification.verification_code(winner) in text
    next_mesa = Mesa.objects.get(championship=played, bracket="W", round=2)
    assert escape(str(next_mesa)) in text  # where it plays now (its next mesa, waiting for the other pair)


@pytest.mark.slow
def test_a_new_link_replaces_the_old_one(played):
    pair = played.pairs.first()
    old = pair.token
    org = Client(HTTP_ACCEPT_LANGUAGE="en")
    org.force_login(organiser())
    card = org.get(reverse("tournament:pair_card", args=[played.pk, pair.pk])).content.decode()
    assert old in card and "<svg" in card
    assert all(escape(player.full_name) in card for player in pair.players.all())  # the card names its players
    org.post(reverse("tournament:pair_new_link", args=[played.pk, pair.pk]))
    pair.refresh_from_db()
    assert pair.token != old
    assert anonymous().get(reverse("public:pair", args=[old])).status_code == 404
    assert anonymous().get(reverse("public:pair", args=[pair.token])).status_code == 200
    assert anonymous().get(reverse("tournament:pair_card", args=[played.pk, pair.pk])).status_code == 302


@pytest.mark.parametrize("token", ["x", "a" * 32, "' OR 1=1 --" + "a" * 20, "\u00e9" * 30])
@pytest.mark.slow
def test_a_wrong_link_is_a_plain_404(played, token):
    assert anonymous().get(reverse("public:pair", args=[token])).status_code == 404


@pytest.mark.slow
def test_no_public_page_reveals_a_cedula_a_phone_or_another_pairs_link(played):
    pages = [
        reverse("public:scoreboard", args=[played.pk]),
        reverse("public:scoreboard", args=[played.pk]) + "?rows=1",
        reverse("public:projector", args=[played.pk]),
        reverse("public:projector", args=[played.pk]) + "?rows=1",
        reverse("tournament:bracket", args=[played.pk]),
        reverse("tournament:bracket", args=[played.pk]) + "?data=1",
        reverse("tournament:standings", args=[played.pk]),
        reverse("tournament:standings", args=[played.pk]) + "?part=1",
    ]
    everyone = list(played.pairs.all())
    for pair in everyone:
        pages.append(reverse("public:pair", args=[pair.token]))
        pages.append(reverse("public:pair", args=[pair.token]) + "?part=1")
    for url in pages:
        text = anonymous().get(url).content.decode()
        assert CEDULA not in text and PHONE not in text, url
        own = next((p.token for p in everyone if p.token in url), None)
        assert not [p for p in everyone if p.token != own and p.token in text], url


def test_a_public_page_is_the_same_bytes_a_second_later(played, settings):
    """A cache in front of the mirror revalidates a page by its digest (``mirror.caching``): a page that printed
    the time it was rendered changed every second, so a cache got a new page instead of its 304."""
    settings.MIRROR = True  # no sign-in, so no form with its CSRF token: what a mirror serves
    pages = [
        reverse("public:scoreboard", args=[played.pk]),
        reverse("public:projector", args=[played.pk]),
        reverse("tournament:bracket", args=[played.pk]),
        reverse("tournament:standings", args=[played.pk]),
        reverse("home"),
        *(reverse("public:pair", args=[pair.token]) for pair in played.pairs.all()[:1]),
    ]
    first = {url: anonymous().get(url).content for url in pages}
    time.sleep(1.1)
    assert {url: anonymous().get(url).content for url in pages} == first


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_scoreboard_and_a_pair_page_in_a_browser(played, live_server, page):
    from pathlib import Path

    from playwright.sync_api import expect

    artifacts = Path(__file__).resolve().parents[2] / "artifacts"
    artifacts.mkdir(exist_ok=True)
    in_play = played.mesas.get(bracket="W", round=1, position=2)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/en-vivo/{played.pk}/")
    row = page.locator(f"tr[data-mesa='{in_play.pk}']")
    expect(row).to_contain_text("0 – 2")
    # This server (WSGI) has no streams: the page says so, and polls instead.
    expect(page.locator("tbody[data-stream]")).to_have_attribute("data-live", "polling")
    record_claim(in_play, {"kind": "limpia", "pair": "A", "player": 1}, uuid.uuid4(), user=in_play.juez)
    expect(row).to_contain_text("2 – 2", timeout=8000)  # the rows reload every 5 s
    expect(row).to_contain_text("Limpia · A")
    page.screenshot(path=str(artifacts / "public-scoreboard-1920.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/en-vivo/{played.pk}/")
    on_screen(page, row)
    page.screenshot(path=str(artifacts / "public-scoreboard-390.png"))
    page.goto(f"{live_server.url}/pareja/{in_play.pair_a.token}/")
    expect(page.locator("#now")).to_contain_text("Mesa física")
    on_screen(page, page.locator(f"#live-score tr[data-mesa='{in_play.pk}']"))
    page.screenshot(path=str(artifacts / "public-pair-390.png"), full_page=True)


def on_screen(page, row):
    """Every cell of ``row`` within the phone's width: both pairs, the score, the status and the latest claim are read
    without scrolling sideways."""
    width = page.viewport_size["width"]
    for box in row.locator("td").evaluate_all("cells => cells.map(c => c.getBoundingClientRect().toJSON())"):
        assert box["left"] >= 0 and box["right"] <= width, box


@pytest.mark.slow
def test_the_projector_calls_each_mesa_to_its_table_until_it_starts():
    champ = championship(name="Copa Chimborazo")
    pairs(champ, 4)
    jueces(2)
    draws.draw_bracket(champ, seed=1, by=None)
    url = reverse("public:projector", args=[champ.pk])
    assert "No call now." in anonymous().get(url).content.decode()
    seating.assign_tables(champ, by=None)
    first, second = champ.mesas.filter(bracket="W", round=1).order_by("position")
    band = anonymous().get(url + "?rows=1").content.decode().split("</section>")[0]
    for mesa in (first, second):
        assert f"{mesa.pair_a.name} and {mesa.pair_b.name} → table {mesa.table_number}" in band
    seating.start_round(champ, "W", 1, by=None)
    first.refresh_from_db()
    start(first)
    band = anonymous().get(url + "?rows=1").content.decode().split("</section>")[0]
    assert first.pair_a.name not in band and second.pair_a.name in band


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_projector_pages_by_itself_and_shows_a_call_when_a_table_is_assigned(live_server, page):
    from pathlib import Path

    from playwright.sync_api import expect

    champ = championship(name="Campeonato Nacional de Cuarenta")
    pairs(champ, 64)
    jueces(8)
    draws.draw_bracket(champ, seed=1, by=None)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/en-vivo/{champ.pk}/proyector/")
    rows = page.locator("#projector tbody tr")
    known = champ.mesas.exclude(pair_a=None).exclude(pair_b=None).count()  # the others have no row (issue 23)
    expect(rows).to_have_count(known)
    visible = page.locator("#projector tbody tr:visible")
    first_page = visible.first.get_attribute("data-mesa")
    assert 0 < visible.count() < known == 32  # 32 mesas do not fit: it pages
    seating.assign_tables(champ, by=None)
    mesa = champ.mesas.filter(bracket="W", round=1).order_by("position").first()
    expect(page.locator("#calls")).to_contain_text(
        f"{mesa.pair_a.name} y {mesa.pair_b.name} → mesa física 1", timeout=8000
    )
    page.screenshot(path=str(Path(__file__).resolve().parents[2] / "artifacts" / "public-projector-1920.png"))
    expect(visible.first).not_to_have_attribute("data-mesa", first_page, timeout=12000)
