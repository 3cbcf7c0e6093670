"""Slow and idle clients never stall the production server.

The server runs as the README starts it (gunicorn, ``config/gunicorn.py``,
``DEBUG=false``). 64 connections are then opened and left hanging: 32 that
send nothing, 16 that send part of a request's headers, 16 that send a
POST's headers and part of its body; each is what a tablet leaving wifi
range mid-request leaves behind. While all of them stay open, the pages
(home, bracket) and the juez's API (mesa, poll, claim) must each answer
within a second. With the previous set-up (gthread, one thread a worker)
six such sockets stopped the site.
"""

import re
import socket
import time
import uuid

import pytest
import requests

from refereeing.claimlog.log import record_claim
from tests.support.production import production_server, set_production_password

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "sota-caballo-rey"


def hanging_connections(url):
    host, port = url.removeprefix("http://").split(":")
    sockets = []
    for n in range(64):
        s = socket.create_connection((host, int(port)), timeout=5)
        if 32 <= n < 48:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: tablet")
        elif n >= 48:
            s.sendall(
                b"POST /api/levante/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b'Content-Length: 4000\r\n\r\n{"table": ['
            )
        sockets.append(s)
    return sockets


def signed_in_session(url, username):
    session = requests.Session()
    page = session.get(url + "/cuenta/entrar/", timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    answer = session.post(
        url + "/cuenta/entrar/",
        {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token},
        headers={"Referer": url + "/cuenta/entrar/"},
        allow_redirects=False,
        timeout=30,
    )
    assert answer.status_code == 302, answer.text[:300]
    return session


def timed(call):
    start = time.monotonic()
    response = call()
    return response, time.monotonic() - start


def test_64_idle_and_half_sent_connections_leave_pages_and_the_claim_api_answering_within_a_second(
    people, mesa, production_static
):
    juez = people["juez"]
    set_production_password(juez, PASSWORD)
    record_claim(mesa, {"kind": "mano"}, uuid.uuid4(), user=juez)
    with production_server(production_static) as url:
        tablet = signed_in_session(url, juez.username)
        headers = {"X-CSRFToken": tablet.cookies["csrftoken"], "Referer": url + "/"}
        anyone = requests.Session()
        checks = {
            "home": lambda: anyone.get(url + "/", timeout=5),
            "bracket": lambda: anyone.get(f"{url}/campeonatos/{mesa.championship_id}/llaves/", timeout=5),
            "mesa": lambda: tablet.get(f"{url}/api/mesas/{mesa.pk}/", timeout=5),
            "poll": lambda: tablet.get(f"{url}/api/mesas/{mesa.pk}/claims/?after=0", timeout=5),
            "claim": lambda: tablet.post(
                f"{url}/api/mesas/{mesa.pk}/claims/",
                headers=headers,
                timeout=5,
                json={"client_id": str(uuid.uuid4()), "claim": {"kind": "caida", "pair": "A"}},
            ),
        }
        for check in checks.values():  # each worker loads its code before the clock matters
            check()
            check()

        sockets = hanging_connections(url)
        try:
            slow = {}
            for _ in range(3):
                for name, check in checks.items():
                    response, seconds = timed(check)
                    assert response.status_code in (200, 201), (name, response.status_code, response.text[:200])
                    slow[name] = max(slow.get(name, 0), seconds)
            assert max(slow.values()) < 1, slow
            # The hanging connections are still there: the server answered beside them.
            for s in sockets[:32]:
                s.setblocking(False)
                with pytest.raises(BlockingIOError):
                    assert s.recv(1) != b""
        finally:
            for s in sockets:
                s.close()
