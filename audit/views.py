"""The audit trail's page: read-only, for organisers and Directors (``audit.trail``)."""

from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournament.naming import mesa_label, person_name

from . import trail

PAGE_SIZE = 100


def _number(request, name):
    value = request.GET.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 18 else None


@require_safe
def trail_page(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not trail.may_read(request.user):
        raise PermissionDenied
    championship, mesa, person = (_number(request, n) for n in ("campeonato", "mesa", "persona"))
    championships = list(trail.readable_championships(request.user).order_by("-start_date", "name"))
    found = trail.entries(request.user, championship, mesa, person)
    page = Paginator(found, PAGE_SIZE).get_page(request.GET.get("pagina"))
    mesas = []
    if championship is not None:
        mesas = [
            (m.pk, mesa_label(m))
            for m in trail.readable_mesas(request.user, championship).order_by("round", "bracket", "position")
        ]
    # The people who acted in what this user may read (in the championship chosen).
    acted = trail.entries(request.user, championship).exclude(actor=None).values("actor_id")
    people = [
        (u.pk, person_name(u)) for u in get_user_model().objects.filter(pk__in=acted).order_by("first_name", "username")
    ]
    rows = [{"entry": e, "act": trail.act_label(e), "changes": trail.changes(e)} for e in page.object_list]
    return render(
        request,
        "audit/trail.html",
        {
            "page": page,
            "rows": rows,
            "championships": championships,
            "mesas": mesas,
            "people": people,
            "selected": {"championship": championship, "mesa": mesa, "person": person},
            "championship": next((c for c in championships if c.pk == championship), None),
        },
    )
