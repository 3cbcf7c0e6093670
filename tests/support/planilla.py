"""Reading a planilla PDF back as text."""

import io
import re
import subprocess
from pathlib import Path

from pypdf import PdfReader


def pages_text(data: bytes) -> list[str]:
    """Each page's text with runs of white space made single spaces."""
    return [re.sub(r"\s+", " ", page.extract_text() or "") for page in PdfReader(io.BytesIO(data)).pages]


def text(data: bytes) -> str:
    return " ".join(pages_text(data))


ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


def keep_rendering(data: bytes, name: str):
    """The PDF and its pages as PNG under artifacts/, to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{name}.pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(ARTIFACTS / f"{name}.pdf"), str(ARTIFACTS / name)], check=True)
