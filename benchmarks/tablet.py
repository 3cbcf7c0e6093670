"""How many taps, and how long, a juez needs for a whole mesa on the tablet.

    .venv/bin/python benchmarks/tablet.py [--seed 7] [--shots DIR] [--smoke]

Serves the app (a live server thread on a throw-away SQLite file with the
real claim log and engine), opens the juez's screen in Debian's Chromium
at 1024x768 with touch, as the browser tests do, and plays a scripted juez
through a mesa to its end: every data is a mano, a few plays (caídas,
limpias, caídas y limpias), a second mano, more plays, and a conteo
(none when a chica ended during the data: it has no conteo) of a realistic count (12 to 28 cards for the pair the
juez counts, either pair); then the next data, until a pair wins the mesa. The plays
and counts come from a seeded random generator, so two runs (before and
after a change of the screen) log the same mesa. ``--smoke``: the first data alone, for the test suite
(``tests/benchmarks/``).

Every tap goes through ``Juez.tap``, which counts it; after each claim the
juez waits for the server's answer (the log shows its seq) before the next
tap, as a juez who looks at the screen does. When the screen asks a
confirmation, or shows a refusal to acknowledge, the juez taps it: those
taps count too.

Printed: the claims logged, the taps (in all, per claim, and per conteo:
mean and largest), the wall time from the first tap to the mesa's banner,
and the floor measured in the same run: the same claims posted one after
the other from the same page with ``fetch`` (no taps, no screen), i.e.
what the server and the network alone take. The ratio of the juez's time
to that floor is the screen's own cost.

Figures, and what they showed: ``benchmarks/RESULTS.md`` ("The juez's taps").
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DATABASE_URL"] = "sqlite:///" + str(Path(tempfile.mkdtemp(prefix="tablet-bench-")) / "bench.sqlite3")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
os.environ.pop("REDIS_URL", None)

import django  # noqa: E402

django.setup()

# Not Playwright's wait_for_function: it evaluates its string with eval in the page, which the Content Security
# Policy refuses (the benchmark waited for the screen until it timed out).
from tests.support.browser import until  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]
PLAYS = ["caida", "caida", "caida", "limpia", "caida_limpia"]


def make_mesa():
    """A demo-like mesa: a championship of the default profile, two pairs of two, a juez."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournament.models import Championship, Mesa, Pair, Player
    from tournament.seating.sedes import create_sede

    call_command("migrate", verbosity=0)
    juez = get_user_model().objects.create_user("juez1", password="cuarenta", first_name="Rosa", last_name="Guamán")
    day = datetime.date(2026, 11, 21)
    championship = Championship.objects.create(
        name="Campeonato de Riobamba",
        edition="2026",
        start_date=day,
        end_date=day,
        sede=create_sede("Coliseo de Riobamba", 1, by=None),
    )
    pairs = []
    for name, players in (
        ("Los Ases", ["Ana Chávez", "Luis Paredes"]),
        ("Caballos de Espada", ["Marta Yépez", "Jorge Cando"]),
    ):
        pair = Pair.objects.create(championship=championship, name=name)
        for number, full_name in enumerate(players, start=1):
            Player.objects.create(pair=pair, number=number, full_name=full_name, is_representative=number == 1)
        pairs.append(pair)
    return Mesa.objects.create(
        championship=championship,
        round=1,
        position=1,
        pair_a=pairs[0],
        pair_b=pairs[1],
        table_number=7,
        juez=juez,
        status=Mesa.Status.READY,
    )


def script(seed):
    """The juez's mesa, data after data: a list of ("claim", kind, pair) and ("conteo", pair, cards)."""
    rng = random.Random(seed)
    while True:
        data = []
        for _mano in range(2):
            data.append(("claim", "mano", None))
            for _play in range(rng.choice([0, 1, 1, 2, 2, 3])):
                data.append(("claim", rng.choice(PLAYS), rng.choice("AB")))
        data.append(("conteo", rng.choice("AB"), rng.randint(12, 28)))
        yield data


