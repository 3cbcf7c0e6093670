"""The forms of appeals: filing one at the table, and the Director's steps.

The rules (the window, who may rule, what a ruling changes) are
``refereeing.appeals``'s; these forms only collect the fields.
"""

import uuid

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from refereeing.appeals import open_decisions
from refereeing.planilla import claim_label


class AppealForm(forms.Form):
    pair = forms.ChoiceField(label=_("Pair that appeals"), widget=forms.RadioSelect)
    # A plain number, shown as a list of the decisions still open: one whose
    # window closed while the form was filled gets the service's Art. 17 answer.
    seq = forms.IntegerField(label=_("Decision appealed"), widget=forms.Select)
    reason = forms.CharField(label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 3}))
    name = forms.CharField(label=_("Representative who files it"), max_length=150)
    signature = forms.CharField(widget=forms.HiddenInput, error_messages={
        "required": _("The representative signs the appeal in the box.")})
    client_id = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, mesa, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pair"].choices = [(side, f"{side} · {mesa.pair(side)}") for side in "AB"]
        self.fields["seq"].widget.choices = [
            (e.seq, f"#{e.seq} · {claim_label(e.claim)} · {timezone.localtime(e.created_at):%H:%M}")
            for e in open_decisions(mesa)
        ]
        self.initial.setdefault("client_id", uuid.uuid4())


class DismissForm(forms.Form):
    ruling = forms.CharField(label=_("Why it is not admitted"), max_length=2000,
                             widget=forms.Textarea(attrs={"rows": 2}))


class RulingForm(forms.Form):
    upheld = forms.TypedChoiceField(
        label=_("Ruling"), widget=forms.RadioSelect, coerce=lambda v: v == "yes",
        choices=[("yes", _("Upheld: the pair is right")), ("no", _("Rejected: the juez's decision stands"))],
    )
    ruling = forms.CharField(label=_("Ruling (goes on the planilla)"), max_length=2000,
                             widget=forms.Textarea(attrs={"rows": 3}))
    undo = forms.BooleanField(label=_("Undo the decision appealed"), required=False)
    adjust_pair = forms.ChoiceField(label=_("Adjust the points of"), required=False,
                                    choices=[("", "—"), ("A", "A"), ("B", "B")])
    adjust_points = forms.IntegerField(label=_("Points (negative to take away)"), required=False,
                                       min_value=-40, max_value=40)

    def clean(self):
        data = super().clean()
        pair, points = data.get("adjust_pair"), data.get("adjust_points")
        if bool(pair) != (points is not None):
            raise forms.ValidationError(_("An adjustment needs both the pair and the points."))
        data["adjustment"] = (pair, points) if pair else None
        return data
