"""The resolutions' page of a championship: the Director writes, organisers and the Director read."""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournament.errors import Refusal
from tournament.models import Championship
from tournament.policy import READ_RECORDS, RESOLVE, allowed, guarded
from tournament.refusals import show

from . import register
from .forms import ImportForm, ResolutionForm


@allowed(READ_RECORDS, POST=RESOLVE)
def resolution_list(request, pk):
    championship = guarded(request, Championship, pk)
    form = ResolutionForm(championship, request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                resolution = register.resolve(
                    championship,
                    data["situation"],
                    data["ruling"],
                    data["articles"],
                    data["mesas"],
                    data["ajuste"],
                    by=request.user,
                )
            except Refusal as error:
                show(request, error, form)
            else:
                messages.success(request, _("%(resolution)s recorded.") % {"resolution": resolution})
                return redirect("resolutions:list", championship.pk)
    query = request.GET.get("q", "")[:200]
    return render(
        request,
        "resolutions/list.html",
        {
            "championship": championship,
            "form": form,
            "import_form": ImportForm(),
            "resolutions": register.search(championship, query),
            "query": query,
        },
    )


@allowed(READ_RECORDS)
def resolution_export(request, pk):
    championship = guarded(request, Championship, pk)
    response = HttpResponse(register.export(championship), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="resoluciones-{championship.pk}.json"'
    return response


@require_POST
@allowed(RESOLVE)
def resolution_import(request, pk):
    championship = guarded(request, Championship, pk)
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    else:
        try:
            imported = register.import_precedents(championship, form.cleaned_data["file"].read(), by=request.user)
        except Refusal as error:
            show(request, error)
        else:
            message = _("%(n)d precedents imported.") % {"n": imported.new}
            if imported.known:
                message += " " + ngettext(
                    "%(n)d was already in the register.", "%(n)d were already in the register.", imported.known
                ) % {"n": imported.known}
            messages.success(request, message)
    return redirect("resolutions:list", championship.pk)
