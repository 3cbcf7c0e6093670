"""The planilla as a printed page: its HTML, and its PDF through ``pdf`` (WeasyPrint)."""

from django.template.loader import render_to_string
from django.utils import translation


def html(planilla) -> str:
    with translation.override(planilla.language):
        return render_to_string("planilla/planilla.html", {"p": planilla})


def pdf(planilla) -> bytes:
    # WeasyPrint takes seconds to import: only what makes a PDF pays for it,
    # not every process that loads the site's URLs.
    from refereeing.planilla import pdf as planilla_pdf

    return planilla_pdf.render(html(planilla))
