"""HTML to PDF for the planilla, with no Django import.

Kept apart so that the processes that render a batch of planillas
(``planilla_batch``) import only WeasyPrint, not the whole site.

Everything a planilla shows is embedded in its HTML (CSS inline, the QR
code as SVG, signatures as data URLs; the fonts come from the system), so
the fetcher fetches ``data:`` URLs and refuses anything else: a venue
without internet prints as fast as one with it, and a stored signature can
never make the server fetch a URL or read a file.
"""

import os

from weasyprint import HTML
from weasyprint.urls import URLFetcher


class LocalOnlyFetcher(URLFetcher):
    def fetch(self, url, headers=None):
        if not url.startswith("data:"):
            raise ValueError(f"The planilla fetches nothing but data: URLs, not {url[:60]}")
        return super().fetch(url, headers)


def render(html: str) -> bytes:
    return HTML(string=html, url_fetcher=LocalOnlyFetcher(), base_url="data:,").write_pdf()


def lower_priority():
    """Runs in each batch process: the web server's requests come first."""
    os.nice(10)
