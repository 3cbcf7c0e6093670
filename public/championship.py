"""The public pages of a championship besides its scoreboard: the list of championships, the bracket
drawn live, and the standings. No sign-in; their URL names are tournament's (``tournament:bracket``,
``tournament:standings``) and ``home``, as the templates reverse them."""

from django.db.models import Count
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from live import paths
from tournament.draws import advancement, bracket_drawing
from tournament.models import Championship
from tournament.policy import READ_PUBLIC, allowed, guarded
from tournament.results import standings
from tournament.seating import seating


@allowed(READ_PUBLIC)
def home(request):
    championships = (
        Championship.objects.select_related("sede")
        .annotate(
            pair_count=Count("pairs", distinct=True),
        )
        .order_by("-start_date", "name")
    )
    return render(
        request,
        "home.html",
        {
            "championships": championships,
        },
    )


@allowed(READ_PUBLIC)
def bracket(request, pk):
    """The bracket drawn by brackets-viewer, live (``bracket_drawing``); ``?data=1``: its data alone, as JSON."""
    championship = guarded(request, Championship, pk)
    mesas = seating.in_bracket_order(championship)
    drawing = bracket_drawing.drawing(
        championship,
        mesas,
        championship.pairs.order_by("name"),
        advancement.void_ids(mesas),
        {"elimination": _("Elimination"), "groups": _("Groups")},
    )
    if request.GET.get("data"):
        return JsonResponse(drawing)
    return render(
        request,
        "tournament/bracket.html",
        {
            "championship": championship,
            "drawing": drawing,
            "words": bracket_drawing.viewer_words(),
            "stream": paths.championship_stream(championship.pk, "llaves", get_language()),
            "champion": championship.champion,
        },
    )


@allowed(READ_PUBLIC)
def standings_view(request, pk):
    championship = guarded(request, Championship, pk)
    mesas = seating.in_bracket_order(championship)
    pairs = list(championship.pairs.order_by("name"))
    return render(
        request,
        "tournament/standings_tables.html" if request.GET.get("part") else "tournament/standings.html",
        {
            "championship": championship,
            "tables": standings.table(championship, pairs, mesas),
            "stream": paths.championship_stream(championship.pk, "llaves", get_language()),
        },
    )
