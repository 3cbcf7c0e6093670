"""The public mirror (#27, #34): the venue publishes, a mirror subscribes, the mirror's app serves the public pages live.

Two clusters of the test's own (``clusters``), the venue's data written by
the project's own code in a child process (the demo championship, its
appeal included, and a small championship of the test's own), every act
through the project's domain functions (``acts``). The mirror's three
roles are made by ``mirror_role``; the mirror subscribes as its
subscription owner with the venue's replication role, and ``make mirror``
serves it with the app's role, as docs/mirror.md sets it up.
"""

import http.client
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psycopg
import pytest
from django.utils import translation

from config import urls_mirror
from mirror import publication
from refereeing.models import Appeal
from tests.support.production import ROOT, production_server

from .acts import DEMO
from .clusters import cluster

# Every test here runs PostgreSQL clusters of its own (clusters.py), and most a production server.
pytestmark = pytest.mark.production_server

LINK_KEY = "k" * 40
MIRROR_URL = "https://espejo.example.ec"  # the venue has a mirror: its acts publish the planillas' code digests
SUBSCRIPTION = publication.SUBSCRIPTION
# The roles' passwords, which nothing may print.
PASSWORDS = {"replication": "replica-7c1f9e", "subscriber": "owner-2b8d41", "app": "app-5e03aa"}
# Everything the commands and make printed (texts, and the file of make mirror's output).
OUTPUTS = []

VENUE_DATA = f"""
from django.contrib.auth.models import User
from django.core.management import call_command
from refereeing.models import Signature
from tests.support.factories import championship, group, pairs, start
from tournament.accounts import accounts
from tournament.draws import draws
from tournament.models import Championship, Player
from tournament.seating import seating
from mirror.links import signed
call_command("demo", stdout=open("/dev/null", "w"))
# A championship of the test's own, with jueces of its own (the demo's are all at their tables).
copa = championship(name="Copa del Espejo")
pairs(copa, 4)
for n in (1, 2):
    juez = User.objects.create_user(f"espejo{{n}}", first_name="Juez", last_name=f"Espejo {{n}}")
    juez.groups.add(group(accounts.JUECES_GROUP))
    accounts.mark_available(juez, True, by=None)
draws.draw_bracket(copa, seed=1, by=None)
seating.assign_tables(copa, by=None)
seating.start_round(copa, "W", 1, by=None)
mesa = copa.mesas.filter(bracket="W", round=1).order_by("position").first()
start(mesa)
Player.objects.filter(pair__championship=copa).update(id_number="0601234567", phone="0991234567")
from tournament.models import Person
person = Person.objects.create(full_name="Juana Espejo", name_key="juana espejo", id_number="0601234567")
# A drawing on file (written here directly: the act signs finished mesas only).
Signature.objects.create(mesa=mesa, role="A", name="Juan Pérez", image="data:image/png;base64,iVBORw0KGgo=")
print(json.dumps({{"mesa": mesa.pk, "championship": copa.pk, "pair": mesa.pair_a_id, "link": signed(mesa.pair_a),
                  "person": person.pk, "demo": Championship.objects.filter(name="{DEMO}").latest("start_date").pk}}))
"""

CODE = """
from refereeing.planilla.verification import verification_code
from tournament.models import Mesa
print(json.dumps(verification_code(Mesa.objects.get(pk={pk}))))
"""

CLAIM = """
from refereeing.claimlog.log import record_claim
from tournament.models import Mesa
mesa = Mesa.objects.get(pk={pk})
before = time.time()
answer = record_claim(mesa, {{"kind": "caida", "pair": "A", "player": 1}}, uuid.uuid4(), user=mesa.juez)
print(json.dumps({{"seq": answer.last_seq, "before": before, "at": time.time()}}))
"""


