"""No stored text is rendered as markup (issue 33): markup typed into every stored text (the sede's name and hall
plan, the championship's name and edition, pairs' names and clubs, players', jueces' and the Director's names, the
appeals' reasons, signers and rulings, a resolution's texts) is read back, on every page of the site and in every
PDF that shows it, as the text it is. The CSP stops scripts, not markup: a ``<form>`` or a ``<style>`` would be
live.

Every route of the URL map is asked for (``tests.support.routes``), with its parameters filled from the
championship, by each of those who may read it; an HTML answer is parsed and must hold no element the markup made,
and the HTML a PDF is made from too; each PDF must print the markup as text.
"""

import itertools
from html.parser import HTMLParser

import pytest
from django.test import Client

from refereeing.planilla import pdf
from tests.support import world
from tests.support.claims import api_client
from tests.support.planilla import text as pdf_text
from tests.support.routes import address, every_route

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

MARK = "inj"
counter = itertools.count(1)


def marked(words):
    """``words`` and markup that would be live if rendered as such: an element of each kind, its id numbered."""
    n = next(counter)
    return f'{words} <b id="{MARK}{n}">b</b><form id="{MARK}{n}f"></form><style id="{MARK}{n}s"></style>'


class Elements(HTMLParser):
    """The ids of the elements of a page."""

    def __init__(self, html):
        super().__init__()
        self.ids = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.ids += [f"<{tag} id={value}>" for name, value in attrs if name == "id" and value.startswith(MARK)]


def injected(html):
    return Elements(html).ids


@pytest.fixture
def pdf_sources(monkeypatch):
    """The HTML of every PDF made meanwhile."""
    made = []
    render = pdf.render

    def spy(html):
        made.append(html)
        return render(html)

    monkeypatch.setattr(pdf, "render", spy)
    return made


# What the routes take that is not a page of stored text: the admin (Django's own, escaped by its templates), the
# streams and the files the site serves as they are.
SKIPPED = ("/admin/", "/static/", "/api/schema/", "/api/docs/", "/ca.crt", "/mesa/sw.js", "/i18n/")


def test_markup_in_every_stored_text_is_text_on_every_page_and_pdf(pdf_sources):
    w = world.build(text=marked)
    # Every text holds its markup: a field the world did not mark would pass unseen.
    assert MARK in w.championship.sede.name and MARK in w.championship.sede.plan and MARK in w.pair.club
    values = w.route_values("0" * 32)
    readers = {
        "organiser": api_client(w.organiser),
        "director": api_client(w.director),
        "juez": api_client(w.juez),
        "public": Client(),
    }
    routes = [r for r in sorted(set(every_route())) if not r.startswith(SKIPPED)]
    read, pdfs, leaks = 0, 0, []
    for route in routes:
        for variant in ("", f"?part=1&rows=1&campeonato={w.championship.pk}"):
            url = address(route, values) + variant
            for who, client in readers.items():
                response = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
                kind = response.get("Content-Type", "")
                if response.status_code != 200:
                    continue
                if kind.startswith("text/html"):
                    read += 1
                    leaks += [(who, url, found) for found in injected(response.content.decode())]
                elif kind == "application/pdf" and not variant:
                    pdfs += 1
                    # Printed as the text it is: the markup's own characters, never an element.
                    assert f'<b id="{MARK}' in pdf_text(response.content), (who, url)
    assert not leaks, leaks
    for html in pdf_sources:
        assert not injected(html)
    # The pages of every audience were read, and the three PDFs (planilla, report, cards) by both who print them.
    assert read > 100 and pdfs >= 6 and len(pdf_sources) >= pdfs
