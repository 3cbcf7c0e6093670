"""The draw's form and its correction's before play."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import Championship, Pair

from . import draws


class DrawCorrectionForm(forms.Form):
    """A correction of the draw before play (``draws.correct_draw``): what, on which pair or pairs."""

    action = forms.ChoiceField(label=_("Correction"), choices=list(draws.CORRECTIONS.items()))
    pair = forms.ModelChoiceField(label=_("Pair"), queryset=Pair.objects.none())
    other = forms.ModelChoiceField(
        label=_("Swap with"), queryset=Pair.objects.none(), required=False, help_text=_("Only for a swap.")
    )
    place = forms.IntegerField(
        label=_("Place in the draw"),
        required=False,
        min_value=1,
        max_value=512,
        help_text=_(
            "Only for a late pair: the place it takes (1 is seed 1), and the pair there takes the next place. "
            "Empty: the next place."
        ),
    )
    # The preview's order (``draws.digest``): a confirmation of an older preview is refused.
    seen = forms.CharField(widget=forms.HiddenInput, required=False, max_length=16)

    def __init__(self, *args: Any, championship: Championship, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        pairs = championship.pairs.order_by("name")
        for name in ("pair", "other"):
            cast(forms.ModelChoiceField[Pair], self.fields[name]).queryset = pairs

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("action") == draws.SWAP and not data.get("other"):
            self.add_error("other", _("Choose the pair to swap with."))
        return data


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Draw seed"),
        required=False,
        min_value=0,
        max_value=2**62,
        help_text=_("Leave empty for a new random draw; give a previous seed to reproduce it."),
    )
