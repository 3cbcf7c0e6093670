"""One clock (issue #35): every time the app prints is the championship's, in its time zone, with the zone named
wherever the device's own differs. The control board printed the server's time and the bracket, the projector
and the pair's page the device's clock, unnamed; a tablet set to another zone read two times for one moment."""

import datetime
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone, translation
from playwright.sync_api import expect

from tests.support.browser import sign_in
from tests.support.factories import championship, jueces, organiser, pairs
from tournament.draws import draws
from tournament.seating import seating

ROOT = Path(settings.BASE_DIR)
ZONE = ZoneInfo(settings.TIME_ZONE)


def test_every_template_prints_a_moment_through_shown_moment():
    """Django's own date, time and localtime filters print the current zone without naming it, and one of them
    forgotten prints UTC: a moment is printed one way, the ``shown_moment`` filter."""
    found = []
    for template in (ROOT / "templates").rglob("*.html"):
        for n, line in enumerate(template.read_text(encoding="utf-8").splitlines(), 1):
            formats = re.findall(r'\|date:"([^"]*)"', line)
            # A named format of a date alone (SHORT_DATE_FORMAT) prints a day, not a moment.
            moments = [
                f for f in formats if "DATETIME" in f or not re.fullmatch(r"[A-Z_]+", f) and re.search("[HGgis]", f)
            ]
            if moments or re.search(r"\|(time|localtime|timesince|timeuntil|naturaltime)\b", line):
                found.append(f"{template.relative_to(ROOT)}:{n}")
    assert found == []


def test_no_script_prints_the_device_clock_but_the_clock_module():
    """The pages' scripts print a time only through ``static/js/clock.js``, which prints it in the championship's
    zone."""
    clock = ROOT / "static" / "js" / "clock.js"
    found = []
    for script in (ROOT / "static").rglob("*.js"):
        if "vendor" in script.parts or script == clock:
            continue
        text = script.read_text(encoding="utf-8")
        if re.search(r"toLocale(Time|Date)?String\(|getHours\(|Intl\.DateTimeFormat", text):
            found.append(str(script.relative_to(ROOT)))
    assert found == []
    assert "timeZone: zone" in clock.read_text(encoding="utf-8")


def test_shown_moment_prints_in_the_championship_zone_and_the_label_names_it():
    moment = datetime.datetime(2026, 11, 21, 13, 20, tzinfo=datetime.UTC)
    with translation.override("es"):
        text = Template('{% load shown %}{{ m|shown_moment:"H:i" }} · {% zone %} · {% zone_label %}').render(
            Context({"m": moment})
        )
    assert text == "08:20 · America/Guayaquil · hora de Guayaquil, −05:00"


def called_board(live_server, page):
    """A championship whose first mesas are called (seated, not started), and the organiser on its board."""
    organiser("organizador")
    champ = championship(name="Copa Chimborazo", start_date=timezone.localdate(), end_date=timezone.localdate())
    made = pairs(champ, 4)
    jueces(2)
    draws.draw_bracket(champ, seed=7, by=None)
    seating.assign_tables(champ, by=None)
    sign_in(page, live_server, "organizador", f"/campeonatos/{champ.pk}/control/")
    return champ, made


def hours_now():
    """The championship's HH:MM now and a minute ago (a page read across a minute's turn)."""
    now = timezone.now().astimezone(ZONE)
    return {f"{m:%H:%M}" for m in (now, now - datetime.timedelta(minutes=1))}


@pytest.mark.parametrize("device_zone", ["Europe/Madrid", "America/Guayaquil"])
def test_a_device_in_another_zone_reads_the_championships_time_with_the_zone_named(live_server, browser, device_zone):
    """A tablet set to Madrid's clock (six hours ahead) reads the board's call, the board's last update, the
    projector's and the pair's page's in Guayaquil's time, each named; one set to Guayaquil's reads them unnamed."""
    context = browser.new_context(locale="es-EC", timezone_id=device_zone)
    page = context.new_page()
    champ, made = called_board(live_server, page)
    away = device_zone != settings.TIME_ZONE
    mesa = champ.mesas.exclude(seated_at=None).order_by("seated_at").first()
    called = f"{timezone.localtime(mesa.seated_at):%H:%M}"
    expect(page.locator("#board")).to_contain_text(f"llamada a las {called}")
    note = page.locator("#zone-note")
    if away:
        expect(note).to_be_visible()
        expect(note).to_contain_text("hora de Guayaquil, −05:00")
    else:
        expect(note).to_be_hidden()
    for path in (
        reverse("tournament:board", args=[champ.pk]),
        reverse("public:projector", args=[champ.pk]),
        reverse("public:pair", args=[made[0].token]),
        reverse("public:scoreboard", args=[champ.pk]),
    ):
        page.goto(live_server.url + path)
        stamp = page.locator("#board-updated")
        expect(stamp).not_to_be_empty()
        page.evaluate("document.getElementById('board-updated').dataset.read = 1")
        text = stamp.inner_text()
        assert text[:5] in hours_now(), (path, text)
        assert ("hora de Guayaquil" in text) is away, (path, text)
    context.close()
