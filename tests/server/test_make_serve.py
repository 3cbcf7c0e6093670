"""``make serve``, the README's production start, speaks Spanish from a fresh checkout (issue 22).

The ``*.mo`` files are not in git, and the production steps never compiled
them: a server set up by them spoke English to Spanish users. The test
starts ``make serve`` in a copy of the checkout without them, as a server
is set up from git, on the test database.
"""

import shutil
import subprocess

import pytest
import requests

from tests.support.production import ROOT, production_server

pytestmark = [pytest.mark.production_server, pytest.mark.django_db(transaction=True)]


def fresh_checkout(target):
    """The files git holds, as a clone has them, with this checkout's virtualenv."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    (target / ".venv").symlink_to((ROOT / ".venv").resolve())
    return target


def test_make_serve_compiles_the_translations_and_serves_spanish(tmp_path):
    checkout = fresh_checkout(tmp_path / "mesa")
    assert not list(checkout.glob("locale/*/LC_MESSAGES/*.mo"))
    # The system packages and the virtualenv are this machine's already: make
    # is told not to remake them (it would reinstall a shared virtualenv).
    command = ["make", "--no-print-directory", "-o", "system", "-o", ".venv/.installed", "serve"]
    with production_server(tmp_path / "static", workers=1, command=command, cwd=checkout) as url:
        page = requests.get(url + "/cuenta/entrar/", headers={"Accept-Language": "es"}, timeout=30).text
        english = requests.get(url + "/cuenta/entrar/", headers={"Accept-Language": "en"}, timeout=30).text
    # "Entrar" is the project's own word ("Iniciar sesión" is Django's).
    assert ">Entrar</h1>" in page and ">Reglas</a>" in page
    assert ">Log in</h1>" in english
    assert (checkout / "locale/es/LC_MESSAGES/django.mo").is_file()
    assert (tmp_path / "static" / "staticfiles.json").is_file()


def test_make_serve_with_tls_dir_makes_the_venues_certificate_and_serves_https(tmp_path):
    checkout = fresh_checkout(tmp_path / "mesa")
    tls = tmp_path / "tls"
    command = ["make", "--no-print-directory", "-o", "system", "-o", ".venv/.installed", "serve"]
    with production_server(
        tmp_path / "static", workers=1, command=command, cwd=checkout, tls_ca=str(tls / "ca.pem"), TLS_DIR=str(tls)
    ) as url:
        # The venue's authority, made by make serve, is what the answer was checked against (production_server).
        assert url.startswith("https://")
        answer = requests.get(url + "/ca.crt", verify=str(tls / "ca.pem"), timeout=30)
    assert answer.status_code == 200 and answer.content == (tls / "ca.pem").read_bytes()
    assert "Strict-Transport-Security" in answer.headers
    assert {"ca.pem", "ca.key", "server.pem", "server.key"} <= {path.name for path in tls.iterdir()}
