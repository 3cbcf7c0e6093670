"""The audit trail's page: read-only, for organisers and Directors (``reading``)."""

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournament.access import overseen
from tournament.models import Mesa
from tournament.naming import by_person_name, mesa_label, person_name
from tournament.policy import READ_RECORDS, allowed

from . import reading

PAGE_SIZE = 100


def _number(request, name):
    value = request.GET.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 18 else None


@require_safe
@allowed(READ_RECORDS)
def trail_page(request):
    championship, mesa, person = (_number(request, n) for n in ("campeonato", "mesa", "persona"))
    championships = list(overseen(request.user).order_by("-start_date", "name"))
    found = reading.entries(request.user, championship, mesa, person)
    page = Paginator(found, PAGE_SIZE).get_page(request.GET.get("pagina"))
    mesas = []
    if championship is not None:
        mesas = [
            (m.pk, mesa_label(m))
            for m in reading.readable_mesas(request.user, championship).order_by("round", "bracket", "position")
        ]
    # The people who acted in what this user may read (in the championship chosen).
    acted = reading.entries(request.user, championship).exclude(actor=None).values("actor_id")
    people = [(u.pk, person_name(u)) for u in by_person_name(get_user_model().objects.filter(pk__in=acted))]
    shown = list(page.object_list)
    named_mesas = Mesa.objects.in_bulk({e.mesa_id for e in shown if e.mesa_id is not None})
    user_ids = [e.object_pk for e in shown if e.object_pk.isascii() and e.object_pk.isdigit()]
    named_users = {str(u.pk): u for u in get_user_model().objects.filter(pk__in=user_ids)}
    reader = reading.Reader()
    rows = [
        {
            "entry": e,
            "act": reading.act_label(e),
            "subject": reading.subject(e, named_mesas, named_users),
            "changes": reader.changes(e),
        }
        for e in shown
    ]
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