def manage(database, *argv, code=None, fails=False, **env):
    """``manage.py argv`` (or ``shell -c code``) on ``database``; its output, whose last line ``code`` prints.
    ``fails``: it must fail; all it printed."""
    import os

    done = subprocess.run(
        [sys.executable, "manage.py", *argv] + (["-c", "import json, time, uuid\n" + code] if code else []),
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database, "MIRROR_URL": MIRROR_URL, "MIRROR_LINK_KEY": LINK_KEY, **env},
        capture_output=True,
        text=True,
        timeout=600,
    )
    OUTPUTS.append(done.stdout + done.stderr)
    if fails:
        assert done.returncode != 0, done.stdout
        return done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def shell(database, code, **env):
    """What ``code`` printed last, read as JSON."""
    return json.loads(manage(database, "shell", code=code, **env).strip().splitlines()[-1])


def act(sides, call):
    """``call`` (of ``tests.mirror.acts``) at the venue; what it reports (``at``: when it had committed), as soon as
    it reports it: the child process ends meanwhile, and the time to the mirror is counted from its commit."""
    import os

    code = f"from tests.mirror import acts\nacts.{call}"
    child = subprocess.Popen(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": sides["venue_url"], "MIRROR_URL": MIRROR_URL, "MIRROR_LINK_KEY": LINK_KEY},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    for line in child.stdout:
        if line.startswith("{"):
            threading.Thread(target=child.communicate, daemon=True).start()
            return json.loads(line)
    child.wait(timeout=60)
    raise AssertionError(f"{call} reported nothing:\n{child.stderr.read()}")


def query(port, database, sql, *params, user="postgres", password=None):
    with psycopg.connect(
        host="127.0.0.1", port=port, dbname=database, user=user, password=password, autocommit=True
    ) as db:
        cursor = db.execute(sql, params)
        return cursor.fetchall() if cursor.description else None


def wait_for(check, seconds=60):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the mirror did not catch up"
        time.sleep(0.1)


def _url(port, database, role):
    return f"postgres://{role}:{PASSWORDS[ROLE_OF[role]]}@127.0.0.1:{port}/{database}"


ROLE_OF = {"mesa_replication": "replication", "mesa_mirror_owner": "subscriber", "mesa_mirror": "app"}


@pytest.fixture(scope="module")
def sides():
    """(venue port, mirror port, the venue's data) with the subscription's first copy done."""
    with cluster("wal_level=logical") as venue, cluster() as mirror:
        for port, name in ((venue, "venue"), (mirror, "mirror")):
            query(port, "postgres", f"CREATE DATABASE {name}")
        venue_url = f"postgres://postgres@127.0.0.1:{venue}/venue"
        mirror_url = f"postgres://postgres@127.0.0.1:{mirror}/mirror"
        manage(venue_url, "migrate", "-v", "0")
        data = shell(venue_url, VENUE_DATA)
        assert "created" in manage(venue_url, "mirror_publish")
        made = manage(venue_url, "mirror_role", "replication", MIRROR_ROLE_PASSWORD=PASSWORDS["replication"])
        assert "Role mesa_replication (replication) made" in made and "its password set" in made
        published = manage(venue_url, "mirror_publish")
        assert "updated" in published, "a second run changes the publication in place"
        assert "the published columns granted to mesa_replication" in published
        # The venue's app as a role of its own, owning nothing more than its tables' rows: no superuser, no
        # pg_read_all_stats (the desk's view of the mirror needs neither).
        for statement in (
            f"CREATE ROLE venue_app LOGIN PASSWORD '{PASSWORDS['app']}'",
            "GRANT ALL ON ALL TABLES IN SCHEMA public TO venue_app",
            "GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO venue_app",
        ):
            query(venue, "venue", statement)
        for kind in ("subscriber", "app"):
            assert "its password set" in manage(mirror_url, "mirror_role", kind, MIRROR_ROLE_PASSWORD=PASSWORDS[kind])
        venue_dsn = (
            f"host=127.0.0.1 port={venue} dbname=venue user=mesa_replication password={PASSWORDS['replication']}"
        )
        owner_url = _url(mirror, "mirror", "mesa_mirror_owner")
        assert "created" in manage(owner_url, "mirror_subscribe", VENUE_DSN=venue_dsn)
        # Each table's first copy is done (its own worker's), not only the claims'.
        copying = "SELECT count(*) FROM pg_subscription_rel WHERE srsubstate <> 'r'"
        wait_for(lambda: query(mirror, "mirror", copying) == [(0,)])
        count = "SELECT count(*) FROM refereeing_claimentry"
        wait_for(lambda: query(mirror, "mirror", count) == query(venue, "venue", count))
        yield {
            "venue": venue,
            "mirror": mirror,
            "venue_url": venue_url,
            "mirror_url": mirror_url,
            "venue_app_url": f"postgres://venue_app:{PASSWORDS['app']}@127.0.0.1:{venue}/venue",
            "owner_url": owner_url,
            "app_url": _url(mirror, "mirror", "mesa_mirror"),
            "venue_dsn": venue_dsn,
            **data,
        }


def _published(port, database):
    """Every published table's public columns, row by row, as ``port``'s database holds them."""
    held = {}
    for table, label in publication.tables().items():
        names = ", ".join(publication.quoted(column) for column in publication.columns(label))
        held[table] = query(port, database, f"SELECT {names} FROM {table} ORDER BY 1")
    return held


def _same(sides):
    return _published(sides["venue"], "venue") == _published(sides["mirror"], "mirror")


def _streaming(sides):
    """The subscription's apply worker runs and every table is copied and following (state ``r``)."""
    mirror = sides["mirror"]
    worker = query(
        mirror, "mirror", "SELECT pid FROM pg_stat_subscription WHERE subname = %s AND relid IS NULL", SUBSCRIPTION
    )
    states = query(mirror, "mirror", "SELECT DISTINCT srsubstate FROM pg_subscription_rel")
    return len(worker) == 1 and worker[0][0] is not None and states == [("r",)]


def test_the_mirror_copies_every_published_table_and_never_a_private_column(sides):
    venue, mirror = sides["venue"], sides["mirror"]
    wait_for(lambda: _same(sides))
    copied = _published(mirror, "mirror")
    # Every table (all but the resolutions have rows from the start), the demo's appeal among them: its first
    # copy no longer stops at the mirror's trigger.
    assert [table for table, rows in copied.items() if not rows] in ([], ["resolutions_resolution"])
    assert _streaming(sides)
    assert query(venue, "venue", "SELECT count(*) FROM tournament_player WHERE id_number = '0601234567'") != [(0,)]
    assert query(
        mirror, "mirror", "SELECT count(*) FROM tournament_player WHERE id_number IS NOT NULL OR phone IS NOT NULL"
    ) == [(0,)]
    # A person's name and club are public (the ranking, the person's page); the cédula is not.
    assert query(venue, "venue", "SELECT id_number FROM tournament_person WHERE id = %s", sides["person"]) != [(None,)]
    assert query(mirror, "mirror", "SELECT full_name FROM tournament_person WHERE id = %s", sides["person"]) == [
        ("Juana Espejo",)
    ]
    assert query(mirror, "mirror", "SELECT count(*) FROM tournament_person WHERE id_number IS NOT NULL") == [(0,)]
    assert query(mirror, "mirror", "SELECT count(*) FROM tournament_pair WHERE token IS NOT NULL") == [(0,)]
    assert query(mirror, "mirror", "SELECT count(*) FROM tournament_table WHERE pin IS NOT NULL") == [(0,)]
    assert query(venue, "venue", "SELECT count(*) FROM tournament_table WHERE pin IS NOT NULL") != [(0,)]
    assert query(mirror, "mirror", "SELECT count(*) FROM refereeing_claimentry WHERE address IS NOT NULL") == [(0,)]
    assert query(mirror, "mirror", "SELECT DISTINCT password, username FROM auth_user") == [(None, None)]
    assert query(
        mirror, "mirror", "SELECT count(*) FROM refereeing_appeal WHERE reason IS NOT NULL OR signature IS NOT NULL"
    ) == [(0,)]
    # Who signed and when is public (the verification page shows it); the drawing is not.
    assert ("A", "Juan Pérez") in query(mirror, "mirror", "SELECT role, name FROM refereeing_signature")
    assert query(mirror, "mirror", "SELECT count(*) FROM refereeing_signature WHERE image IS NOT NULL") == [(0,)]
    assert query(venue, "venue", "SELECT count(*) FROM refereeing_signature WHERE image IS NOT NULL") != [(0,)]
    # The planillas' codes stay at the venue: the mirror holds their digests only.
    assert copied["mirror_planillacode"] == _published(venue, "venue")["mirror_planillacode"]
    for never in ("django_session", "audit_auditentry", "axes_accessattempt", "refereeing_pinfailure", "mirror_mark"):
        assert query(mirror, "mirror", f"SELECT count(*) FROM {never}") == [(0,)]


def test_the_mirrors_trigger_names_its_schema_for_the_apply_workers_empty_search_path(sides):
    """The replication's workers run with ``search_path = ''``: the trigger must find its tables without one."""
    mirror = sides["mirror"]
    appeal, championship = query(
        mirror,
        "mirror",
        "SELECT a.id, m.championship_id FROM refereeing_appeal a JOIN tournament_mesa m ON m.id = a.mesa_id ORDER BY a.id LIMIT 1",
    )[0]
    with psycopg.connect(host="127.0.0.1", port=mirror, dbname="mirror", user="postgres", autocommit=True) as listening:
        listening.execute(f"LISTEN {publication.CHANNEL}")
        with psycopg.connect(host="127.0.0.1", port=mirror, dbname="mirror", user="postgres") as worker:
            # As the apply worker: no search path, and only the triggers enabled ALWAYS fire.
            worker.execute("SET search_path = ''")
            worker.execute("SET session_replication_role = replica")
            worker.execute(
                "UPDATE public.tournament_mesa SET id = id WHERE id = (SELECT min(id) FROM public.tournament_mesa)"
            )
            worker.execute("UPDATE public.refereeing_appeal SET id = id WHERE id = %s", [appeal])
            worker.commit()
        told = [json.loads(notice.payload) for notice in listening.notifies(timeout=10, stop_after=2)]
    assert {message["c"] for message in told} >= {championship}
    assert any(
        message["m"] == [query(mirror, "mirror", "SELECT mesa_id FROM refereeing_appeal WHERE id = %s", appeal)[0][0]]
        and message["s"] == {}
        for message in told
    )


def test_every_kind_of_act_reaches_the_mirror_and_the_subscription_keeps_streaming(sides):
    """Claims, voids, appeals filed, admitted and ruled, resolutions, signatures, sede and pair renames,
    corrections and walkovers, each through its domain function at the venue, reach every published table."""
    mirror = sides["mirror"]
    before = _published(mirror, "mirror")
    done = act(sides, "every_act()")
    wait_for(lambda: _same(sides))
    after = _published(mirror, "mirror")
    assert [table for table in publication.tables() if after[table] == before[table]] == [], "every table changed"
    assert _streaming(sides)

    def row(table, pk, *columns):
        return query(mirror, "mirror", f"SELECT {', '.join(columns)} FROM {table} WHERE id = %s", pk)[0]

    kinds = [
        k
        for (k,) in query(
            mirror, "mirror", "SELECT kind FROM refereeing_claimentry WHERE mesa_id = %s ORDER BY seq", done["claimed"]
        )
    ]
    assert kinds[-3:] == ["mano", "void", "ajuste"]
    appealed = row("refereeing_appeal", done["appeal"], "status", "mesa_id")
    assert appealed[0] == "upheld"
    kinds = [
        k
        for (k,) in query(
            mirror, "mirror", "SELECT kind FROM refereeing_claimentry WHERE mesa_id = %s ORDER BY seq", appealed[1]
        )
    ]
    assert kinds[-3:] == ["suspender", "void", "reanudar"]
    assert row("refereeing_appeal", done["dismissed"], "status", "ruled_by_id") == ("not_admitted", None)
    assert row("resolutions_resolution", done["resolution"], "ajuste_points") == (-2,)
    assert row("tournament_mesa", done["walked"], "status") == ("walkover",)
    assert query(
        mirror, "mirror", "SELECT count(*) FROM refereeing_signature WHERE mesa_id = %s", done["corrected"]
    ) == [(3,)]
    assert row("tournament_sede", done["sede"], "name") == ("Sede del Espejo",)
    assert query(mirror, "mirror", "SELECT count(*) FROM tournament_table WHERE sede_id = %s", done["sede"]) == [(4,)]
    assert row("tournament_championship", done["championship"], "edition") == ("2026 · final",)
    assert row("tournament_pair", done["pair"], "name", "token") == ("Los Espejos de Riobamba", None)
    assert row("auth_user", done["juez"], "first_name", "last_name", "password") == ("Rocío", "Espejo", None)


def _get(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _events(base, path):
    """The server-sent events of ``path``, as (name, data) pairs, as they arrive."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("GET", path)
    response = connection.getresponse()
    assert response.status == 200
    name = None
    while True:
        line = response.readline().decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            yield name, json.loads(line[6:])


@pytest.fixture(scope="module")
def mirror_site(sides, production_static, tmp_path_factory):
    """The mirror as ``make mirror`` serves it: subscribed again as its owner, then the app with its own role."""
    output = tmp_path_factory.mktemp("make-mirror") / "output"
    # The system packages, the virtualenv and the translations are this checkout's already.
    command = [
        "sh",
        "-c",
        f'exec make --no-print-directory -o system -o .venv/.installed -o messages mirror > "{output}" 2>&1',
    ]
    OUTPUTS.append(output)
    try:
        with production_server(
            production_static,
            command=command,
            database=sides["app_url"],
            ready="/",
            MIRROR_LINK_KEY=LINK_KEY,
            SUBSCRIPTION_OWNER_URL=sides["owner_url"],
            VENUE_DSN=sides["venue_dsn"],
        ) as base:
            yield base
    except RuntimeError as error:
        raise RuntimeError(f"{error}\n{output.read_text()}") from None


def test_the_mirror_serves_the_public_pages_and_nothing_that_signs_in_or_writes(sides, mirror_site):
    championship, mesa = sides["championship"], sides["mesa"]
    for path in (
        f"/en-vivo/{championship}/",
        f"/en-vivo/{championship}/proyector/",
        f"/campeonatos/{championship}/llaves/",
        f"/campeonatos/{championship}/posiciones/",
        "/reglas/",
    ):
        status, page = _get(mirror_site + path)
        assert status == 200, path
        assert "Copa del Espejo" in page or path == "/reglas/"
    status, home = _get(mirror_site + "/")
    assert status == 200 and "Copa del Espejo" in home and "/cuenta/entrar/" not in home
    # Every page the mirror serves, as any HTTP cache in front of its app servers sees it.
    pages = {
        "home": "/",
        "rules": "/reglas/",
        "guides:index": "/ayuda/",
        "guides:guide": "/ayuda/organizador/",
        "tournament:bracket": f"/campeonatos/{championship}/llaves/",
        "tournament:standings": f"/campeonatos/{championship}/posiciones/",
        "public:scoreboard": f"/en-vivo/{championship}/",
        "public:projector": f"/en-vivo/{championship}/proyector/",
        "public:pair_signed": f"/pareja/enlace/{sides['link']}/",
        "planilla:verify_form": "/planilla/verificar/",
        "planilla:verify": f"/planilla/verificar/{_code(sides)}/",
        "ratings:ranking": "/jugadores/",
        "ratings:person": f"/jugadores/{sides['person']}/",
    }
    assert set(pages) == urls_mirror.PUBLIC
    wait_for(lambda: _get(mirror_site + pages["planilla:verify"])[0] == 200)
    for path in pages.values():
        with urllib.request.urlopen(mirror_site + path, timeout=10) as response:
            assert response.headers["Cache-Control"] == "public, max-age=5, stale-while-revalidate=30", path
            assert "Accept-Language" in response.headers["Vary"] and response.headers["Set-Cookie"] is None, path
            etag = response.headers["ETag"]
        request = urllib.request.Request(mirror_site + path, headers={"If-None-Match": etag})
        with pytest.raises(urllib.error.HTTPError) as revalidated:
            urllib.request.urlopen(request, timeout=10)
        assert revalidated.value.code == 304, path
        assert revalidated.value.headers["Cache-Control"] == "public, max-age=5, stale-while-revalidate=30"
    for path in (
        "/cuenta/entrar/",
        "/admin/",
        f"/campeonatos/{championship}/control/",
        f"/api/mesas/{mesa}/claims/",
        f"/mesa/{mesa}/",
        "/acceso/",
        f"/informe/{championship}/",
        "/auditoria/",
    ):
        assert _get(mirror_site + path)[0] == 404, path
    # Nothing there takes a form, a PUT or a DELETE, known address or not (mirror.readonly).
    for path in [*pages.values(), "/cuenta/entrar/", "/no-existe/"]:
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            request = urllib.request.Request(mirror_site + path, data=b"x=1", method=method)
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)
            assert refused.value.code == 405 and refused.value.headers["Allow"] == "GET, HEAD", (method, path)
    # An unknown address is kept as briefly; it may be a row the replication has not brought yet.
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(mirror_site + "/planilla/verificar/1-0000-0000-0000/", timeout=10)
    assert missing.value.code == 404
    assert missing.value.headers["Cache-Control"] == "public, max-age=5, stale-while-revalidate=30"
    # The language switch needs no token (it sets only the visitor's cookie).
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    data = urllib.parse.urlencode({"language": "en", "next": "/reglas/"}).encode()
    with opener.open(mirror_site + "/i18n/setlang/", data=data, timeout=10) as response:
        assert response.status == 200 and '<html lang="en"' in response.read().decode()
    # The pair's page, by the link the venue signed; a forged one is unknown.
    status, page = _get(mirror_site + f"/pareja/enlace/{sides['link']}/")
    assert status == 200 and "Copa del Espejo" in page
    assert _get(mirror_site + f"/pareja/enlace/{sides['link'][:-2]}xx/")[0] == 404


def test_a_claim_at_the_venue_reaches_the_mirrors_stream(sides, mirror_site):
    events = _events(mirror_site, f"/flujo/mesa/{sides['mesa']}/")
    name, first = next(events)
    assert name == "seq"
    logged = json.loads(
        manage(sides["venue_url"], "shell", code=CLAIM.format(pk=sides["mesa"])).strip().splitlines()[-1]
    )
    assert logged["seq"] == first["seq"] + 1
    name, data = next(events)
    arrived = time.time()
    assert (name, data["seq"]) == ("seq", logged["seq"])
    assert arrived - logged["at"] < 5, "from the venue's commit to the mirror's stream"


def _code(sides):
    """The mesa's verification code now, as the venue prints it (with its key)."""
    return json.loads(manage(sides["venue_url"], "shell", code=CODE.format(pk=sides["mesa"])).strip().splitlines()[-1])


def test_a_planilla_verifies_on_the_mirror_until_the_venue_changes_its_record(sides, mirror_site):
    printed = _code(sides)
    wait_for(lambda: _get(mirror_site + f"/planilla/verificar/{printed}/")[0] == 200)
    with urllib.request.urlopen(mirror_site + f"/planilla/verificar/{printed}/", timeout=10) as response:
        page = response.read().decode()
        assert response.headers["Cache-Control"] == "public, max-age=5, stale-while-revalidate=30"
        assert response.headers["Set-Cookie"] is None
    assert "Copa del Espejo" in page and printed in page and "Juan Pérez" in page
    status, page = _get(mirror_site + f"/planilla/verificar/?codigo={printed.lower()}")
    assert status == 200 and "Copa del Espejo" in page, "the form's redirect is followed to the same page"
    manage(sides["venue_url"], "shell", code=CLAIM.format(pk=sides["mesa"]))
    current = _code(sides)
    wait_for(lambda: _get(mirror_site + f"/planilla/verificar/{current}/")[0] == 200)
    status, page = _get(mirror_site + f"/planilla/verificar/{printed}/")
    assert status == 404 and "Copa del Espejo" not in page
    for forged in ("1-0000-0000-0000", printed[:-1] + ("0" if printed[-1] != "0" else "1"), "x" * 300):
        assert _get(mirror_site + f"/planilla/verificar/{forged}/")[0] == 404


def test_the_desk_says_connected_while_streaming_and_how_far_behind_a_cut_leaves_the_mirror(sides):
    """With the venue app's own role (no superuser, no ``pg_read_all_stats``), at each look, not one look behind."""
    venue, mirror = sides["venue"], sides["mirror"]
    caught_up = {"connected": True, "lag_seconds": 0, "claims_behind": 0, "warn": False}
    wait_for(lambda: _venue_status(sides) == caught_up)
    assert "Espejo público: conectado. Al día." in " ".join(_desk_fragment(sides).split())
    # A claim the mirror holds and has confirmed, and no look at the desk after it ...
    manage(sides["venue_url"], "shell", code=CLAIM.format(pk=sides["mesa"]))
    (flushed,) = query(venue, "venue", "SELECT pg_current_wal_flush_lsn()")[0]
    confirmed = "SELECT confirmed_flush_lsn >= %s FROM pg_replication_slots WHERE slot_name = %s"
    wait_for(lambda: query(venue, "venue", confirmed, flushed, SUBSCRIPTION) == [(True,)])
    # ... then the link drops, and the claims go on.
    query(mirror, "mirror", f"ALTER SUBSCRIPTION {SUBSCRIPTION} DISABLE")
    active = "SELECT active FROM pg_replication_slots WHERE slot_name = %s"
    wait_for(lambda: query(venue, "venue", active, SUBSCRIPTION) == [(False,)])
    cut = [shell(sides["venue_url"], CLAIM.format(pk=sides["mesa"])) for _ in range(2)]
    asked = time.time()
    status = _venue_status(sides)
    answered = time.time()
    # Behind by the claims of the cut alone, as old as the first of them is at the look.
    assert status["connected"] is False and status["claims_behind"] == 2 and status["warn"] is False
    assert asked - cut[0]["at"] - 0.05 <= status["lag_seconds"] <= answered - cut[0]["before"] + 0.05
    desk = " ".join(_desk_fragment(sides).split())
    assert "Espejo público: sin conexión" in desk and "2 jugadas atrasadas" in desk
    count = "SELECT count(*) FROM refereeing_claimentry"
    assert query(mirror, "mirror", count) != query(venue, "venue", count)
    query(mirror, "mirror", f"ALTER SUBSCRIPTION {SUBSCRIPTION} ENABLE")
    wait_for(lambda: query(mirror, "mirror", count) == query(venue, "venue", count))
    # The look waits a moment for the mirror to confirm it: caught up is seen as soon as it is so.
    wait_for(lambda: _venue_status(sides) == caught_up)
    assert "Espejo público: conectado. Al día." in " ".join(_desk_fragment(sides).split())


def test_the_mirrors_app_role_reads_the_rows_and_can_neither_write_nor_read_the_venues_password(sides, mirror_site):
    mirror = sides["mirror"]
    assert _get(mirror_site + "/")[0] == 200
    # make mirror serves with the app's role: every connection of the app's (pages, live updates) is its.
    clients = "SELECT DISTINCT usename FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
    assert query(mirror, "mirror", clients) == [("mesa_mirror",)]
    with psycopg.connect(sides["app_url"], autocommit=True) as app:
        assert app.execute("SELECT count(*) FROM tournament_mesa").fetchone()[0] > 0
        assert app.execute("SHOW default_transaction_read_only").fetchone() == ("on",)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            app.execute("SELECT subconninfo FROM pg_subscription")
        app.execute("BEGIN READ WRITE")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            app.execute("UPDATE tournament_sede SET name = 'Otra sede'")
        app.execute("ROLLBACK")
        for statement in (
            "DELETE FROM refereeing_claimentry",
            "CREATE TABLE espejo (id int)",
            f"ALTER SUBSCRIPTION {SUBSCRIPTION} DISABLE",
        ):
            app.execute("BEGIN READ WRITE")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute(statement)
            app.execute("ROLLBACK")
    # Nor can it subscribe: the subscribe step is the owner's alone.
    refused = manage(sides["app_url"], "mirror_subscribe", fails=True, VENUE_DSN=sides["venue_dsn"])
    assert "Creating the subscription needs a superuser on this PostgreSQL" in refused
    assert _streaming(sides)


def test_the_replication_role_reads_the_published_columns_and_no_private_one(sides):
    """Password hashes, pairs' tokens, tables' PINs, cédulas, phones...: none readable by the role the internet sees."""
    private = {
        (table, column)
        for table, label in publication.tables().items()
        for column in publication.private_columns(label)
    }
    assert {
        ("auth_user", "password"),
        ("tournament_pair", "token"),
        ("tournament_table", "pin"),
        ("tournament_player", "id_number"),
        ("tournament_player", "phone"),
        ("refereeing_appeal", "reason"),
    } <= private
    replication = {"user": "mesa_replication", "password": PASSWORDS["replication"]}
    for table, label in publication.tables().items():
        names = ", ".join(publication.quoted(column) for column in publication.columns(label))
        assert query(sides["venue"], "venue", f"SELECT {names} FROM {table} LIMIT 1", **replication) is not None
    for table, column in sorted(private):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            query(sides["venue"], "venue", f'SELECT "{column}" FROM {table} LIMIT 1', **replication)
    for never in ("django_session", "audit_auditentry", "mirror_mark", "tournament_juezday", "axes_accessattempt"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            query(sides["venue"], "venue", f"SELECT count(*) FROM {never}", **replication)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        query(sides["venue"], "venue", "UPDATE tournament_sede SET name = name", **replication)


def test_an_appeal_and_a_sede_renamed_after_it_reach_the_mirrors_pages_within_seconds(sides, mirror_site):
    """Filed, admitted and ruled at the venue, the appeal shows on the pair's page and the scoreboard of the mirror;
    a sede renamed after it reaches its home page. Each from the act's commit at the venue to the page showing it."""
    with translation.override("es-ec"):
        labels = {status: str(label) for status, label in Appeal.Status.choices}
    took = {}

    def shows(step, path, *texts):
        wait_for(lambda: all(text in _get(mirror_site + path)[1] for text in texts), seconds=30)
        took[step] = time.time() - done["at"]

    done = act(sides, 'appeal_act("file")')
    pair_page = f"/pareja/enlace/{done['link']}/"
    shows("filed", pair_page, f"<b>{labels['filed']}</b>")
    shows("filed, on the scoreboard", f"/en-vivo/{sides['demo']}/", f'data-status="appeal" data-mesa="{done["mesa"]}"')
    appeal = done["appeal"]
    done = act(sides, f'appeal_act("admit", {appeal})')
    shows("admitted", pair_page, f"<b>{labels['admitted']}</b>")
    done = act(sides, f'appeal_act("rule", {appeal})')
    shows("ruled", pair_page, f"<b>{labels['upheld']}</b>: Se anula la caída")
    done = act(sides, 'rename_sede("Coliseo Cubierto Riobamba (Espejo)")')
    shows("sede renamed", "/", "Coliseo Cubierto Riobamba (Espejo)")
    print(
        "from the venue's commit to the mirror's page, s:", {step: round(seconds, 2) for step, seconds in took.items()}
    )
    # The act's child process reports after its commit: the figure is within the 2 s aimed at, bounded here loosely
    # for a loaded machine.
    assert max(took.values()) < 10
    assert _streaming(sides)


def test_no_password_is_printed(sides, mirror_site):
    """Not by mirror_role, mirror_subscribe, mirror_publish, nor by make mirror, which has VENUE_DSN in its environment."""
    assert _get(mirror_site + "/")[0] == 200
    printed = "".join(output.read_text() if isinstance(output, Path) else output for output in OUTPUTS)
    assert "Subscription mesa_de_control_mirror updated." in printed and "manage.py mirror_subscribe" in printed
    for password in PASSWORDS.values():
        assert password not in printed
    sql = manage(
        sides["venue_url"], "mirror_role", "replication", "--sql", MIRROR_ROLE_PASSWORD=PASSWORDS["replication"]
    )
    assert "GRANT SELECT (" in sql and "\\password mesa_replication" in sql and PASSWORDS["replication"] not in sql


def _venue_status(sides):
    """The mirror's status, as the venue's app sees it with its own role."""
    return shell(sides["venue_app_url"], "from mirror.status import status\nprint(json.dumps(status()))")


DESK = """
from django.test import Client
from tests.support.factories import organiser
from django.contrib.auth.models import User
desk = User.objects.filter(username="desk").first() or organiser("desk")
client = Client(HTTP_HOST="127.0.0.1")
client.force_login(desk)
print(json.dumps(client.get("/espejo/estado/").content.decode()))
"""


def _desk_fragment(sides):
    """What the control board shows of the mirror, to an organiser at the venue."""
    return shell(sides["venue_app_url"], DESK)
