"""The championship report as a PDF, for the organisers and the championship's Director."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils import translation
from django.views.decorators.http import require_GET

from refereeing.planilla.sheet import may_print_championship
from tournament.models import Championship

from . import content


@require_GET
@login_required
def championship_report(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    if not may_print_championship(request.user, championship):
        raise PermissionDenied
    from refereeing.planilla import pdf  # WeasyPrint loads only when a PDF is made

    report = content.build(championship, translation.get_language())
    response = HttpResponse(
        pdf.render(render_to_string("report/championship.html", {"r": report})), content_type="application/pdf"
    )
    response["Content-Disposition"] = f'inline; filename="informe-{championship.pk}.pdf"'
    response["Cache-Control"] = "no-store"
    return response
