"""The forms of appeals: filing one at the table, and the Director's steps.

The rules (the window, who may rule, what a ruling changes) are
``refereeing.appeals.procedure``'s; these forms only collect the fields, every text
checked as clean text of its kind (``tournament.validators``).
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from refereeing.appeals.procedure import open_decisions
from refereeing.planilla.labels import claim_label
from refereeing.signatures import MAX_DATA_URL
from tournament.validators import TextField

if TYPE_CHECKING:
    from refereeing.models import ClaimEntry
    from tournament.models import Mesa


class AppealForm(forms.Form):
    pair = forms.ChoiceField(label=_("Pair that appeals"), widget=forms.RadioSelect)
    # A plain number, shown as a list of the decisions still open: one whose
    # window closed while the form was filled gets the service's Art. 17 answer.
    seq = forms.IntegerField(label=_("Decision appealed"), widget=forms.Select)
    reason = TextField("reason", label=_("Reason"))
    name = TextField("name", label=_("Representative who files it"))
    signature = forms.CharField(
        widget=forms.HiddenInput,
        max_length=MAX_DATA_URL,
        error_messages={"required": _("The representative signs the appeal in the box.")},
    )
    client_id = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, mesa: Mesa, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["pair"]).choices = [(side, f"{side} · {mesa.pair(side)}") for side in "AB"]
        cast(forms.Select, self.fields["seq"].widget).choices = [
            (e.seq, decision_label(mesa, e)) for e in open_decisions(mesa)
        ]
        self.initial.setdefault("client_id", uuid.uuid4())


def decision_label(mesa: Mesa, entry: ClaimEntry) -> str:
    """One decision as the pairs recognise it: seq, pair, claim, points (or refused) and time."""
    parts = [f"#{entry.seq}", claim_label(entry.claim)]
    if entry.claim.get("pair") in ("A", "B"):
        parts.append(f"{entry.claim['pair']} · {mesa.pair(entry.claim['pair'])}")
    decision = entry.decision or {}
    if not decision.get("accepted"):
        parts.append(str(_("refused")))
    else:
        points = decision.get("points") or {}
        parts.append(", ".join(f"{side} {points[side]:+d}" for side in "AB" if points.get(side)) or str(_("no points")))
    parts.append(f"{timezone.localtime(entry.created_at):%H:%M}")
    return " · ".join(parts)


class DismissForm(forms.Form):
    ruling = TextField("ruling", label=_("Why it is not admitted"), widget=forms.Textarea(attrs={"rows": 2}))


class RulingForm(forms.Form):
    upheld = forms.TypedChoiceField(
        label=_("Ruling"),
        widget=forms.RadioSelect,
        coerce=lambda v: v == "yes",
        choices=[("yes", _("Upheld: the pair is right")), ("no", _("Rejected: the juez's decision stands"))],
    )
    ruling = TextField("ruling", label=_("Ruling (goes on the planilla)"))
    undo = forms.BooleanField(label=_("Undo the decision appealed"), required=False)
    # The stored value stays the side; the Director chooses the pair by its name.
    adjust_pair = forms.ChoiceField(label=_("Adjust the points of"), required=False)
    adjust_points = forms.IntegerField(
        label=_("Points (negative to take away)"), required=False, min_value=-40, max_value=40
    )

    def __init__(self, mesa: Mesa, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["adjust_pair"]).choices = [("", "—")] + [
            (side, str(mesa.pair(side))) for side in "AB"
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        pair, points = data.get("adjust_pair"), data.get("adjust_points")
        if bool(pair) != (points is not None):
            raise forms.ValidationError(_("An adjustment needs both the pair and the points."))
        data["adjustment"] = (pair, points) if pair else None
        return data
