"""The check-in desk: the pairs, their form and card, check-in, and the pairs' CSV import and export."""

import segno
from django.contrib import messages
from django.db.models import F
from django.http import HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from mirror import links
from tournament.draws import draws
from tournament.errors import Refusal
from tournament.models import Championship, Pair
from tournament.policy import RUN, allowed, guarded
from tournament.ratings import identity
from tournament.refusals import show
from tournament.screens import ImportForm, address, csv_download, csv_import

from . import checkin, pairs_csv, registration
from .forms import PairForm


def _desk(championship):
    """What the check-in desk shows besides the pairs: attendance, and who is in the bracket once it is drawn."""
    drawn = championship.mesas.exists()
    return {
        "championship": championship,
        "attendance": draws.attendance(championship),
        "drawn": drawn,
        "drawn_ids": draws.drawn_pair_ids(championship) if drawn else set(),
        "correctable": drawn and not draws.play_started(championship),
    }


@allowed(RUN)
def pair_list(request, pk):
    championship = guarded(request, Championship, pk)
    pairs = championship.pairs.prefetch_related("players").order_by(F("seed").asc(nulls_last=True), "name")
    return render(request, "tournament/pair_list.html", {**_desk(championship), "pairs": pairs})


@allowed(RUN)
def pair_edit(request, pk, pair_pk=None):
    championship = guarded(request, Championship, pk)
    pair = get_object_or_404(Pair, pk=pair_pk, championship=championship) if pair_pk else None
    form = PairForm(request.POST or None, instance=pair, championship=championship)
    if request.method == "POST" and form.is_valid():
        try:
            saved = registration.save_pair(
                championship, pair, **form.values(), by=request.user, address=address(request)
            )
        except Refusal as refusal:
            show(request, refusal, form)
        else:
            messages.success(request, _("Pair saved."))
            if identity.open_doubts(championship).filter(player__pair=saved).exists():
                messages.warning(
                    request, _("A player may be a person already known: the desk confirms it on the persons page.")
                )
            return redirect("tournament:pairs", championship.pk)
    return render(request, "tournament/pair_form.html", {"form": form, "championship": championship, "pair": pair})


@allowed(RUN)
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
            "away": links.mirror_url(pair),
        },
    )


@allowed(RUN)
@require_POST
def pair_new_link(request, pk, pair_pk):
    """A new private link for the pair: the old one stops working at once."""
    pair = registration.new_link(
        get_object_or_404(Pair, pk=pair_pk, championship_id=pk), by=request.user, address=address(request)
    )
    messages.success(request, _("%(pair)s has a new private link; the old one no longer works.") % {"pair": pair})
    return redirect("tournament:pair_card", pk, pair.pk)


@allowed(RUN)
@require_POST
def pairs_all_present(request, pk):
    championship = guarded(request, Championship, pk)
    marked = checkin.mark_all_present(championship, by=request.user, address=address(request))
    messages.success(
        request, ngettext("%(n)d pair marked present.", "%(n)d pairs marked present.", len(marked)) % {"n": len(marked)}
    )
    return redirect("tournament:pairs", pk)


@allowed(RUN)
@require_POST
def pair_check_in(request, pk, pair_pk):
    """One pair expected, present or withdrawn (``arrival``). Sent by the page's script (``X-Requested-With:
    fetch``): the row again, with an undo back to the state before when it changed, and the attendance, as JSON;
    else back to the row on the page."""
    pair = get_object_or_404(Pair, pk=pair_pk, championship_id=pk)
    intent = request.POST.get("arrival")
    if intent not in Pair.Arrival.values:
        return HttpResponseBadRequest(_("Say whether the pair is expected, present or withdrawn."))
    before = pair.arrival
    changed = checkin.set_arrival(pair, intent, by=request.user, address=address(request))
    # The draw's page lists the expected pairs with the same rows: the plain form goes back there.
    next_page = "draw" if request.POST.get("next") == "draw" else None
    if request.headers.get("X-Requested-With") != "fetch":
        if next_page:
            return redirect(reverse("tournament:draw", args=[pk]) + f"#pair-{pair.pk}")
        return redirect(reverse("tournament:pairs", args=[pk]) + f"#pair-{pair.pk}")
    desk = _desk(pair.championship)
    pair = Pair.objects.prefetch_related("players").get(pk=pair.pk)
    row = {**desk, "pair": pair, "undo": before if changed else None, "next_page": next_page}
    return JsonResponse(
        {
            "row": render_to_string("tournament/pair_row.html", row, request),
            "parts": {"attendance": render_to_string("tournament/attendance.html", desk, request).strip()},
        }
    )


@allowed(RUN)
def pairs_import(request, pk):
    championship = guarded(request, Championship, pk)
    form = ImportForm(request.POST or None, request.FILES or None, max_bytes=pairs_csv.MAX_CSV_BYTES)
    preview, saved = csv_import(
        request,
        form,
        read=lambda data: pairs_csv.read(championship, data),
        check=lambda text: pairs_csv.check(championship, text),
        save=lambda text: pairs_csv.save(
            championship,
            text,
            by=request.user,
            address=address(request),
            same=identity.confirmed(request.POST.getlist("same")),
        ),
    )
    imported = saved[1] if saved else 0
    if imported and not preview.errors:
        messages.success(request, _("%(n)d pairs imported.") % {"n": imported})
        return redirect("tournament:pairs", championship.pk)
    return render(
        request,
        "tournament/pairs_import.html",
        {
            "championship": championship,
            "form": form,
            "preview": preview,
            "imported": imported,
            "columns": pairs_csv.COLUMNS,
            "max_pairs": pairs_csv.MAX_PAIRS,
            "max_kb": pairs_csv.MAX_CSV_BYTES // 1024,
            "identities": identity.summary(pairs_csv.identities(championship, preview))
            if preview and preview.rows and not imported
            else None,
        },
    )


@allowed(RUN)
def pairs_template(request, pk):
    """The empty file to fill in (its header row), for Excel or plain."""
    return csv_download(request, pairs_csv.template, "plantilla-parejas-{style}.csv")


@allowed(RUN)
def pairs_export(request, pk):
    championship = guarded(request, Championship, pk)
    return csv_download(request, lambda style: pairs_csv.export(championship, style), f"parejas-{championship.pk}.csv")
