"""Pages of the planilla: one PDF, many as one PDF, and the public check.

Who may print one planilla: whoever may view the mesa (``access.access``:
its juez, inspector, the organisers and the Director); a round or the whole
championship: the organisers and the Director. The verification page is
public: it shows a mesa's record only to whoever holds its current code.
"""

from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from refereeing.planilla import batch as planilla_batch
from refereeing.planilla import sheet as planilla
from refereeing.planilla import store
from tournament.models import Championship, Mesa
from tournament.policy import READ_RECORDS, VIEW_MESA, allowed, guarded
from tournament.seating.seating import BRACKET_ORDER, bracket_order


def _base_url(request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


@require_GET
@allowed(VIEW_MESA, pk=Mesa)
def mesa_pdf(request, pk):
    """One planilla, for whoever may view the mesa: its juez (signed in, or the tablet opened with the table's
    PIN), inspector, the organisers and the Director."""
    mesa = get_object_or_404(planilla.mesas_for_print(), pk=pk)
    response = HttpResponse(
        store.pdf(mesa, _base_url(request), translation.get_language()), content_type="application/pdf"
    )
    name = f"planilla-{mesa.championship_id}-{mesa.bracket}{mesa.round}-{mesa.position}.pdf"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response


def _rounds(championship):
    """Every (bracket, round) with mesas, as choices: ``W-2`` -> label."""
    choices = []
    labels = dict(championship.mesas.model.Bracket.choices)
    seen = set(championship.mesas.values_list("bracket", "round"))
    for bracket, number in sorted(seen, key=lambda place: (BRACKET_ORDER.index(place[0]), place[1])):
        choices.append(
            (
                f"{bracket}-{number}",
                _("%(bracket)s, round %(round)s") % {"bracket": labels.get(bracket, bracket), "round": number},
            )
        )
    return choices


@require_http_methods(["GET", "POST"])
@allowed(READ_RECORDS)
def batch(request, pk):
    """The form to print a round, or the whole championship, as one PDF."""
    championship = guarded(request, Championship, pk)
    rounds = _rounds(championship)
    error = ""
    if request.method == "POST":
        scope = request.POST.get("scope", "all")
        mesas = championship.mesas.filter(pair_a__isnull=False, pair_b__isnull=False)
        if scope != "all":
            bracket, _sep, number = scope.partition("-")
            if scope not in dict(rounds) or not number.isdigit():
                mesas = mesas.none()
            else:
                mesas = mesas.filter(bracket=bracket, round=int(number))
        ids = [m.pk for m in sorted(mesas.only("bracket", "round", "position"), key=bracket_order)]
        if ids:
            title = dict(rounds).get(scope, _("All planillas"))
            job = planilla_batch.start(
                ids,
                championship_id=championship.pk,
                user_id=request.user.pk,
                title=f"{championship} · {title}",
                language=translation.get_language(),
                base_url=_base_url(request),
            )
            return redirect("planilla:job", job=job)
        error = _("There is no mesa with both pairs to print in that choice.")
    return render(
        request,
        "planilla/batch.html",
        {
            "championship": championship,
            "rounds": rounds,
            "error": error,
        },
        status=400 if error else 200,
    )


def _job_for(request, job):
    record = planilla_batch.read(job)
    if record is None:
        raise Http404(_("No such print job."))
    return record


def _job_championship(kwargs):
    """A print job is its championship's record: read by whoever reads its records."""
    record = planilla_batch.read(kwargs["job"])
    return get_object_or_404(Championship, pk=record.get("championship") if record else None)


@require_GET
@allowed(READ_RECORDS, find=_job_championship)
def job(request, job):
    return render(request, "planilla/job.html", {"record": _job_for(request, job)})


@require_GET
@allowed(READ_RECORDS, find=_job_championship)
def job_status(request, job):
    record = _job_for(request, job)
    return JsonResponse(
        {
            "status": record["status"],
            "done": record["done"],
            "total": record["total"],
            "pdf": reverse("planilla:job_pdf", args=[job]) if record["status"] == "done" else None,
        }
    )


@require_GET
@allowed(READ_RECORDS, find=_job_championship)
def job_pdf(request, job):
    record = _job_for(request, job)
    path = planilla_batch.pdf_path(job)
    if record["status"] != "done" or not path.exists():
        raise Http404(_("This PDF is not ready."))
    return FileResponse(
        path.open("rb"), content_type="application/pdf", filename=f"planillas-{job[:8]}.pdf", as_attachment=False
    )
