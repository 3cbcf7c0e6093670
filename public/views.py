"""The public pages: a championship's live scoreboard and projector, and each pair's page (``content``). No sign-in.

Each page has a live part that follows the championship's stream
(``live.streams.app``, ``static/public/live.js``); ``?rows=1`` (``?part=1`` on a
pair's page) gives that part alone, which the page fetches where it has no
stream.
"""

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from live import paths
from mirror import links
from tournament.models import Championship, Pair
from tournament.pairs import checkin
from tournament.policy import READ_PAIR, READ_PUBLIC, allowed, guarded

from . import content, fragments


def stream(championship, view, mesas=None):
    """The address of the championship's stream for one view, in the request's language."""
    return paths.championship_stream(
        championship.pk, view, get_language(), None if mesas is None else [mesa.pk for mesa in mesas]
    )


@require_safe
@allowed(READ_PUBLIC)
def scoreboard(request, pk):
    championship = guarded(request, Championship, pk)
    template = "public/scoreboard_rows.html" if request.GET.get("rows") else "public/scoreboard.html"
    rows, pending = content.board(championship)
    return render(
        request,
        template,
        {
            "championship": championship,
            "rows": rows,
            "pending": pending,
            "stream": stream(championship, fragments.BOARD),
        },
    )


@require_safe
@allowed(READ_PUBLIC)
def projector(request, pk):
    championship = guarded(request, Championship, pk)
    template = "public/projector_body.html" if request.GET.get("rows") else "public/projector.html"
    return render(
        request,
        template,
        {
            "championship": championship,
            "rows": content.board(championship)[0],
            "calls": content.calls(championship),
            "stream": stream(championship, fragments.PROJECTOR),
        },
    )


def _pair(token):
    if not 20 <= len(token) <= 64:
        raise Http404
    return get_object_or_404(Pair.objects.select_related("championship"), token=token)


# No CSRF token: the page sends no referrer, so the browser's Origin is "null" and Django's check
# refuses every post; and the address is the pair's secret, so a forged post needs what it would steal.
@csrf_exempt
@require_POST
@allowed(READ_PAIR)
def pair_here(request, token):
    """The pair checks itself in from its page, while the organiser keeps that open (``checkin``)."""
    pair = _pair(token)
    by = request.user if request.user.is_authenticated else None
    checkin.check_in_itself(pair, by=by, address=request.META.get("REMOTE_ADDR") or None)
    response = redirect("public:pair", token)
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_safe
@allowed(READ_PAIR)
def pair_page(request, token):
    return _pair_page(request, _pair(token))


def _signed_pair(kwargs):
    pair = links.pair_named(kwargs["signed"], Pair.objects.select_related("championship"))
    if pair is None:
        raise Http404
    return pair


@require_safe
@allowed(READ_PAIR, find=_signed_pair)
def pair_signed(request, signed):
    """The pair's page reached by the venue's signed link (the mirror, where no token is)."""
    return _pair_page(request, _signed_pair({"signed": signed}))


def _pair_page(request, pair):
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
