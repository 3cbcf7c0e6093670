"""Connections on the production server: none is kept open for good, and a full worker answers 503, never resets.

The server runs as the README starts it (gunicorn, ``config/gunicorn.py``,
``DEBUG=false``; ``config.serving``). A connection that sends nothing, part
of its headers or part of its body is closed once ``REQUEST_SECONDS`` have
passed. A worker raises its soft limit of open files to its hard limit; at
a hard limit of 256 (the common 1,024 scaled down), 300 streams opened one
after another each get a stream or a 503, and a page still answers.
"""

import resource
import socket
import time

import psutil
import pytest
import requests

from tests.support.production import production_server

pytestmark = pytest.mark.django_db(transaction=True)


def worker_pids(url):
    """The gunicorn workers serving ``url`` (children of the master started with its BIND)."""
    bind = url.removeprefix("http://")
    for process in psutil.process_iter():
        try:
            if "gunicorn" in " ".join(process.cmdline()) and process.environ().get("BIND") == bind:
                if process.parent() and "gunicorn" not in " ".join(process.parent().cmdline()):
                    return [child.pid for child in process.children()]
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    raise AssertionError(f"no gunicorn serving {url}")


def connect(url):
    host, port = url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def closed_by_server(s, seconds):
    """True when the server closes ``s`` within ``seconds`` (reading gives end of file or a reset)."""
    s.settimeout(seconds)
    try:
        while s.recv(4096):
            pass
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_idle_and_half_sent_connections_are_closed_after_the_request_timeout(production_static):
    with production_server(production_static, workers=1, REQUEST_SECONDS="2") as url:
        idle = connect(url)
        half_headers = connect(url)
        half_headers.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: tab")
        half_body = connect(url)
        half_body.sendall(
            b"POST /api/levante/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 4000\r\n\r\n{"table": ['
        )
        kept = [idle, half_headers, half_body]
        try:
            started = time.monotonic()
            assert [closed_by_server(s, 6) for s in kept] == [True, True, True]
            assert time.monotonic() - started < 4
            # A whole request is served as before, however long its answer takes to read.
            assert requests.get(url + "/cuenta/entrar/", timeout=10).status_code == 200
        finally:
            for s in kept:
                s.close()


def test_a_worker_raises_its_soft_limit_of_open_files_to_the_hard_one(production_static):
    def low_soft_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 4096))

    with production_server(production_static, workers=1, preexec_fn=low_soft_limit) as url:
        (pid,) = worker_pids(url)
        assert psutil.Process(pid).rlimit(psutil.RLIMIT_NOFILE) == (4096, 4096)


def test_at_a_limit_of_256_open_files_300_streams_get_a_stream_or_a_503_and_pages_still_answer(production_static, mesa):
    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    with production_server(production_static, workers=1, preexec_fn=limit) as url:
        streams, statuses = [], []
        try:
            for _ in range(300):
                s = connect(url)
                s.sendall(f"GET /flujo/mesa/{mesa.pk}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                status = int(s.recv(4096).split(b" ", 2)[1])
                statuses.append(status)
                if status == 200:
                    streams.append(s)
                else:
                    s.close()
            page = requests.get(url + "/cuenta/entrar/", timeout=10)
        finally:
            for s in streams:
                s.close()
    # 256 files, less the 64 a worker keeps and the 100 connections left to pages (config.serving).
    assert statuses == [200] * 92 + [503] * 208
    assert page.status_code == 200
