"""The public pages: a championship's live scoreboard and each pair's page (``content``). No sign-in."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournament.models import Championship, Pair

from . import content


@require_GET
def scoreboard(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    template = "public/scoreboard_rows.html" if request.GET.get("rows") else "public/scoreboard.html"
    return render(request, template, {"championship": championship, "rows": content.scoreboard(championship)})


@require_GET
def projector(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    template = "public/projector_body.html" if request.GET.get("rows") else "public/projector.html"
    return render(
        request,
        template,
        {"championship": championship, "rows": content.scoreboard(championship), "calls": content.calls(championship)},
    )


@require_GET
def pair_page(request, token):
    if not 20 <= len(token) <= 64:
        raise Http404
    pair = get_object_or_404(Pair.objects.select_related("championship"), token=token)
    response = render(request, "public/pair.html", {**content.pair_page(pair), "championship": pair.championship})
    # The address is the pair's key: no other site learns it from a link followed here.
    response["Referrer-Policy"] = "no-referrer"
    return response
