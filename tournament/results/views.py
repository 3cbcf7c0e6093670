"""A walkover for an undecided mesa, or a correction of a decided one."""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournament.access import directs_today, is_organiser
from tournament.errors import ActionRefused
from tournament.models import Mesa
from tournament.refusals import show

from . import results
from .forms import CorrectionForm, WalkoverForm


def mesa_result(request, pk, mesa_pk):
    """A walkover for an undecided mesa (the desk's), or a correction of a decided one (the desk's, or the
    Director's, who alone overrides: Art. 18)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    mesa = get_object_or_404(
        Mesa.objects.select_related("championship", "pair_a", "pair_b", "winner"),
        pk=mesa_pk,
        championship_id=pk,
    )
    decided = mesa.status in Mesa.DECIDED
    # A POST is the act its form was for: a walkover sent while another organiser's
    # was being saved is refused as one ("already has a result"), not read as a correction.
    correcting = "chicas_a" in request.POST if request.method == "POST" else decided
    organiser, director = is_organiser(request.user), directs_today(request.user, mesa.championship)
    if not (organiser or director and correcting):
        raise PermissionDenied
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
            return redirect("tournament:board", pk) if organiser else redirect(request.path)
    return render(
        request,
        "tournament/mesa_result.html",
        {
            "mesa": mesa,
            "form": form,
            "decided": decided,
            "blocking": blocking,
            "championship": mesa.championship,
            "director": director,
            "organiser": organiser,
        },
    )
