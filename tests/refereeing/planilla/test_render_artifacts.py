"""Renders the sample planillas to artifacts/ to look at (one and two pages)."""

import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from refereeing.planilla import printed
from refereeing.planilla import sheet as planilla
from tests.support import planilla_factories as factories

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts"
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.mark.parametrize(
    "name,make,language,pages",
    [
        ("planilla-zapateria-es", factories.zapateria_mesa, "es-ec", 1),
        ("planilla-short-en", factories.short_mesa, "en", 2),
        ("planilla-long-es", factories.long_mesa, "es-ec", 2),
        ("planilla-long-en", factories.long_mesa, "en", 2),
    ],
)
def test_sample_planillas_render_to_the_expected_pages(name, make, language, pages):
    mesa, _log = make()
    data = printed.pdf(planilla.build(mesa, "https://mesa.example", language))
    assert len(PdfReader(__import__("io").BytesIO(data)).pages) == pages
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{name}.pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(ARTIFACTS / f"{name}.pdf"), str(ARTIFACTS / name)], check=True)