class Juez:
    """Taps on the screen, counting them, and waits for each answer."""

    def __init__(self, page):
        self.page, self.taps, self.seq, self.conteo_taps = page, 0, 0, []
        self.tapped = {}  # by selector: when it was last tapped

    def tap(self, selector):
        # A juez taps one button again after the screen's double-tap window (0.8 s, static/refereeing/mesa/queue.js),
        # or the screen takes the second tap for a double tap and logs nothing.
        if selector in self.tapped:
            self.page.wait_for_timeout(max(0, 850 - (time.monotonic() - self.tapped[selector]) * 1000))
        self.page.locator(selector).first.tap()
        self.tapped[selector] = time.monotonic()
        self.taps += 1

    def confirm_if_asked(self):
        if self.page.evaluate("() => !!document.querySelector('#dlg-confirm[open]')"):
            self.tap("#dlg-confirm [value=yes]")

    def settle(self):
        """Wait for the server's answer to the last claim; acknowledge a refusal if the screen asks to."""
        self.seq += 1
        until(
            self.page,
            "!document.querySelector('#net .net-waiting') && "
            f"(document.querySelector('#log .log-item .log-seq') || {{}}).textContent === '#{self.seq}'",
        )
        ack = self.page.locator("#refusal:not([hidden]) [data-action=ack]")
        if ack.count():
            self.tap("#refusal [data-action=ack]")

    def claim(self, kind, pair):
        self.tap(f".screen [data-claim={kind}]" + (f"[data-pair={pair}]" if pair else ""))
        self.confirm_if_asked()
        self.settle()

    def conteo(self, pair, cards):
        before = self.taps
        if self.page.locator(f"[data-open=conteo][data-counted={pair}]").count():
            # The keypad: the pair's conteo button, the digits, confirm.
            self.tap(f"[data-open=conteo][data-counted={pair}]")
            for digit in str(cards):
                self.tap(f"#dlg-conteo [data-key='{digit}']")
        else:
            # The steppers: open, choose the pair, step from 20, confirm.
            self.tap("[data-open=conteo]")
            self.tap(f"#dlg-conteo [data-counted={pair}]")
            step = "1" if cards > 20 else "-1"
            for _ in range(abs(cards - 20)):
                self.tap(f"#dlg-conteo [data-step=counted][data-by='{step}']")
        self.tap("#dlg-conteo [data-confirm=conteo]")
        self.confirm_if_asked()
        self.conteo_taps.append(self.taps - before)
        self.settle()

    def chica_just_ended(self):
        """A chica ended during this data (its banner shows): the data has no conteo (the rulings)."""
        return self.page.evaluate("() => !!document.querySelector('#banner.banner-chica:not([hidden])')")

    def finished(self):
        return self.page.evaluate("() => document.querySelector('#screen').classList.contains('is-finished')")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--shots", help="a folder for a screenshot of the finished mesa")
    parser.add_argument("--smoke", action="store_true", help="the mesa's first data alone, for the test suite")
    args = parser.parse_args()

    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test import Client
    from django.test.testcases import LiveServerThread
    from playwright.sync_api import sync_playwright

    from refereeing.models import ClaimEntry

    mesa = make_mesa()
    server = LiveServerThread("127.0.0.1", StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    url = f"http://127.0.0.1:{server.port}"
    client = Client()
    client.force_login(mesa.juez)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True, locale="es-EC")
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}])
        page = context.new_page()
        page.goto(f"{url}/mesa/{mesa.pk}/")
        until(page, "document.querySelector('#st-chica').textContent !== '–'")
        juez = Juez(page)
        start = time.perf_counter()
        for played, data in enumerate(script(args.seed)):
            if args.smoke and played:
                break
            for step in data:
                if step[0] == "claim":
                    juez.claim(step[1], step[2])
                elif not juez.chica_just_ended():
                    juez.conteo(step[1], step[2])
                if juez.finished():
                    break
            if juez.finished():
                break
        elapsed = time.perf_counter() - start
        if args.shots:
            page.screenshot(path=str(Path(args.shots) / "tablet-bench-end.png"))
        claims = list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values_list("claim", flat=True))

        # The floor: the same claims at a fresh mesa, posted from the page with fetch, one after the other. Not in a
        # smoke run: its mesa is not over, and its juez referees one mesa at a time.
        floor = None if args.smoke else measure_floor(page, url, mesa, claims)
        browser.close()
    server.terminate()

    refused = ClaimEntry.objects.filter(mesa=mesa).count() - len(claims)
    print(f"seed {args.seed}: a mesa of {len(claims)} claims ({len(juez.conteo_taps)} conteos), {refused} lost")
    print(f"taps: {juez.taps} in all, {juez.taps / len(claims):.2f} per claim (floor 1.00)")
    if juez.conteo_taps:
        print(f"conteo taps: mean {statistics.mean(juez.conteo_taps):.1f}, largest {max(juez.conteo_taps)}")
    if floor is None:
        print(f"time: {elapsed:.1f} s from the first tap to the first data's end (no floor in a smoke run)")
    else:
        print(
            f"time: {elapsed:.1f} s from the first tap to the mesa's end; floor (fetch alone) {floor:.1f} s; "
            f"ratio {elapsed / floor:.2f}"
        )


def measure_floor(page, url, mesa, claims):
    """Seconds to post ``claims`` at a fresh mesa like ``mesa`` from the page with fetch, one after the other."""
    other = make_floor_mesa(mesa)
    page.goto(f"{url}/mesa/{other.pk}/")
    until(page, "document.querySelector('#st-chica').textContent !== '–'")
    seconds, refused = page.evaluate(
        """async ([url, claims, ids]) => {
        const csrf = (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1]
            || document.querySelector('meta[name=csrf-token]').content;
        const start = performance.now();
        let refused = 0;
        for (let i = 0; i < claims.length; i++) {
            const r = await fetch(url, {method: 'POST', credentials: 'same-origin',
                headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf, Accept: 'application/json'},
                body: JSON.stringify({client_id: ids[i], claim: claims[i], expected_seq: i + 1})});
            await r.json();
            refused += r.ok ? 0 : 1;
        }
        return [(performance.now() - start) / 1000, refused];
    }""",
        [f"/api/mesas/{other.pk}/claims/", claims, [str(uuid.uuid4()) for _ in claims]],
    )
    if refused:
        raise SystemExit(f"the floor's claims were refused: {refused} of {len(claims)}")
    return seconds


def make_floor_mesa(mesa):
    """A second mesa like ``mesa``, same pairs and juez, for the floor's claims."""
    from tournament.models import Mesa

    return Mesa.objects.create(
        championship=mesa.championship,
        round=1,
        position=2,
        pair_a=mesa.pair_a,
        pair_b=mesa.pair_b,
        table_number=8,
        juez=mesa.juez,
        status=Mesa.Status.READY,
    )


if __name__ == "__main__":
    main()
