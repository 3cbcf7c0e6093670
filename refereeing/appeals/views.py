"""The appeal screens: filing one on the juez's tablet, and the Director's desk.

Who may do what: the juez's tablet (signed in as the mesa's juez, or a
device opened with the table's PIN) files an appeal for a pair at the table; the championship's
Director admits, dismisses and rules (``refereeing.appeals.procedure`` checks it
again); organisers see every appeal but do not rule.
"""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from refereeing.access.permissions import juez_at_tablet
from refereeing.claimlog.log import decision_message
from refereeing.juezscreen.views import not_yours
from refereeing.models import Appeal, ClaimEntry
from refereeing.planilla.labels import claim_label
from tournament.access import overseen
from tournament.errors import Refusal
from tournament.models import Mesa
from tournament.policy import JUEZ_TABLET, READ_RECORDS, RULE_APPEAL, allowed
from tournament.refusals import show

from . import procedure as appeals
from .forms import AppealForm, DismissForm, RulingForm, decision_label


@allowed(JUEZ_TABLET, refused=not_yours)
def file_appeal(request, mesa_id):
    mesa = get_object_or_404(Mesa.objects.select_related("championship", "pair_a", "pair_b"), pk=mesa_id)
    form = AppealForm(mesa, request.POST or None)
    if request.method == "POST" and form.is_valid():
        # The form's fields are the appeal's: which pair, which decision, why, who, signed, the retry's id.
        try:
            appeal = appeals.file_appeal(mesa, **form.cleaned_data, by=juez_at_tablet(request, mesa))
        except Refusal as error:
            show(request, error, form)
        else:
            messages.success(
                request,
                _(
                    "Appeal of pair %(pair)s on decision #%(seq)s filed at %(time)s; the Director "
                    "decides whether to admit it."
                )
                % {"pair": appeal.pair, "seq": appeal.seq, "time": f"{timezone.localtime(appeal.filed_at):%H:%M}"},
            )
            return redirect("refereeing:mesa_screen", mesa.pk)
    representatives = {
        side: getattr(mesa.pair(side).representative, "full_name", "") for side in "AB" if mesa.pair(side)
    }
    return render(
        request,
        "refereeing/appeal_form.html",
        {
            "mesa": mesa,
            "form": form,
            "representatives": representatives,
            "window": mesa.championship.appeal_window_minutes,
        },
    )


def _visible(user):
    """The appeals ``user`` may see: all for organisers, their championships' for Directors."""
    found = Appeal.objects.select_related("mesa__championship", "mesa__pair_a", "mesa__pair_b")
    return found.filter(mesa__championship__in=overseen(user))


@allowed(READ_RECORDS)
def appeal_list(request):
    visible = _visible(request.user)
    pending = list(visible.waiting().order_by("filed_at"))
    ruled = list(visible.decided().order_by("-ruled_at", "-pk")[:50])
    _label_decisions(pending + ruled)
    return render(
        request,
        "refereeing/_appeal_lists.html" if request.GET.get("part") else "refereeing/appeal_list.html",
        {"pending": pending, "ruled": ruled},
    )


def _label_decisions(listed):
    """Each appeal's ``appealed``: the juez's decision appealed as the pairs recognise it, read in one query."""
    entries = {
        (e.mesa_id, e.seq): e
        for e in ClaimEntry.objects.filter(mesa__in={a.mesa_id for a in listed}, seq__in={a.seq for a in listed})
    }
    for appeal in listed:
        entry = entries.get((appeal.mesa_id, appeal.seq))
        appeal.appealed = decision_label(appeal.mesa, entry) if entry else f"#{appeal.seq}"


@allowed(READ_RECORDS, pk=Appeal, POST=RULE_APPEAL)
def appeal_detail(request, pk):
    """One appeal; the Director admits, dismisses or rules on it here (``step`` in the POST)."""
    appeal = get_object_or_404(_visible(request.user), pk=pk)
    forms = {"dismiss": DismissForm(prefix="dismiss"), "rule": RulingForm(appeal.mesa, prefix="rule")}
    if request.method == "POST":
        step = request.POST.get("step")
        if step == "dismiss":
            forms[step] = DismissForm(request.POST, prefix=step)
        elif step == "rule":
            forms[step] = RulingForm(appeal.mesa, request.POST, prefix=step)
        try:
            if step == "admit":
                appeals.admit(appeal, by=request.user)
                messages.success(request, _("Appeal admitted: the mesa is suspended until your ruling."))
                return redirect("appeals:detail", pk)
            if step in forms and forms[step].is_valid():
                data = forms[step].cleaned_data
                if step == "dismiss":
                    appeals.dismiss(appeal, data["ruling"], by=request.user)
                else:
                    appeals.rule(
                        appeal,
                        data["upheld"],
                        data["ruling"],
                        undo=data["undo"],
                        adjustment=data["adjustment"],
                        by=request.user,
                    )
                messages.success(request, _("Ruling recorded; it is final."))
                return redirect("appeals:detail", pk)
        except Refusal as error:
            show(request, error)
        appeal.refresh_from_db()
    entry = ClaimEntry.objects.filter(mesa=appeal.mesa_id, seq=appeal.seq).first()
    return render(
        request,
        "refereeing/appeal_detail.html",
        {
            "appeal": appeal,
            "entry": entry,
            "entry_label": claim_label(entry.claim) if entry else "",
            "entry_message": decision_message(entry.decision) if entry else "",
            "decided": Mesa.DECIDED,
            "dismiss_form": forms["dismiss"],
            "ruling_form": forms["rule"],
        },
        status=400 if request.method == "POST" else 200,
    )
