"""No page runs inline script: the Content Security Policy allows scripts only from the site's files.

Every main page is rendered for the people who see it, on the demo
championship, and its HTML is read for a <script> with code, an on...=
attribute or a javascript: link. Data passed to scripts with json_script
(``type="application/json"``) is not script and is allowed.
"""

import time
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from refereeing.models import Appeal
from refereeing.planilla import batch as planilla_batch
from tests.support.factories import group
from tournament.accounts import accounts
from tournament.models import Championship, Mesa

pytestmark = pytest.mark.django_db

DATA_TYPES = {"application/json", "application/ld+json"}


class InlineScripts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = []
        self._inline = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name, value in attrs.items():
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
            if name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"<{tag} {name}=javascript:...>")
        if tag == "script" and "src" not in attrs and (attrs.get("type") or "").lower() not in DATA_TYPES:
            self._inline = ""

    def handle_data(self, data):
        if self._inline is not None:
            self._inline += data

    def handle_endtag(self, tag):
        if tag == "script" and self._inline is not None:
            if self._inline.strip():
                self.found.append("<script>" + self._inline.strip()[:60])
            self._inline = None


def inline_scripts(html):
    parser = InlineScripts()
    parser.feed(html)
    return parser.found


def test_the_checker_finds_each_kind_of_inline_script():
    assert inline_scripts('<script>alert(1)</script><a onclick="x()">a</a><a href="javascript:x()">b</a>') == [
        "<script>alert(1)",
        "<a onclick=...>",
        "<a href=javascript:...>",
    ]
    assert inline_scripts('<script src="/static/a.js"></script><script type="application/json">{}</script>') == []


@pytest.fixture
def demo(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    group(accounts.ORGANISERS_GROUP)
    group(accounts.JUECES_GROUP)
    call_command("demo", "--if-empty")
    return Championship.objects.first()  # this year's edition (last year's is older)


def signed_in(username):
    client = Client(raise_request_exception=True)
    client.force_login(get_user_model().objects.get(username=username))
    return client


@pytest.mark.slow
def test_no_page_has_inline_script(demo):
    c = demo.pk
    in_play = demo.mesas.filter(status=Mesa.Status.IN_PLAY).first()
    finished = demo.mesas.filter(status=Mesa.Status.FINISHED).first()
    appeal = Appeal.objects.first()
    job = {
        "id": "0" * 32,
        "championship": c,
        "user": get_user_model().objects.get(username="organizador").pk,
        "title": "Ronda 1",
        "language": "es-ec",
        "total": 4,
        "done": 1,
        "status": "running",
        "error": "",
        "updated": time.time(),
    }
    planilla_batch._write(job)
    # The cards and PIN pages are the physical table's now (the mesa's old addresses redirect there).
    table = in_play.championship.sede.tables.get(number=in_play.table_number)
    pages = {
        None: [
            "/",
            "/cuenta/entrar/",
            "/ayuda/",
            "/ayuda/organizador/",
            "/ayuda/mesa-de-control/",
            "/ayuda/juez/",
            "/ayuda/director/",
            "/ayuda/publico/",
            f"/campeonatos/{c}/llaves/",
            f"/campeonatos/{c}/posiciones/",
            "/acceso/",
            f"/acceso/mesa-fisica/{table.pk}/",
            "/planilla/verificar/",
            "/admin/login/",
            "/api/docs/",
            "/reglas/",
            "/jugadores/",
            f"/jugadores/{in_play.pair_a.players.first().person_id}/",
        ],
        "organizador": [
            "/",
            f"/campeonatos/{c}/",
            "/campeonatos/nuevo/",
            f"/campeonatos/{c}/editar/",
            f"/campeonatos/{c}/parejas/",
            f"/campeonatos/{c}/parejas/nueva/",
            f"/campeonatos/{c}/parejas/importar/",
            f"/campeonatos/{c}/mesas/",
            f"/campeonatos/{c}/mesas/{in_play.pk}/mesa/",
            f"/campeonatos/{c}/mesas/{finished.pk}/resultado/",
            f"/campeonatos/{c}/control/",
            f"/acceso/mesa-fisica/{table.pk}/tarjeta/",
            "/jueces/",
            f"/planilla/campeonato/{c}/imprimir/",
            f"/planilla/lote/{job['id']}/",
            "/apelaciones/",
            f"/campeonatos/{c}/fuerza/",
            f"/campeonatos/{c}/personas/",
            "/campeonatos/historial/",
        ],
        "comite": ["/comite/personas/?q=a", f"/comite/personas/{in_play.pair_a.players.first().person_id}/"],
        "director": [f"/apelaciones/{appeal.pk}/"],
        in_play.juez.username: ["/mesa/", f"/mesa/{in_play.pk}/", f"/mesa/{in_play.pk}/apelacion/"],
    }
    juez_page = f"/jueces/{get_user_model().objects.get(username='juez1').pk}/clave/"
    pages["organizador"].append(juez_page)
    found = {}
    for username, urls in pages.items():
        client = signed_in(username) if username else Client()
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, (username, url, response.status_code)
            if inline_scripts(response.content.decode()):
                found[url] = inline_scripts(response.content.decode())
    assert found == {}
