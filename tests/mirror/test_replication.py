"""The public mirror (#27): the venue publishes, a mirror subscribes, the mirror's app serves the public pages live.

Two clusters of the test's own (``clusters``), the venue's data written by
the project's own code in a child process, the mirror set up by its two
commands, the mirror's app served by gunicorn as production serves it.
"""

import http.client
import json
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import psycopg
import pytest

from config import urls_mirror
from tests.support.production import ROOT, production_server

from .clusters import cluster

# Every test here runs PostgreSQL clusters of its own (clusters.py), and most a production server.
pytestmark = pytest.mark.production_server

LINK_KEY = "k" * 40
MIRROR_URL = "https://espejo.example.ec"  # the venue has a mirror: its acts publish the planillas' code digests

VENUE_DATA = """
from tests.support.factories import mesa_in_play
from tournament.models import Pair, Player
from django.contrib.auth.models import User
from refereeing.models import Signature
mesa = mesa_in_play("Copa del Espejo")
Player.objects.update(id_number="0601234567", phone="0991234567")
from tournament.models import Person
person = Person.objects.create(full_name="Juan Pérez", name_key="juan perez", id_number="0601234567")
# A drawing on file (written here directly: the act signs finished mesas only).
Signature.objects.create(mesa=mesa, role="A", name="Juan Pérez", image="data:image/png;base64,iVBORw0KGgo=")
from mirror.links import signed
print(json.dumps({"mesa": mesa.pk, "championship": mesa.championship_id, "pair": mesa.pair_a_id,
                  "link": signed(mesa.pair_a), "person": person.pk}))
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
answer = record_claim(mesa, {{"kind": "caida", "pair": "A", "player": 1}}, uuid.uuid4(), user=mesa.juez)
print(json.dumps({{"seq": answer.last_seq, "at": time.time()}}))
"""


def manage(database, *argv, code=None, **env):
    import os

    done = subprocess.run(
        [sys.executable, "manage.py", *argv] + (["-c", "import json, time, uuid\n" + code] if code else []),
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database, "MIRROR_URL": MIRROR_URL, "MIRROR_LINK_KEY": LINK_KEY, **env},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def query(port, database, sql, *params):
    with psycopg.connect(host="127.0.0.1", port=port, dbname=database, user="postgres", autocommit=True) as db:
        cursor = db.execute(sql, params)
        return cursor.fetchall() if cursor.description else None


def wait_for(check, seconds=60):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the mirror did not catch up"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def sides():
    """(venue port, mirror port, the venue's data) with the subscription's first copy done."""
    with cluster("wal_level=logical") as venue, cluster() as mirror:
        for port, name in ((venue, "venue"), (mirror, "mirror")):
            query(port, "postgres", f"CREATE DATABASE {name}")
        venue_url = f"postgres://postgres@127.0.0.1:{venue}/venue"
        mirror_url = f"postgres://postgres@127.0.0.1:{mirror}/mirror"
        manage(venue_url, "migrate", "-v", "0")
        data = json.loads(manage(venue_url, "shell", code=VENUE_DATA).strip().splitlines()[-1])
        assert "created" in manage(venue_url, "mirror_publish")
        assert "updated" in manage(venue_url, "mirror_publish"), "a second run changes the publication in place"
        dsn = f"host=127.0.0.1 port={venue} dbname=venue user=postgres"
        assert "created" in manage(mirror_url, "mirror_subscribe", "--venue", dsn)
        assert "updated" in manage(mirror_url, "mirror_subscribe", "--venue", dsn), "idempotent"
        # Each table's first copy is done (its own worker's), not only the claims'.
        copying = "SELECT count(*) FROM pg_subscription_rel WHERE srsubstate <> 'r'"
        wait_for(lambda: query(mirror, "mirror", copying) == [(0,)])
        count = "SELECT count(*) FROM refereeing_claimentry"
        wait_for(lambda: query(mirror, "mirror", count) == query(venue, "venue", count))
        yield {"venue": venue, "mirror": mirror, "venue_url": venue_url, "mirror_url": mirror_url, **data}


