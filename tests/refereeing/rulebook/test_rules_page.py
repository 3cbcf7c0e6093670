"""The rules document (docs/REGLAS.md) served at /reglas/: every article the engine cites has its anchor.

A refusal's ``article_url`` points into this page (contract 3); a link must
never dangle, so every citation the engine can make, every setting's source
and every link inside the document lands on an anchor of the page.
"""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from engines.rules import levante, messages, referee, rules
from engines.rules.messages import anchor
from refereeing.rulebook.document import article_url

ENGINE = Path(messages.__file__).parent
CITATION = re.compile(r"(?:00\d )?Art\. \d+|seed 003|ruling [a-z0-9-]+")


def engine_citations():
    """Every article the engine's code can cite: found in its source, so a new one is not missed."""
    found = set()
    for module in ENGINE.glob("*.py"):
        for literal in re.findall(r'"([^"\n]*)"', module.read_text(encoding="utf-8")):
            found.update(CITATION.findall(literal))
    return found


@pytest.fixture
def rules_html(client):
    # Not ``page``: that name is Playwright's browser page, which the suite's
    # conftest closes after each test (tests/conftest.py).
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    return response.content.decode()


def test_the_rules_page_is_the_document_rendered(client, rules_html):
    assert reverse("rules") == "/reglas/"
    assert "<h1>Reglas del Cuarenta en Mesa de Control</h1>" in rules_html
    assert "<table>" in rules_html and "English summary" in rules_html


def test_every_article_the_engine_can_cite_has_an_anchor_in_the_document(rules_html):
    citations = engine_citations()
    # The engine's own tables are among them (a sanity check of the search).
    assert {"Art. 10", "002 Art. 15", "seed 003", "Art. 18"} <= citations
    cited = {article for _code, (_es, _en, article) in messages.CODES.items()}
    cited |= set(messages.KIND_ARTICLES.values())
    cited |= {s.source for s in rules.SETTINGS}
    for article in cited | citations:
        for part in re.split(r"; ", article):
            target = anchor(part)
            assert target is not None, article
            assert f'id="{target}"' in rules_html, (article, target)
    assert referee and levante  # their citations are read from their source above


def test_every_link_inside_the_document_lands_on_an_anchor(rules_html):
    links = set(re.findall(r'href="#([^"]+)"', rules_html))
    assert links
    for target in links:
        assert f'id="{target}"' in rules_html, target


def test_the_document_names_every_profile_and_every_ruling_added_later(rules_html):
    for profile in rules.PROFILES:
        assert f"<code>{profile}</code>" in rules_html
    for ruling in ("conteo", "38", "chica-a-media-data", "anulaciones", "ajuste-director", "reglas-congeladas"):
        assert f'id="ruling-{ruling}"' in rules_html
    # The fourteen of the third version, and the corrected profile line (seed 003).
    third = re.findall(
        r'id="ruling-([a-z0-9-]+)"', rules_html.split('id="tercera-version"')[1].split('id="cuarta-version"')[0]
    )
    assert len(third) == 14, third
    assert "la pareja zapatera queda eliminada del campeonato" in rules_html
    # The eight of the fourth version (issue 32).
    fourth = re.findall(
        r'id="ruling-([a-z0-9-]+)"', rules_html.split('id="cuarta-version"')[1].split('id="perfiles"')[0]
    )
    assert len(fourth) == 8, fourth


def test_an_article_url_is_the_rules_page_and_the_articles_anchor():
    assert article_url("Art. 10") == "/reglas/#art-10"
    assert article_url("Art. 3g.6") == "/reglas/#art-3"
    assert article_url("002 Art. 15B") == "/reglas/#s002-art-15"
    assert article_url("Art. 10, 15") == "/reglas/#art-10"
    assert article_url("seed 003") == "/reglas/#s003"
    assert article_url("ruling anulaciones") == "/reglas/#ruling-anulaciones"
    assert article_url(None) is None and article_url("") is None
