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
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

STYLESHEET = Path(__file__).resolve().parents[2] / "static" / "planilla" / "planilla.css"

_per_thread = threading.local()


class LocalOnlyFetcher(URLFetcher):
    def fetch(self, url, headers=None):
        if not url.startswith("data:"):
            raise ValueError(f"The planilla fetches nothing but data: URLs, not {url[:60]}")
        return super().fetch(url, headers)


def _fonts_and_stylesheet():
    if not hasattr(_per_thread, "stylesheet"):
        _per_thread.fonts = FontConfiguration()
        _per_thread.stylesheet = CSS(string=STYLESHEET.read_text(encoding="utf-8"), font_config=_per_thread.fonts)
    return _per_thread.fonts, _per_thread.stylesheet


def render(html: str) -> bytes:
    fonts, stylesheet = _fonts_and_stylesheet()
    document = HTML(string=html, url_fetcher=LocalOnlyFetcher(), base_url="data:,")
    return document.write_pdf(stylesheets=[stylesheet], font_config=fonts)


def lower_priority():
    """Runs in each batch process: the web server's requests come first."""
    os.nice(10)
