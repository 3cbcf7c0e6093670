"""The organiser's screens and the public bracket; thin views over
the domain modules (``draws``, ``tables``, ``results``,
``accounts``), ``pairs_csv`` and ``standings``."""

import segno
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from audit.context import because, record
from live import paths
from refereeing.models import Appeal, PinFailure

from . import accounts, advancement, bracket_drawing, draws, lockouts, pairs_csv, results, seating, standings
from .access import directs_a_championship, is_director, is_organiser, organiser_required
from .checkin import check_in
from .errors import ActionRefused
from .forms import (
    ChampionshipForm,
    CorrectionForm,
    DrawForm,
    ImportForm,
    JuezForm,
    JuezPasswordForm,
    PairForm,
    TableForm,
    WalkoverForm,
)
from .models import Championship, Mesa, Pair, new_pair_token
from .naming import person_name


def home(request):
    championships = Championship.objects.annotate(
        pair_count=Count("pairs", distinct=True),
    ).order_by("-start_date", "name")
    return render(
        request,
        "home.html",
        {
            "championships": championships,
            "organiser": is_organiser(request.user),
            "directs": directs_a_championship(request.user),
        },
    )


@organiser_required
def championship_edit(request, pk=None):
    championship = get_object_or_404(Championship, pk=pk) if pk else None
    form = ChampionshipForm(request.POST or None, instance=championship)
    if request.method == "POST" and form.is_valid():
        championship = form.save()
        messages.success(request, _("Championship saved."))
        return redirect("tournament:detail", championship.pk)
    return render(request, "tournament/championship_form.html", {"form": form, "championship": championship})


def _rounds(championship):
    """Each (bracket, round) with how many mesas wait with both pairs known."""
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
    return [{**row, "label": labels[row["bracket"]]} for row in ordered]


