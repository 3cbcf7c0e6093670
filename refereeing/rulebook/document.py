"""The project's rules document, ``docs/REGLAS.md``, rendered, and the links into it.

Terms
-----
rules document
    ``docs/REGLAS.md`` in the repository: every article the engine
    enforces and every ruling of the project's, for each profile, in
    Spanish with an English summary. It is the one text of the rules: the
    page renders it, nothing copies it.
anchor
    Each article and ruling has a stable anchor in the document, written
    in it as ``<a id="..."></a>``: ``art-<n>`` for the reglamento's
    ``Art. n``, ``s002-art-<n>`` for seed 002's, ``s003`` for seed 003,
    ``ruling-<slug>`` for the project's rulings
    (``engines.rules.messages.anchor`` maps a citation to it).
article url
    ``/reglas/#<anchor>``: what every decision the API sends carries as
    ``article_url``, so the juez's screen links a refusal to its article.

The Markdown is rendered once per process with markdown-it-py (CommonMark,
tables on; raw HTML on for the anchors: the document is the project's own).
The page itself is ``public.rules``.
"""

from functools import cache, lru_cache
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from markdown_it import MarkdownIt

from engines.rules.messages import anchor

DOCUMENT = Path(settings.BASE_DIR) / "docs" / "REGLAS.md"


@lru_cache(maxsize=1)
def document_html() -> str:
    """The rules document as HTML."""
    parser = MarkdownIt("commonmark", {"html": True}).enable("table")
    return parser.render(DOCUMENT.read_text(encoding="utf-8"))


@cache
def _url(article: str):
    found = anchor(article)
    return None if found is None else f"{reverse('rules')}#{found}"


def article_url(article):
    """The address of ``article`` (``"Art. 10"``, ``"002 Art. 9"``...) in the rules page, or None."""
    return _url(article) if article else None
