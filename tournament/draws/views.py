"""The draw: drawing the bracket, its correction before play, and the knockout after the groups."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.errors import Refusal
from tournament.models import Championship
from tournament.policy import RUN, allowed, guarded
from tournament.ratings import seeding
from tournament.refusals import show
from tournament.screens import address, run

from . import draws
from .forms import DrawCorrectionForm, DrawForm


def _draw_page(request, championship, form):
    """The draw's page: the pairs still expected, each with its check-in in place, and the choice to wait for them
    or to draw without them."""
    drawn = championship.mesas.exists()
    pairs = [] if drawn else list(draws.expected_pairs(championship).prefetch_related("players"))
    return render(
        request,
        "tournament/draw_confirm.html",
        {
            "championship": championship,
            "form": form,
            "expected": pairs,
            "attendance": draws.attendance(championship),
            "drawn": drawn,
            "next_page": "draw",
        },
    )


@allowed(RUN)
def draw(request, pk):
    """GET: the draw's page. POST: the draw; while pairs are expected, only once the organiser chose, on the
    draw's page, to draw without them (``confirm``)."""
    championship = guarded(request, Championship, pk)
    if request.method != "POST":
        return _draw_page(request, championship, DrawForm())
    form = DrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    elif (
        draws.expected_pairs(championship).exists()
        and not request.POST.get("confirm")
        and not championship.mesas.exists()
    ):
        # The organiser sees who is still expected before the draw is made.
        return _draw_page(request, championship, form)
    elif (
        run(
            request,
            draws.draw_bracket,
            championship,
            form.cleaned_data["seed"],
            by=request.user,
            address=address(request),
        )
        is not None
    ):
        championship.refresh_from_db()
        messages.success(request, _("Bracket drawn with seed %(seed)d.") % {"seed": championship.draw_seed})
    return redirect("tournament:detail", pk)


@allowed(RUN)
def draw_correct(request, pk):
    """A late pair, a withdrawal or a swap before play: previewed (GET, or POST without ``confirm``), then done."""
    championship = guarded(request, Championship, pk)
    data = request.POST if request.method == "POST" else request.GET if "action" in request.GET else None
    form = DrawCorrectionForm(data, championship=championship, initial={"action": draws.ADD})
    preview = None
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        place = data["place"] if data["action"] == draws.ADD else None
        asked = (championship, data["action"], data["pair"], data["other"], place)
        try:
            if request.method == "POST" and "confirm" in request.POST:
                draws.correct_draw(*asked, seen=data["seen"], by=request.user, address=address(request))
                messages.success(request, _("Draw corrected."))
                return redirect("tournament:bracket", pk)
            preview = draws.plan_correction(*asked)
        except Refusal as error:
            show(request, error, form)
    late = form.cleaned_data.get("pair") if form.is_bound and form.is_valid() else None
    return render(
        request,
        "tournament/draw_correct.html",
        {
            "championship": championship,
            "form": form,
            "preview": preview,
            "started": draws.play_started(championship),
            "late": late,
            "late_place": seeding.late_place(championship, late) if late else None,
        },
    )


@allowed(RUN)
@require_POST
def draw_knockout(request, pk):
    championship = guarded(request, Championship, pk)
    if run(request, draws.draw_knockout, championship, by=request.user, address=address(request)) is not None:
        messages.success(request, _("Knockout drawn."))
    return redirect("tournament:detail", pk)