@organiser_required
def championship_detail(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    return render(
        request,
        "tournament/championship_detail.html",
        {
            "championship": championship,
            "ruleset": championship.ruleset.describe(get_language() or "es"),
            "rules_frozen_by": championship.started_mesa(),
            "pair_count": championship.pairs.count(),
            "checked_in": championship.pairs.filter(checked_in=True).count(),
            "rounds": _rounds(championship),
            "draw_form": DrawForm(),
            "drawn": championship.mesas.exists(),
            "knockout_pending": championship.bracket_format == Championship.Format.ROUND_ROBIN
            and not championship.mesas.exclude(bracket=Mesa.Bracket.GROUP).exists(),
        },
    )


@organiser_required
def pair_list(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    pairs = list(championship.pairs.prefetch_related("players").order_by(F("seed").asc(nulls_last=True), "name"))
    present = sum(p.checked_in for p in pairs)
    return render(
        request,
        "tournament/pair_list.html",
        {
            "championship": championship,
            "pairs": pairs,
            "present": present,
            "absent": len(pairs) - present,
        },
    )


@organiser_required
def pair_edit(request, pk, pair_pk=None):
    championship = get_object_or_404(Championship, pk=pk)
    pair = get_object_or_404(Pair, pk=pair_pk, championship=championship) if pair_pk else None
    form = PairForm(request.POST or None, instance=pair, championship=championship)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                form.save()
        except IntegrityError:
            # Another organiser saved a pair of this name or seed between the check and the save.
            form.add_error(None, _("Another pair with this name or seed was saved meanwhile; check and save again."))
        else:
            messages.success(request, _("Pair saved."))
            return redirect("tournament:pairs", championship.pk)
    return render(request, "tournament/pair_form.html", {"form": form, "championship": championship, "pair": pair})


@organiser_required
def pair_card(request, pk, pair_pk):
    """The pair's card, printed at check-in: its private page's address as a QR code (``public``)."""
    pair = get_object_or_404(Pair.objects.select_related("championship"), pk=pair_pk, championship_id=pk)
    url = request.build_absolute_uri(reverse("public:pair", args=[pair.token]))
    return render(
        request,
        "tournament/pair_card.html",
        {
            "pair": pair,
            "championship": pair.championship,
            "url": url,
            "qr": segno.make(url, error="m").svg_inline(scale=6, border=2),
        },
    )


@organiser_required
@require_POST
def pair_new_link(request, pk, pair_pk):
    """A new private link for the pair: the old one stops working at once."""
    pair = get_object_or_404(Pair, pk=pair_pk, championship_id=pk)
    pair.token = new_pair_token()
    pair.save(update_fields=["token"])
    messages.success(request, _("%(pair)s has a new private link; the old one no longer works.") % {"pair": pair})
    return redirect("tournament:pair_card", pk, pair.pk)


@organiser_required
@require_POST
def pairs_all_present(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    marked = list(championship.pairs.filter(checked_in=False).values_list("name", flat=True))
    championship.pairs.filter(checked_in=False).update(checked_in=True)
    if marked:
        # A bulk update sends no signal: the trail gets one entry naming the pairs.
        record(championship, "all_checked_in", {"present": ["", ", ".join(marked)]})
    messages.success(
        request, ngettext("%(n)d pair marked present.", "%(n)d pairs marked present.", len(marked)) % {"n": len(marked)}
    )
    return redirect("tournament:pairs", pk)


@organiser_required
@require_POST
def pair_check_in(request, pk, pair_pk):
    pair = get_object_or_404(Pair, pk=pair_pk, championship_id=pk)
    intent = request.POST.get("present")
    if intent not in ("1", "0"):
        return HttpResponseBadRequest(_("Say whether the pair is present or absent."))
    check_in(pair, intent == "1", by=request.user, address=request.META.get("REMOTE_ADDR") or None)
    return redirect("tournament:pairs", pk)


@organiser_required
def pairs_import(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    form = ImportForm(request.POST or None, request.FILES or None)
    preview = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload:
                preview = pairs_csv.read(championship, upload.read())
            elif form.cleaned_data["text"] and "confirm" in request.POST:
                preview, count = pairs_csv.save(championship, form.cleaned_data["text"])
                if count:
                    messages.success(request, _("%(n)d pairs imported.") % {"n": count})
                    return redirect("tournament:pairs", championship.pk)
            elif form.cleaned_data["text"]:
                preview = pairs_csv.check(championship, form.cleaned_data["text"])
            else:
                form.add_error("file", _("Choose a CSV file."))
        except pairs_csv.ImportRefused as refusal:
            form.add_error("file", str(refusal))
    return render(
        request,
        "tournament/pairs_import.html",
        {
            "championship": championship,
            "form": form,
            "preview": preview,
            "columns": pairs_csv.COLUMNS,
            "max_pairs": pairs_csv.MAX_PAIRS,
            "max_kb": pairs_csv.MAX_CSV_BYTES // 1024,
        },
    )


@organiser_required
def pairs_export(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    style = request.GET.get("formato", "excel")
    if style not in pairs_csv.STYLES:
        return HttpResponseBadRequest(_("Unknown CSV style: choose excel or plain."))
    response = HttpResponse(pairs_csv.export(championship, style), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="parejas-{championship.pk}.csv"'
    return response


def _run(request, action, *args, **kwargs):
    """Do a service action; show its refusal as an error message."""
    try:
        return action(*args, **kwargs)
    except ActionRefused as error:
        messages.error(request, error.message)
        return None


@organiser_required
@require_POST
def draw(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    form = DrawForm(request.POST)
    absent = list(draws.absent_pairs(championship))
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    elif absent and not request.POST.get("confirm") and not championship.mesas.exists():
        # The organiser sees who is left out before the draw is made.
        return render(
            request,
            "tournament/draw_confirm.html",
            {
                "championship": championship,
                "absent": absent,
                "seed": form.cleaned_data["seed"],
                "present": championship.pairs.filter(checked_in=True).count(),
            },
        )
    elif _run(request, draws.draw_bracket, championship, form.cleaned_data["seed"]) is not None:
        championship.refresh_from_db()
        messages.success(request, _("Bracket drawn with seed %(seed)d.") % {"seed": championship.draw_seed})
    return redirect("tournament:detail", pk)


@organiser_required
@require_POST
def draw_knockout(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    if _run(request, draws.draw_knockout, championship) is not None:
        record(championship, "knockout_drawn")
        messages.success(request, _("Knockout drawn."))
    return redirect("tournament:detail", pk)


@organiser_required
@require_POST
def start_round(request, pk, bracket, round_number):
    championship = get_object_or_404(Championship, pk=pk)
    count = _run(request, seating.start_round, championship, bracket, round_number)
    if count is not None:
        messages.success(request, _("%(n)d mesas are ready.") % {"n": count})
    return redirect("tournament:detail", pk)


@organiser_required
def tables(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    if request.method == "POST":
        assigned = seating.assign_tables(championship)
        if assigned:
            messages.success(
                request,
                ngettext("%(n)d mesa assigned: %(list)s.", "%(n)d mesas assigned: %(list)s.", len(assigned))
                % {"n": len(assigned), "list": "; ".join(_assignment_words(a.mesa, a.table, a.juez) for a in assigned)},
            )
        else:
            messages.warning(
                request,
                _("No mesa was assigned: every playable mesa has its table and juez, or no table or juez is free."),
            )
        return redirect("tournament:tables", pk)
    mesas = sorted(
        championship.mesas.filter(status__in=Mesa.UNDECIDED, pair_a__isnull=False, pair_b__isnull=False).select_related(
            "pair_a", "pair_b", "juez", "pin_issued_by"
        ),
        key=seating.play_order,
    )
    for mesa in mesas:
        mesa.pin_printer = person_name(mesa.pin_issued_by)
    busy = seating.commitments()
    jueces = [{"name": person_name(juez), "busy": busy.get(juez.pk)} for juez in accounts.jueces()]
    return render(
        request,
        "tournament/tables.html",
        {
            "championship": championship,
            "mesas": mesas,
            "jueces": jueces,
            "blocked_pins": PinFailure.objects.blocked_mesas(mesas),
        },
    )


def _assignment_words(mesa, table, juez):
    """ "Winners' bracket R1-1: table 3, juez Ana Pérez", as the organiser's message lists it."""
    if juez is None:
        return _("%(mesa)s: table %(table)s, no juez") % {"mesa": mesa, "table": table or "—"}
    return _("%(mesa)s: table %(table)s, juez %(juez)s") % {
        "mesa": mesa,
        "table": table or "—",
        "juez": person_name(juez),
    }


@organiser_required
def mesa_table(request, pk, mesa_pk):
    mesa = get_object_or_404(
        Mesa.objects.select_related("championship", "pair_a", "pair_b"), pk=mesa_pk, championship_id=pk
    )
    form = TableForm(
        request.POST or None,
        initial={"table_number": mesa.table_number, "juez": mesa.juez_id},
        busy=seating.commitments(),
        mesa=mesa,
    )
    if request.method == "POST" and form.is_valid():
        try:
            seating.assign_table(mesa, form.cleaned_data["table_number"], form.cleaned_data["juez"])
        except ActionRefused as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _assignment_words(mesa, mesa.table_number, mesa.juez) + ".")
            return redirect("tournament:tables", pk)
    return render(
        request, "tournament/mesa_table.html", {"mesa": mesa, "form": form, "championship": mesa.championship}
    )


@organiser_required
def mesa_result(request, pk, mesa_pk):
    """A walkover for an undecided mesa, or a correction of a decided one."""
    mesa = get_object_or_404(
        Mesa.objects.select_related("championship", "pair_a", "pair_b", "winner"),
        pk=mesa_pk,
        championship_id=pk,
    )
    decided = mesa.status in Mesa.DECIDED
    # A POST is the act its form was for: a walkover sent while another organiser's
    # was being saved is refused as one ("already has a result"), not read as a correction.
    correcting = "chicas_a" in request.POST if request.method == "POST" else decided
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
            if correcting and data["override"] and is_director(request.user, mesa.championship) and not data["reason"]:
                raise ActionRefused(_("The Director's override states its reason (Art. 18)."))
            overriding = correcting and data["override"] and is_director(request.user, mesa.championship)
            with because(
                _("Director's override (Art. 18): %(reason)s") % {"reason": data["reason"]}
                if overriding
                else data["reason"]
            ):
                if correcting:
                    results.correct_result(
                        mesa,
                        data["winner"],
                        data["chicas_a"],
                        data["chicas_b"],
                        data["zapateria"],
                        user=request.user,
                        override=data["override"],
                    )
                else:
                    results.record_walkover(mesa, data["winner"])
        except ActionRefused as error:
            form.add_error(None, error.message)
            blocking = error.blocking
        else:
            messages.success(request, _("Result saved."))
            return redirect("tournament:board", pk)
    return render(
        request,
        "tournament/mesa_result.html",
        {
            "mesa": mesa,
            "form": form,
            "decided": decided,
            "blocking": blocking,
            "championship": mesa.championship,
            "director": is_director(request.user, mesa.championship),
        },
    )


def _mesas(championship):
    """Every mesa of the championship in one query, in bracket order."""
    mesas = championship.mesas.select_related("pair_a", "pair_b", "winner", "juez")
    return sorted(mesas, key=seating.bracket_order)


@organiser_required
def board(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    template = "tournament/board_rows.html" if request.GET.get("rows") else "tournament/board.html"
    appealed = set(Appeal.objects.waiting().filter(mesa__championship=championship).values_list("mesa_id", flat=True))
    return render(
        request,
        template,
        {
            "championship": championship,
            "mesas": _mesas(championship),
            "appealed": appealed,
            "stream": paths.championship_stream(championship.pk, "llaves", get_language()),
        },
    )


def bracket(request, pk):
    """The bracket drawn by brackets-viewer, live (``bracket_drawing``); ``?data=1``: its data alone, as JSON."""
    championship = get_object_or_404(Championship, pk=pk)
    mesas = _mesas(championship)
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
            "organiser": is_organiser(request.user),
        },
    )


def standings_view(request, pk):
    championship = get_object_or_404(Championship, pk=pk)
    mesas = _mesas(championship)
    pairs = list(championship.pairs.order_by("name"))
    return render(
        request,
        "tournament/standings_tables.html" if request.GET.get("part") else "tournament/standings.html",
        {
            "championship": championship,
            "tables": standings.table(championship, pairs, mesas),
            "stream": paths.championship_stream(championship.pk, "llaves", get_language()),
            "organiser": is_organiser(request.user),
        },
    )


@organiser_required
def juez_list(request):
    """The jueces' accounts, and a form to add one."""
    form = JuezForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        juez = form.save()
        messages.success(
            request,
            _("%(name)s can now sign in as %(username)s.")
            % {"name": juez.get_full_name(), "username": juez.get_username()},
        )
        return redirect("jueces:list")
    jueces = list(accounts.juez_accounts())
    locked = lockouts.locked_usernames(j.get_username() for j in jueces)
    for juez in jueces:
        juez.locked_out = juez.get_username() in locked
    return render(request, "tournament/jueces.html", {"form": form, "jueces": jueces})


@organiser_required
@require_POST
def juez_unlock(request, pk):
    """Let a juez locked out by too many wrong passwords sign in again."""
    juez = get_object_or_404(accounts.juez_accounts(), pk=pk)
    lockouts.unlock(juez, by=request.user)
    messages.success(request, _("%(name)s can try to sign in again.") % {"name": person_name(juez)})
    return redirect("jueces:list")


@organiser_required
@require_POST
def juez_active(request, pk):
    """Deactivate a juez, or activate one again (``active`` in the POST)."""
    juez = get_object_or_404(accounts.juez_accounts(), pk=pk)
    if request.POST.get("active") not in ("0", "1"):
        return HttpResponseBadRequest(_("active must be 0 or 1."))
    active = request.POST["active"] == "1"
    try:
        accounts.set_juez_active(juez, active)
    except ActionRefused as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            (_("%(name)s can sign in again.") if active else _("%(name)s can no longer sign in."))
            % {"name": person_name(juez)},
        )
    return redirect("jueces:list")


@organiser_required
def juez_password(request, pk):
    juez = get_object_or_404(accounts.juez_accounts(), pk=pk)
    form = JuezPasswordForm(juez, request.POST or None)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(
            request,
            _("New password set for %(name)s; their other devices are signed out.") % {"name": person_name(juez)},
        )
        return redirect("jueces:list")
    return render(request, "tournament/juez_password.html", {"form": form, "juez": juez})
