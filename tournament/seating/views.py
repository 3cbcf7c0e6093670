"""Tables, jueces and rounds: the tables page, a mesa's table and juez, the sedes, a round's start, and the
control board. What the board and the tables page mark but refereeing knows they ask through ``marks``."""

from django.contrib import messages
from django.db.models import Count
from django.http import HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from live import paths
from tournament.accounts import accounts
from tournament.errors import Refusal
from tournament.models import Championship, Mesa, Sede
from tournament.naming import person_name
from tournament.policy import RUN, RUN_SITE, allowed, guarded
from tournament.refusals import show
from tournament.screens import address, run

from . import marks, seating, sedes
from .forms import SedeForm, TableForm


@allowed(RUN)
@require_POST
def start_round(request, pk, bracket, round_number):
    championship = guarded(request, Championship, pk)
    count = run(
        request,
        seating.start_round,
        championship,
        bracket,
        round_number,
        by=request.user,
        address=address(request),
    )
    if count is not None:
        messages.success(request, _("%(n)d mesas are ready.") % {"n": count})
    return redirect("tournament:detail", pk)


@allowed(RUN)
def tables(request, pk):
    championship = get_object_or_404(Championship.objects.select_related("sede"), pk=pk)
    if request.method == "POST":
        assigned = seating.assign_tables(championship, by=request.user, address=address(request))
        if assigned:
            messages.success(
                request,
                ngettext("%(n)d mesa assigned: %(list)s.", "%(n)d mesas assigned: %(list)s.", len(assigned))
                % {"n": len(assigned), "list": "; ".join(_assignment_words(a.mesa, a.table, a.juez) for a in assigned)},
            )
        reasons = seating.why_unseated(championship)
        for reason in reasons:
            messages.warning(request, reason)
        if not assigned and not reasons:
            messages.info(request, _("No mesa was assigned: every playable mesa has its table and juez."))
        return redirect("tournament:tables", pk)
    mesas = sorted(
        championship.mesas.filter(status__in=Mesa.UNDECIDED, pair_a__isnull=False, pair_b__isnull=False).select_related(
            "pair_a", "pair_b", "juez"
        ),
        key=seating.play_order,
    )
    held = {m.table_number: m for m in seating.holding_tables(championship).select_related("pair_a", "pair_b")}
    tables = list(championship.sede.tables.select_related("pin_issued_by"))
    for table in tables:
        table.holder = held.get(table.number)
        table.pin_printer = person_name(table.pin_issued_by)
    return render(
        request,
        "tournament/tables.html",
        {
            "championship": championship,
            "mesas": mesas,
            **_pool(championship),
            "tables": tables,
            "blocked_pins": marks.blocked_tables(tables),
        },
    )


def _pool(championship):
    """The jueces' pool as the tables page shows it: each juez where it is today, and how many are in each state."""
    rows = seating.pool(championship)
    states = (seating.FREE, seating.HERE, seating.ELSEWHERE, seating.UNAVAILABLE)
    return {
        "championship": championship,
        "jueces": rows,
        "pool_counts": {state: sum(1 for row in rows if row.state == state) for state in states},
    }


@allowed(RUN)
@require_POST
def juez_available(request, pk, juez_pk):
    """Mark a juez available today or not (``available``: 1 or 0), from a championship's tables page. Sent by the
    page's script (``X-Requested-With: fetch``): the juez's row and the pool's counts again, as JSON; else back to
    the row on the page."""
    championship = guarded(request, Championship, pk)
    juez = get_object_or_404(accounts.jueces(), pk=juez_pk)
    if request.POST.get("available") not in ("0", "1"):
        return HttpResponseBadRequest(_("available must be 0 or 1."))
    accounts.mark_available(juez, request.POST["available"] == "1", by=request.user, address=address(request))
    if request.headers.get("X-Requested-With") != "fetch":
        return redirect(reverse("tournament:tables", args=[pk]) + f"#juez-{juez.pk}")
    pool = _pool(championship)
    [row] = [row for row in pool["jueces"] if row.juez.pk == juez.pk]
    return JsonResponse(
        {
            "row": render_to_string("tournament/pool_row.html", {**pool, "row": row}, request),
            "parts": {"pool-counts": render_to_string("tournament/pool_counts.html", pool, request).strip()},
        }
    )


@allowed(RUN_SITE)
def sede_list(request):
    """The sedes with their tables, and a new one."""
    form = SedeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            sede = sedes.create_sede(data["name"], data["tables"], data["plan"], by=request.user)
        except Refusal as error:
            show(request, error, form)
        else:
            messages.success(request, _("Sede %(sede)s saved with its tables.") % {"sede": sede})
            return redirect("tournament:sedes")
    rows = Sede.objects.annotate(table_count=Count("tables", distinct=True)).order_by("name")
    return render(request, "tournament/sedes.html", {"sedes": rows, "form": form})


def _assignment_words(mesa, table, juez):
    """ "Winners' bracket R1-1: table 3, juez Ana Pérez", as the organiser's message lists it."""
    if juez is None:
        return _("%(mesa)s: table %(table)s, no juez") % {"mesa": mesa, "table": table or "—"}
    return _("%(mesa)s: table %(table)s, juez %(juez)s") % {
        "mesa": mesa,
        "table": table or "—",
        "juez": person_name(juez),
    }


@allowed(RUN)
def mesa_table(request, pk, mesa_pk):
    mesa = get_object_or_404(
        Mesa.objects.select_related("championship", "pair_a", "pair_b"), pk=mesa_pk, championship_id=pk
    )
    form = TableForm(
        request.POST or None,
        initial={"table_number": mesa.table_number, "juez": mesa.juez_id},
        busy=seating.commitments(),
        mesa=mesa,
        free_tables=seating.free_tables(mesa.championship, mesa),
    )
    if request.method == "POST" and form.is_valid():
        try:
            seating.assign_table(
                mesa,
                form.cleaned_data["table_number"],
                form.cleaned_data["juez"],
                by=request.user,
                address=address(request),
            )
        except Refusal as error:
            show(request, error, form)
        else:
            messages.success(request, _assignment_words(mesa, mesa.table_number, mesa.juez) + ".")
            return redirect("tournament:tables", pk)
    return render(
        request, "tournament/mesa_table.html", {"mesa": mesa, "form": form, "championship": mesa.championship}
    )


@allowed(RUN)
def board(request, pk):
    championship = guarded(request, Championship, pk)
    template = "tournament/board_rows.html" if request.GET.get("rows") else "tournament/board.html"
    appealed = marks.appealed_mesas(championship)
    mesas = seating.in_bracket_order(championship)
    return render(
        request,
        template,
        {
            "championship": championship,
            "mesas": mesas,
            "flags": seating.flags(championship, mesas),
            "appealed": appealed,
            "stream": paths.championship_stream(championship.pk, "llaves", get_language()),
        },
    )
