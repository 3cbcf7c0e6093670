"""Reading a planilla PDF back as text."""

import io
import re

from pypdf import PdfReader


def pages_text(data: bytes) -> list[str]:
    """Each page's text with runs of white space made single spaces."""
    return [re.sub(r"\s+", " ", page.extract_text() or "") for page in PdfReader(io.BytesIO(data)).pages]


def text(data: bytes) -> str:
    return " ".join(pages_text(data))
