"""A walkover and a correction of a result, each with the reason the audit trail keeps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from audit.models import REASON_MAX
from tournament.validators import TextField

if TYPE_CHECKING:
    from tournament.models import Mesa


class ReasonField(TextField):
    """Why a result was recorded or corrected: kept in the audit trail (``audit``)."""

    def __init__(self) -> None:
        super().__init__(
            "reason",
            label=_("Reason (kept in the audit trail)"),
            max_length=REASON_MAX,
            required=False,
            widget=forms.Textarea(attrs={"rows": 2}),
        )


class MesaPairsForm(forms.Form):
    """A form about one mesa whose ``winner`` is chosen among its pairs, by name."""

    def __init__(self, *args: Any, mesa: Mesa, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["winner"]).choices = [
            (side, f"{side} · {mesa.pair(side) or '—'}") for side in ("A", "B")
        ]


class WalkoverForm(MesaPairsForm):
    winner = forms.ChoiceField(label=_("Pair present (wins)"), widget=forms.RadioSelect)
    reason = ReasonField()


class CorrectionForm(MesaPairsForm):
    winner = forms.ChoiceField(label=_("Winner"), widget=forms.RadioSelect)
    chicas_a = forms.IntegerField(label=_("Chicas of pair A"), min_value=0, max_value=3)
    chicas_b = forms.IntegerField(label=_("Chicas of pair B"), min_value=0, max_value=3)
    zapateria = forms.BooleanField(label=_("Zapatería"), required=False)
    override = forms.BooleanField(
        label=_("Director's override: correct even though a later mesa has started"),
        required=False,
    )
    reason = ReasonField()
