"""Whose X-Forwarded-For is believed: nobody's, unless FORWARDED_ALLOW_IPS names the proxy (issue 22).

gunicorn believed the header from 127.0.0.1 by default, so anything on the
server itself (or a proxy there that passes the client's header on) chose
the address the sign-in and PIN limits count per address: ten wrong
passwords from ten made-up addresses locked none of them.
"""

import re
import runpy
import shlex
import subprocess
from pathlib import Path

import pytest
import requests
import uvicorn.main
from django.contrib.auth import get_user_model
from uvicorn.middleware.proxy_headers import _TrustedHosts

from tests.support.production import production_server, set_production_password

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "sota-caballo-rey"
LIMIT = 10  # settings.AXES_FAILURE_LIMIT


def gunicorn_settings():
    return runpy.run_path(str(ROOT / "config" / "gunicorn.py"))


def test_gunicorn_believes_no_forwarded_header_unless_told(monkeypatch):
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    assert gunicorn_settings()["forwarded_allow_ips"] == ""
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.0.0.2")
    assert gunicorn_settings()["forwarded_allow_ips"] == "10.0.0.2"


def uvicorn_options_of_make_run(**variables):
    """The options ``make run`` gives uvicorn, as uvicorn's command line reads them."""
    printed = subprocess.run(
        ["make", "-n", "run", *(f"{name}={value}" for name, value in variables.items())],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.replace("\\\n", " ")
    line = next(line for line in printed.splitlines() if "/uvicorn " in line)
    return uvicorn.main.make_context("uvicorn", shlex.split(line)[1:]).params


def test_make_run_believes_no_forwarded_header_unless_told(monkeypatch):
    """uvicorn's own default believes 127.0.0.1 too: the demo's command line overrides it."""
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    trusted = _TrustedHosts(uvicorn_options_of_make_run()["forwarded_allow_ips"])
    assert "127.0.0.1" not in trusted and "::1" not in trusted
    trusted = _TrustedHosts(uvicorn_options_of_make_run(FORWARDED_ALLOW_IPS="10.0.0.2")["forwarded_allow_ips"])
    assert "10.0.0.2" in trusted and "127.0.0.1" not in trusted


def sign_in(url, username, password, forwarded_for):
    session = requests.Session()
    page = session.get(url + "/cuenta/entrar/", timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    return session.post(
        url + "/cuenta/entrar/",
        {"username": username, "password": password, "csrfmiddlewaretoken": token},
        headers={"Referer": url + "/cuenta/entrar/", "X-Forwarded-For": forwarded_for},
        allow_redirects=False,
        timeout=60,
    )


@pytest.mark.django_db(transaction=True)
def test_a_forged_forwarded_address_does_not_escape_the_sign_in_limit_per_address(monkeypatch, production_static):
    """Issue 22 repro: from 127.0.0.1, each guess under a new X-Forwarded-For counted for another address."""
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    luis = get_user_model().objects.create_user("luis")
    set_production_password(luis, PASSWORD)
    with production_server(production_static) as url:
        answers = [sign_in(url, f"guess{n}", "wrong", f"203.0.113.{n}").status_code for n in range(LIMIT)]
        refused = sign_in(url, "luis", PASSWORD, "203.0.113.200")
    # The tenth wrong password locks the address: the server's own, 127.0.0.1.
    assert answers == [200] * (LIMIT - 1) + [429]
    assert refused.status_code == 429, refused.text[:300]