def test_the_mirror_copies_the_public_rows_and_never_the_private_ones(sides):
    venue, mirror = sides["venue"], sides["mirror"]
    for table in ("tournament_championship", "tournament_pair", "tournament_mesa", "refereeing_claimentry"):
        sql = f"SELECT count(*) FROM {table}"
        assert query(mirror, "mirror", sql) == query(venue, "venue", sql) != [(0,)]
    assert query(venue, "venue", "SELECT DISTINCT id_number, phone FROM tournament_player") == [
        ("0601234567", "0991234567")
    ]
    assert query(mirror, "mirror", "SELECT DISTINCT id_number, phone FROM tournament_player") == [(None, None)]
    # A person's name and club are public (the ranking, the person's page); the cédula is not.
    assert query(mirror, "mirror", "SELECT full_name, id_number FROM tournament_person") == [("Juan Pérez", None)]
    assert query(mirror, "mirror", "SELECT count(*) FROM tournament_pair WHERE token IS NOT NULL") == [(0,)]
    assert query(mirror, "mirror", "SELECT count(*) FROM tournament_table WHERE pin IS NOT NULL") == [(0,)]
    assert query(venue, "venue", "SELECT count(*) FROM tournament_table WHERE pin IS NOT NULL") != [(0,)]
    assert query(mirror, "mirror", "SELECT count(*) FROM refereeing_claimentry WHERE address IS NOT NULL") == [(0,)]
    assert query(mirror, "mirror", "SELECT DISTINCT password, username FROM auth_user") == [(None, None)]
    # Who signed and when is public (the verification page shows it); the drawing is not.
    assert query(mirror, "mirror", "SELECT role, name, image FROM refereeing_signature") == [("A", "Juan Pérez", None)]
    assert query(venue, "venue", "SELECT count(*) FROM refereeing_signature WHERE image IS NOT NULL") == [(1,)]
    # The planillas' codes stay at the venue: the mirror holds their digests only.
    assert (
        query(mirror, "mirror", "SELECT digests FROM mirror_planillacode")
        == query(venue, "venue", "SELECT digests FROM mirror_planillacode")
        != []
    )
    # The jueces' names are public (the boards show them); their accounts are not.
    assert query(mirror, "mirror", "SELECT count(*) FROM auth_user WHERE first_name <> '' OR last_name <> ''") == (
        query(venue, "venue", "SELECT count(*) FROM auth_user WHERE first_name <> '' OR last_name <> ''")
    )
    for never in ("django_session", "audit_auditentry", "axes_accessattempt", "refereeing_pinfailure", "mirror_mark"):
        assert query(mirror, "mirror", f"SELECT count(*) FROM {never}") == [(0,)]


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
def mirror_site(sides, production_static):
    with production_server(
        production_static, database=sides["mirror_url"], ready="/", MIRROR="true", MIRROR_LINK_KEY=LINK_KEY
    ) as base:
        yield base


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


def test_the_mirror_resumes_after_the_venues_link_drops(sides):
    venue, mirror = sides["venue"], sides["mirror"]
    # The desk has been following the mirror, caught up, before its link drops.
    wait_for(lambda: _venue_status(sides)["claims_behind"] == 0)
    query(mirror, "mirror", "ALTER SUBSCRIPTION mesa_de_control_mirror DISABLE")
    manage(sides["venue_url"], "shell", code=CLAIM.format(pk=sides["mesa"]))
    status = _venue_status(sides)
    assert status["connected"] is False and status["claims_behind"] == 1
    assert "Espejo público: sin conexión" in _desk_fragment(sides) and "1 jugada atrasada" in _desk_fragment(sides)
    count = "SELECT count(*) FROM refereeing_claimentry"
    assert query(mirror, "mirror", count) != query(venue, "venue", count)
    query(mirror, "mirror", "ALTER SUBSCRIPTION mesa_de_control_mirror ENABLE")
    wait_for(lambda: query(mirror, "mirror", count) == query(venue, "venue", count))
    # The mirror confirms what it holds at its next report (every few seconds).
    wait_for(lambda: _venue_status(sides) == {"connected": True, "lag_seconds": 0, "claims_behind": 0, "warn": False})
    assert "Espejo público: conectado. Al día." in " ".join(_desk_fragment(sides).split())


def _venue_status(sides):
    code = "from mirror.status import status\nprint(json.dumps(status()))"
    return json.loads(manage(sides["venue_url"], "shell", code=code).strip().splitlines()[-1])


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
    return json.loads(manage(sides["venue_url"], "shell", code=DESK).strip().splitlines()[-1])
