"""The forms of the resolutions' page; the rules are ``resolutions.register``'s."""

from django import forms
from django.utils.translation import gettext_lazy as _

from refereeing.claimlog.log import OPEN_STATUSES
from tournament.naming import mesa_label

from .models import ARTICLES_MAX, RULING_MAX, SITUATION_MAX
from .register import AJUSTE_MAX, IMPORT_MAX_BYTES


class MesaChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, mesa):
        return f"{mesa_label(mesa)} · {mesa.pair_a or '—'} – {mesa.pair_b or '—'}"


class OneMesaChoice(forms.ModelChoiceField):
    def label_from_instance(self, mesa):
        return f"{mesa_label(mesa)} · {mesa.pair_a or '—'} – {mesa.pair_b or '—'}"


class ResolutionForm(forms.Form):
    situation = forms.CharField(
        label=_("Situation"), max_length=SITUATION_MAX, widget=forms.Textarea(attrs={"rows": 3})
    )
    ruling = forms.CharField(label=_("Ruling"), max_length=RULING_MAX, widget=forms.Textarea(attrs={"rows": 3}))
    articles = forms.CharField(
        label=_("Articles it interprets"),
        max_length=ARTICLES_MAX,
        required=False,
        help_text=_("For example: Art. 18; 002 Art. 9"),
    )
    mesas = MesaChoice(
        label=_("Mesas concerned"), queryset=None, required=False, widget=forms.SelectMultiple(attrs={"size": 6})
    )
    ajuste_mesa = OneMesaChoice(label=_("Adjust the points at mesa"), queryset=None, required=False)
    ajuste_pair = forms.ChoiceField(label=_("of pair"), required=False, choices=[("", "—"), ("A", "A"), ("B", "B")])
    ajuste_points = forms.IntegerField(
        label=_("Points (negative to take away)"), required=False, min_value=-AJUSTE_MAX, max_value=AJUSTE_MAX
    )

    def __init__(self, championship, *args, **kwargs):
        super().__init__(*args, **kwargs)
        mesas = championship.mesas.select_related("pair_a", "pair_b").order_by("round", "bracket", "position")
        self.fields["mesas"].queryset = mesas.exclude(pair_a=None, pair_b=None)
        self.fields["ajuste_mesa"].queryset = mesas.filter(status__in=OPEN_STATUSES)

    def clean(self):
        data = super().clean()
        parts = [data.get("ajuste_mesa"), data.get("ajuste_pair"), data.get("ajuste_points")]
        if any(p not in (None, "") for p in parts) and not all(p not in (None, "") for p in parts):
            raise forms.ValidationError(_("An adjustment needs the mesa, the pair and the points."))
        data["ajuste"] = tuple(parts) if all(p not in (None, "") for p in parts) else None
        return data


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Export of an earlier championship (JSON)"),
        help_text=_(
            "At most 1 MB and 1,000 resolutions. Precedents the register already holds are recognised "
            "and left as they are."
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > IMPORT_MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 1 MB."))
        return upload
