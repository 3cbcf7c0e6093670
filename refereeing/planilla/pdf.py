"""HTML to PDF for the planilla, with no Django import.

Kept apart so that the processes that render a batch of planillas
(``batch``) import only WeasyPrint, not the whole site.

Everything a planilla shows is embedded in its HTML (the QR code as SVG,
signatures as data URLs; the fonts come from the system) or is this
module's stylesheet, so the fetcher fetches ``data:`` URLs and refuses
anything else: a venue without internet prints as fast as one with it, and
a stored signature can never make the server fetch a URL or read a file.

Each thread parses the stylesheet once and keeps one ``FontConfiguration``
for every planilla it renders: with a fresh one per document WeasyPrint
reloads the fonts and re-parses the CSS each time, about a fifth of a
one-page planilla's time. Per thread, because Pango's font map is not
thread-safe.
"""

import os
import threading
from pathlib import Path

from weasyprint import CSS, HTML
from weasyprint.document import Document
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

STYLESHEET = Path(__file__).resolve().parents[2] / "static" / "planilla" / "planilla.css"
TIGHT = STYLESHEET.with_name("planilla-tight.css")

_per_thread = threading.local()


class LocalOnlyFetcher(URLFetcher):
    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
        if not url.startswith("data:"):
            raise ValueError(f"The planilla fetches nothing but data: URLs, not {url[:60]}")
        response: URLFetcherResponse = URLFetcher.fetch(self, url, headers)
        return response


def _fonts_and_stylesheets() -> tuple[FontConfiguration, CSS, CSS]:
    if not hasattr(_per_thread, "stylesheet"):
        _per_thread.fonts = FontConfiguration()
        _per_thread.stylesheet = CSS(string=STYLESHEET.read_text(encoding="utf-8"), font_config=_per_thread.fonts)
        _per_thread.tight = CSS(string=TIGHT.read_text(encoding="utf-8"), font_config=_per_thread.fonts)
    return _per_thread.fonts, _per_thread.stylesheet, _per_thread.tight


def _annex_alone(document: Document) -> bool:
    """Whether the last page holds the planilla's annex (the refused and
    voided claims) and nothing of the sheet before it."""
    last = document.pages[-1].anchors
    return len(document.pages) > 1 and "annex" in last and "closing" not in last


def render(html: str) -> bytes:
    """The PDF of ``html``; a planilla whose annex alone spills onto a last
    page is laid out again a little tighter, and kept so if that saves the page."""
    fonts, stylesheet, tight = _fonts_and_stylesheets()
    source = HTML(string=html, url_fetcher=LocalOnlyFetcher(), base_url="data:,")
    document = source.render(stylesheets=[stylesheet], font_config=fonts)
    if _annex_alone(document):
        tighter = source.render(stylesheets=[stylesheet, tight], font_config=fonts)
        if len(tighter.pages) < len(document.pages):
            document = tighter
    pdf: bytes = document.write_pdf()
    return pdf


def lower_priority() -> None:
    """Runs in each batch process: the web server's requests come first."""
    os.nice(10)
