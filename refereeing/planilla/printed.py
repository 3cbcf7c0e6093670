"""The planilla as a printed page: its HTML, and its PDF through ``pdf`` (WeasyPrint)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.template.loader import render_to_string
from django.utils import translation

if TYPE_CHECKING:
    from refereeing.planilla.sheet import Planilla


def html(planilla: Planilla) -> str:
    with translation.override(planilla.language):
        return render_to_string("planilla/planilla.html", {"p": planilla})


def pdf(planilla: Planilla) -> bytes:
    # WeasyPrint takes seconds to import: only what makes a PDF pays for it,
    # not every process that loads the site's URLs.
    from refereeing.planilla import pdf as planilla_pdf

    return planilla_pdf.render(html(planilla))
