"""The forms of a past championship's import and of the Comité's merge and split."""

from typing import Any, cast

from crispy_forms.helper import FormHelper
from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from tournament.models import Championship, Player, Sede
from tournament.validators import TextField

from . import history
from .models import Person


class HistoryForm(forms.ModelForm[Championship]):
    """The past championship (its name, edition, sede, days, players per side) and the file of its results."""

    file = forms.FileField(label=_("CSV file of its results"), required=False)
    # The previewed text, sent back on confirmation and checked again.
    text = forms.CharField(widget=forms.HiddenInput, required=False, max_length=history.MAX_BYTES)

    class Meta:
        model = Championship
        fields = ["name", "edition", "sede", "start_date", "end_date", "players_per_pair"]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField[Sede], self.fields["sede"]).queryset = Sede.objects.order_by("name")
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean_file(self) -> UploadedFile[Any] | None:
        upload: UploadedFile[Any] | None = self.cleaned_data["file"]
        if upload and (upload.size or 0) > history.MAX_BYTES:  # an upload always has its size
            raise forms.ValidationError(
                _("The file is too large: at most %(n)d kB.") % {"n": history.MAX_BYTES // 1024}
            )
        return upload

    def championship(self) -> Championship:
        """The championship the form describes, not saved."""
        return self.save(commit=False)


class MergeForm(forms.Form):
    other = forms.ModelChoiceField(
        label=_("Number of the person to merge into this one"),
        queryset=Person.objects.filter(merged_into=None),
        widget=forms.NumberInput,
        error_messages={"invalid_choice": _("No person has this number.")},
    )
    reason = TextField("line", label=_("Reason"), required=False)


class PlayerChoices(forms.ModelMultipleChoiceField[Player]):
    """A person's players, each with its pair and championship."""

    def label_from_instance(self, obj: Player) -> str:
        return f"{obj.full_name} · {obj.pair.name} · {obj.pair.championship}"


class SplitForm(forms.Form):
    players = PlayerChoices(
        label=_("The players who are another person"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )
    reason = TextField("line", label=_("Reason"), required=False)

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(PlayerChoices, self.fields["players"]).queryset = players
