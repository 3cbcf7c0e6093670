"""The public pages: a championship's live scoreboard and projector, and each pair's page (``content``). No sign-in.

Each page has a live part that follows the championship's stream
(``streams.app``, ``static/public/live.js``); ``?rows=1`` (``?part=1`` on a
pair's page) gives that part alone, which the page fetches where it has no
stream.
"""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from live import paths
from tournament.models import Championship, Pair

from . import content, fragments


def stream(championship, view, mesas=None):
    """The address of the championship's stream for one view, in the request's language."""
    return paths.championship_stream(
        championship.pk, view, get_language(), None if mesas is None else [mesa.pk for mesa in mesas]
    )


@require_GET
def scoreboard(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    template = "public/scoreboard_rows.html" if request.GET.get("rows") else "public/scoreboard.html"
    return render(
        request,
        template,
        {
            "championship": championship,
            "rows": content.scoreboard(championship),
            "stream": stream(championship, fragments.BOARD),
        },
    )


@require_GET
def projector(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    template = "public/projector_body.html" if request.GET.get("rows") else "public/projector.html"
    return render(
        request,
        template,
        {
            "championship": championship,
            "rows": content.scoreboard(championship),
            "calls": content.calls(championship),
            "stream": stream(championship, fragments.PROJECTOR),
        },
    )


@require_GET
def pair_page(request, token):
    if not 20 <= len(token) <= 64:
        raise Http404
    pair = get_object_or_404(Pair.objects.select_related("championship"), token=token)
    shown = content.pair_page(pair)
    template = "public/pair_live.html" if request.GET.get("part") else "public/pair.html"
    response = render(
        request,
        template,
        {
            **shown,
            "championship": pair.championship,
            "stream": stream(pair.championship, fragments.BOARD, shown["ahead"][: fragments.MAX_FOLLOWED]),
        },
    )
    # The address is the pair's key: no other site learns it from a link followed here.
    response["Referrer-Policy"] = "no-referrer"
    return response
