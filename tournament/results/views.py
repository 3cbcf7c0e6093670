"""A walkover for an undecided mesa, or a correction of a decided one."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournament.errors import ActionRefused
from tournament.models import Mesa
from tournament.policy import CORRECT_RESULT, RUN, WALKOVER, allowed, may
from tournament.refusals import show

from . import results
from .forms import CorrectionForm, WalkoverForm


def _correcting(request, mesa):
    """A POST is the act its form was for: a walkover sent while another organiser's was being saved is refused as
    one ("already has a result"), not read as a correction."""
    return "chicas_a" in request.POST if request.method == "POST" else mesa.status in Mesa.DECIDED


@allowed(CORRECT_RESULT, act_of=lambda request, mesa: CORRECT_RESULT if _correcting(request, mesa) else WALKOVER)
def mesa_result(request, pk, mesa_pk):
    """A walkover for an undecided mesa (the desk's), or a correction of a decided one (the desk's, or the
    Director's, who alone overrides: Art. 18)."""
    mesa = get_object_or_404(
        Mesa.objects.select_related("championship", "pair_a", "pair_b", "winner"),
        pk=mesa_pk,
        championship_id=pk,
    )
    decided = mesa.status in Mesa.DECIDED
    correcting = _correcting(request, mesa)
    form_class = CorrectionForm if correcting else WalkoverForm
    initial = (
        {
            "winner": "A" if mesa.winner_id == mesa.pair_a_id else "B",
            "chicas_a": mesa.chicas_a,
            "chicas_b": mesa.chicas_b,
            "zapateria": mesa.zapateria,
        }
        if decided
        else {}
    )
    form = form_class(request.POST or None, initial=initial, mesa=mesa)
    blocking = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if correcting:
                results.correct_result(
                    mesa,
                    data["winner"],
                    data["chicas_a"],
                    data["chicas_b"],
                    data["zapateria"],
                    by=request.user,
                    override=data["override"],
                    reason=data["reason"],
                )
            else:
                results.record_walkover(mesa, data["winner"], by=request.user, reason=data["reason"])
        except ActionRefused as error:  # names the mesas in the way
            show(request, error, form)
            blocking = error.blocking
        else:
            messages.success(request, _("Result saved."))
            return redirect("tournament:board", pk) if may(request, RUN, mesa) else redirect(request.path)
    return render(
        request,
        "tournament/mesa_result.html",
        {
            "mesa": mesa,
            "form": form,
            "decided": decided,
            "blocking": blocking,
            "championship": mesa.championship,
        },
    )
