"""The pair form."""

from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournament.models import Championship, Pair
from tournament.validators import TextField, clean

from .registration import PlayerValues, Register

# The pair form's field that shows each of the register's refusals (None: the form's own).
FIELDS_OF = {"name": "name", "seed": "seed", "id_number": None}


class PairForm(forms.ModelForm[Pair]):
    """A pair and its players, saved together; what it may not share with another pair is the
    register's rule (``registration``), as for the import."""

    player1_name = TextField("name", label=_("Player 1: full name"))
    player1_id = TextField("line", label=_("Player 1: ID number"), max_length=20, required=False)
    player1_phone = TextField("line", label=_("Player 1: phone"), max_length=30, required=False)
    player2_name = TextField("name", label=_("Player 2: full name"), required=False)
    player2_id = TextField("line", label=_("Player 2: ID number"), max_length=20, required=False)
    player2_phone = TextField("line", label=_("Player 2: phone"), max_length=30, required=False)
    representative = forms.TypedChoiceField(
        label=_("Representative"),
        coerce=int,
        choices=[(1, _("Player 1")), (2, _("Player 2"))],
        initial=1,
    )

    class Meta:
        model = Pair
        fields = ["name", "club", "seed", "arrival"]
        widgets = {"arrival": forms.RadioSelect}

    def __init__(self, *args: Any, championship: Championship, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.championship = championship
        self.instance.championship = championship
        if self.instance.pk:
            for player in self.instance.players.all():
                n = player.number
                self.initial.update(
                    {
                        f"player{n}_name": player.full_name,
                        f"player{n}_id": player.id_number,
                        f"player{n}_phone": player.phone,
                    }
                )
                if player.is_representative:
                    self.initial["representative"] = n
        # A form sent without it (an older page, a script) leaves the pair where it was: a new one expected.
        self.fields["arrival"].required = False
        if championship.players_per_pair == 1:
            for name in ("player2_name", "player2_id", "player2_phone", "representative"):
                del self.fields[name]
        else:
            self.fields["player2_name"].required = True
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean_arrival(self) -> str:
        return self.cleaned_data.get("arrival") or self.instance.arrival

    def clean_name(self) -> str:
        # Kept as the check leaves it (NFKC, one space); compared by the register's rule.
        return clean(self.cleaned_data["name"], "name")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if "name" not in data or "seed" not in data:
            return data
        numbers = [data.get(f"player{n}_id", "") for n in (1, 2)]
        register = Register(self.championship, editing=self.instance.pk)
        for field, reason in register.refusals(data["name"], data["seed"], numbers):
            # The register words a reason as a clause of a file's line; a form shows a sentence.
            self.add_error(FIELDS_OF.get(field), capfirst(reason) + ".")
        return data

    def values(self) -> dict[str, Any]:
        """The clean pair as ``registration.save_pair`` takes it."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "club": data["club"],
            "seed": data["seed"],
            "arrival": data["arrival"],
            "representative": data.get("representative", 1),
            "players": [
                PlayerValues(data[f"player{n}_name"], data[f"player{n}_id"], data[f"player{n}_phone"])
                for n in range(1, self.championship.players_per_pair + 1)
            ],
        }
