"""The championship report and the cards of the day as PDFs, for the organisers and the championship's Director."""

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_GET

from tournament.models import Championship
from tournament.policy import READ_RECORDS, allowed, guarded

from . import cards as card_layout
from . import content


def _pdf(html, filename):
    from refereeing.planilla import pdf  # WeasyPrint loads only when a PDF is made

    response = HttpResponse(pdf.render(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


@require_GET
@allowed(READ_RECORDS)
def championship_report(request, pk):
    championship = guarded(request, Championship, pk)
    report = content.build(championship, translation.get_language())
    return _pdf(render_to_string("report/championship.html", {"r": report}), f"informe-{championship.pk}.pdf")


@require_GET
@allowed(READ_RECORDS)
def cards(request, pk):
    """Every pair's card and a card for each physical table of the sede its reader may print, in one PDF, six to a sheet."""
    championship = guarded(request, Championship, pk)
    absolute = request.build_absolute_uri
    every = card_layout.pair_cards(championship, absolute) + card_layout.table_cards(
        championship, absolute, request.user
    )
    html = render_to_string(
        "report/cards.html",
        {
            "championship": championship,
            "sheets": card_layout.sheets(every),
            "pin_page": absolute(reverse("access:pin")),
            "language": translation.get_language(),
        },
    )
    return _pdf(html, f"tarjetas-{championship.pk}.pdf")
