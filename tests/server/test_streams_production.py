"""The live streams on the production server: across its workers through Redis, and never in the way of a page.

The server runs as the README starts it (gunicorn with two uvicorn workers,
``DEBUG=false``) with ``REDIS_URL``. A claim logged anywhere reaches every
stream, whichever worker holds it; 300 open streams leave the pages and the
API answering within a second (a stream holds a socket, not a view slot); a
restart does not wait for the streams to end, and they come back.
"""

import queue
import signal
import socket
import threading
import time
import uuid

import pytest
import requests
from django.test import override_settings

from live import broker
from refereeing.claimlog.log import record_claim
from tests.support.factories import mesa_in_play
from tests.support.production import production_server

pytestmark = pytest.mark.django_db(transaction=True)

REDIS = "redis://127.0.0.1:6379/6"


@pytest.fixture
def mesa():
    return mesa_in_play("Copa Pastaza")


def follow(url, heard, opened):
    """Read one stream's events into ``heard`` as (stream url, event name, data line) until it closes."""
    try:
        with requests.get(url, stream=True, timeout=(5, 30)) as response:
            assert response.status_code == 200
            opened.release()
            name = None
            for line in response.iter_lines(decode_unicode=True):
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    heard.put((url, name, line[6:]))
    except requests.RequestException:
        pass  # the server stopped at the end of the test


@pytest.fixture
def production(production_static):
    with production_server(production_static, workers=2, REDIS_URL=REDIS) as url:
        yield url


def test_a_claim_reaches_every_stream_whichever_worker_holds_it(production, mesa):
    heard, opened = queue.Queue(), threading.Semaphore(0)
    streams = [f"{production}/flujo/mesa/{mesa.pk}/?n={n}" for n in range(8)]
    streams += [f"{production}/flujo/campeonato/{mesa.championship_id}/?vista=tablero&lang=en&n={n}" for n in range(8)]
    for url in streams:
        threading.Thread(target=follow, args=(url, heard, opened), daemon=True).start()
    for _ in streams:
        assert opened.acquire(timeout=30)
    time.sleep(0.5)  # every worker's subscription is up
    with override_settings(REDIS_URL=REDIS):
        broker._redis_client = None
        try:
            record_claim(mesa, {"kind": "caida", "pair": "A"}, uuid.uuid4(), user=mesa.juez)
        finally:
            broker._redis_client = None
    mesa.refresh_from_db()
    reached, deadline = set(), time.monotonic() + 10
    while reached != set(streams) and time.monotonic() < deadline:
        try:
            url, name, data = heard.get(timeout=1)
        except queue.Empty:
            continue
        if f'"seq":{mesa.last_seq}' in data or (name == "rows" and f'data-seq=\\"{mesa.last_seq}\\"' in data):
            reached.add(url)
    assert reached == set(streams)


def test_open_streams_never_keep_a_page_waiting(production, mesa):
    heard, opened = queue.Queue(), threading.Semaphore(0)
    for n in range(300):
        url = f"{production}/flujo/campeonato/{mesa.championship_id}/?vista=tablero&lang=es-ec&n={n}"
        threading.Thread(target=follow, args=(url, heard, opened), daemon=True).start()
    for _ in range(300):
        assert opened.acquire(timeout=60)
    for path in ("/", f"/en-vivo/{mesa.championship_id}/", f"/campeonatos/{mesa.championship_id}/llaves/"):
        # The quickest of three: a page kept waiting by the streams waits every time, while the suite's own load
        # can slow any one request past a second.
        took = []
        for _ in range(3):
            started = time.monotonic()
            assert requests.get(production + path, timeout=5).status_code == 200
            took.append(time.monotonic() - started)
        assert min(took) < 1, (path, took)


def gunicorn_master(url):
    """The gunicorn master serving ``url``: up from a process holding its listening socket, the last gunicorn."""
    import psutil

    port = int(url.rsplit(":", 1)[1])
    holder = next(c.pid for c in psutil.net_connections(kind="tcp") if c.laddr.port == port and c.status == "LISTEN")
    process = psutil.Process(holder)
    while "gunicorn" in " ".join(process.parent().cmdline()):
        process = process.parent()
    return process


def test_a_restart_never_waits_for_the_open_streams_and_they_come_back(production, mesa):
    """gunicorn's graceful reload (SIGHUP): the old workers end their streams within a few seconds (not gunicorn's
    30 s), and each stream, reconnecting a second after its drop as a browser does, is back on a new worker."""
    host, port = production.removeprefix("http://").split(":")
    openings = queue.Queue()

    def keep_following(n):
        while True:
            try:
                with socket.create_connection((host, int(port)), timeout=30) as s:
                    s.sendall(f"GET /flujo/mesa/{mesa.pk}/?n={n} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
                    got = b""
                    while b"data: " not in got:
                        got += s.recv(4096) or b"EOF"
                        if got.endswith(b"EOF"):
                            raise ConnectionError
                    openings.put((n, time.monotonic()))
                    while s.recv(4096):
                        pass
            except OSError:
                pass
            time.sleep(1)

    streams = range(20)
    for n in streams:
        threading.Thread(target=keep_following, args=(n,), daemon=True).start()
    for _ in streams:
        openings.get(timeout=30)
    master = gunicorn_master(production)
    old_workers = master.children()
    restarted = time.monotonic()
    master.send_signal(signal.SIGHUP)  # gunicorn's graceful reload: new workers, the old ones stopped
    back = {}
    while len(back) < len(streams):
        n, at = openings.get(timeout=20)
        back[n] = at - restarted
    for worker in old_workers:
        worker.wait(timeout=10)
    assert max(back.values()) < 10, back
