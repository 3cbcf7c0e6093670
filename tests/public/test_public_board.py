"""The public boards' order (issue 23 point 9): the mesas in play and the next calls first, each table once,
the winner marked, and no screen of mesas whose pairs are not known yet."""

import re
import uuid
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from refereeing.claimlog.log import record_claim
from tests.support.factories import championship, jueces, pairs, play, start
from tournament.draws import draws
from tournament.seating import seating

pytestmark = pytest.mark.django_db

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


@pytest.fixture
def day():
    """Eight pairs on four tables: W1-1 and W1-2 decided (their tables given to W2-1 and L1-1, now called),
    W1-3 in play, W1-4 called and not started."""
    champ = championship(name="Copa Chimborazo", tables=4)
    pairs(champ, 8)
    jueces(4)
    draws.draw_bracket(champ, seed=1, by=None)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    first, second, third, fourth = champ.mesas.filter(bracket="W", round=1).order_by("position")
    play(first, "A")
    play(second, "B")
    start(third)
    record_claim(third, {"kind": "caida", "pair": "B", "player": 1}, uuid.uuid4(), user=third.juez)
    seating.assign_tables(champ, by=None)
    return champ


def rows_of(html):
    """[(mesa id, table, the row's html)] in the page's order."""
    return [
        (int(mesa), table, row)
        for mesa, table, row in re.findall(
            r'<tr[^>]*data-mesa="(\d+)"[^>]*data-table="(\d*)"[^>]*>(.*?)</tr>', html, re.S
        )
    ]


def board_rows(champ, view):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    return client.get(reverse(f"public:{view}", args=[champ.pk]) + "?rows=1").content.decode()


@pytest.mark.parametrize("view", ["scoreboard", "projector"])
@pytest.mark.slow
def test_the_board_shows_play_then_calls_then_results_each_table_once(day, view):
    mesas = {(m.bracket, m.round, m.position): m for m in day.mesas.all()}
    first, second, third, fourth = (mesas["W", 1, n] for n in (1, 2, 3, 4))
    w21, l11 = mesas["W", 2, 1], mesas["L", 1, 1]
    assert {w21.table_number, l11.table_number} == {first.table_number, second.table_number}  # the freed tables
    html = board_rows(day, view)
    rows = rows_of(html)
    order = [mesa for mesa, _, _ in rows]
    calls = sorted([fourth, w21, l11], key=lambda m: m.table_number)
    assert order == [third.pk, *(m.pk for m in calls), second.pk, first.pk]
    tables = [table for _, table, _ in rows if table]
    assert sorted(tables) == sorted({str(t) for t in tables}) and len(tables) == 4  # each of the four tables once
    assert dict((mesa, table) for mesa, table, _ in rows)[first.pk] == ""  # its table is W2-1's or L1-1's now
    # No row of a mesa whose pairs are not known: the scoreboard counts them in one line.
    unknown = day.mesas.filter(pair_a=None).count() + day.mesas.filter(pair_b=None).exclude(pair_a=None).count()
    assert len(rows) == day.mesas.count() - unknown and "…" not in html
    if view == "scoreboard":
        assert f"And {unknown} more mesas, whose pairs come from mesas still to be played." in html
    else:
        assert "more mesas" not in html


@pytest.mark.slow
def test_the_projector_names_the_table_of_every_mesa_a_finished_one_too(day):
    """Issue #35: the projector printed "—" for a finished mesa, whose table another mesa holds now; it names the
    table it was played at (its row's data-table stays empty: the table is the new mesa's)."""
    mesas = {(m.bracket, m.round, m.position): m for m in day.mesas.all()}
    rows = {mesa: (table, row) for mesa, table, row in rows_of(board_rows(day, "projector"))}
    for finished in (mesas["W", 1, 1], mesas["W", 1, 2]):
        table, row = rows[finished.pk]
        assert table == "" and f'<td class="table-no">{finished.table_number}</td>' in row
    assert all('<td class="table-no">—</td>' not in row for _table, row in rows.values())


@pytest.mark.parametrize("view", ["scoreboard", "projector"])
@pytest.mark.slow
def test_the_winner_of_a_decided_mesa_is_marked(day, view):
    first = day.mesas.get(bracket="W", round=1, position=1)
    second = day.mesas.get(bracket="W", round=1, position=2)
    rows = {mesa: row for mesa, _, row in rows_of(board_rows(day, view))}
    for mesa, winner, loser in ((first, first.pair_a, first.pair_b), (second, second.pair_b, second.pair_a)):
        assert re.search(rf'<td class="winner">{re.escape(winner.name)} <span class="winner-mark"', rows[mesa.pk])
        assert f"<td>{loser.name}</td>" in rows[mesa.pk] and rows[mesa.pk].count("winner-mark") == 1
    assert "winner-mark" not in "".join(row for mesa, row in rows.items() if mesa not in (first.pk, second.pk))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("view", "path", "width"), [("projector", "proyector", 1920), ("scoreboard", "", 1280)])
def test_the_boards_on_screen(live_server, page, view, path, width):
    """The projector and the scoreboard of a day under way, screenshot for a look."""
    from playwright.sync_api import expect

    champ = championship(name="Campeonato Nacional de Cuarenta", tables=8)
    pairs(champ, 16)
    jueces(8)
    draws.draw_bracket(champ, seed=1, by=None)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    mesas = list(champ.mesas.filter(bracket="W", round=1).order_by("position"))
    for mesa in mesas[:3]:
        play(mesa, "A")
    for mesa in mesas[3:6]:
        start(mesa)
    seating.assign_tables(champ, by=None)
    page.set_viewport_size({"width": width, "height": 1080})
    page.goto(f"{live_server.url}/en-vivo/{champ.pk}/{path}")
    rows = page.locator("tr[data-mesa]")
    expect(rows.first).to_have_attribute("data-status", "in_play")
    known = champ.mesas.exclude(pair_a=None).exclude(pair_b=None).count()
    expect(rows).to_have_count(known)
    expect(page.locator("td.winner .winner-mark")).to_have_count(3)
    tables = [t for t in rows.evaluate_all("rows => rows.map(r => r.dataset.table)") if t]
    assert len(tables) == len(set(tables))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"public-{view}-day-{width}.png"), full_page=view == "scoreboard")
    if view == "projector":  # the results come after the mesas in play and the calls: on its next page
        expect(page.locator(".winner-mark").first).to_be_visible(timeout=12000)
        page.screenshot(path=str(ARTIFACTS / f"public-{view}-day-{width}-results.png"))
