"""The organisers' pages of a championship: its settings and its overview, with the rounds to start."""

from django.contrib import messages
from django.db.models import Count, Q
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournament.draws import draws
from tournament.draws.forms import DrawForm
from tournament.models import Championship, Mesa
from tournament.policy import RUN, allowed, guarded
from tournament.screens import address
from tournament.seating import seating

from .championships import save_championship
from .forms import ChampionshipForm


@allowed(RUN)
def championship_edit(request, pk=None):
    championship = guarded(request, Championship, pk) if pk else None
    form = ChampionshipForm(request.POST or None, instance=championship)
    if request.method == "POST" and form.is_valid():
        championship = save_championship(championship, **form.values(), by=request.user, address=address(request))
        messages.success(request, _("Championship saved."))
        return redirect("tournament:detail", championship.pk)
    return render(request, "tournament/championship_form.html", {"form": form, "championship": championship})


def _rounds(championship):
    """Each (bracket, round) with how many mesas wait with both pairs known, to be started by the desk where the
    championship's start mode needs the desk (else the juez starts each mesa, and the desk is offered nothing)."""
    rows = (
        championship.mesas.values("bracket", "round")
        .annotate(
            total=Count("id"),
            startable=Count("id", filter=Q(status=Mesa.Status.WAITING, pair_a__isnull=False, pair_b__isnull=False)),
            decided=Count("id", filter=Q(status__in=Mesa.DECIDED)),
        )
        .order_by()
    )
    labels = dict(Mesa.Bracket.choices)
    ordered = sorted(rows, key=lambda row: (seating.BRACKET_ORDER.index(row["bracket"]), row["round"]))
    by_desk = championship.start_mode == Championship.Start.DESK
    return [{**row, "label": labels[row["bracket"]], "startable": by_desk and row["startable"]} for row in ordered]


@allowed(RUN)
def championship_detail(request, pk):
    championship = guarded(request, Championship, pk)
    return render(
        request,
        "tournament/championship_detail.html",
        {
            "championship": championship,
            "ruleset": championship.ruleset.describe(get_language() or "es"),
            "rules_frozen_by": championship.started_mesa(),
            "pair_count": championship.pairs.count(),
            "attendance": draws.attendance(championship),
            "rounds": _rounds(championship),
            "draw_form": DrawForm(),
            "drawn": championship.mesas.exists(),
            "correctable": championship.mesas.exists() and not draws.play_started(championship),
            "knockout_pending": championship.bracket_format == Championship.Format.ROUND_ROBIN
            and not championship.mesas.exclude(bracket=Mesa.Bracket.GROUP).exists(),
        },
    )
