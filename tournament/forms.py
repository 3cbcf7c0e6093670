"""The organiser's forms. Rule checks live in the engine and the domain modules;
these forms turn their refusals into form errors. Every text is checked as
clean text of its kind (``tournament.validators``): the models' fields
carry the check, the other fields are ``TextField``s."""

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import SetPasswordForm, UserCreationForm
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from audit.models import REASON_MAX
from refereeing.engine.rules import SETTINGS, RuleSetError, build_ruleset
from tournament.language import language, speak

from .accounts import jueces, make_juez
from .models import Championship, Pair, Player
from .naming import mesa_place, person_name
from .pairs_csv import MAX_CSV_BYTES
from .validators import TextField, TextValidator

FROM_PROFILE = ""


def _encode(value):
    """A setting's value as a form choice: JSON-like text."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _decode(text, setting):
    for value in setting.choices:
        if _encode(value) == text:
            return value
    raise RuleSetError(f"{setting.name}: {text!r}")


def _choice_label(setting, value):
    """How the engine words ``value`` in the organiser's table."""
    try:
        rows = build_ruleset("riobamba", {setting.name: value}).describe(language())
    except RuleSetError:
        return str(value)
    return next(row["value"] for row in rows if row["name"] == setting.name)


class ChampionshipForm(forms.ModelForm):
    """A championship and its rule set: a profile plus one select per setting."""

    class Meta:
        model = Championship
        fields = [
            "name", "edition", "venue", "start_date", "end_date", "director", "ruleset_profile",
            "players_per_pair", "bracket_format", "third_place", "group_size", "advance_per_group",
            "tables", "appeal_window_minutes",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["director"].queryset = get_user_model().objects.filter(is_active=True).order_by("username")
        overrides = self.instance.ruleset_overrides or {}
        for setting in SETTINGS:
            label = speak((setting.label_es, setting.label_en))
            self.fields["rule_" + setting.name] = forms.ChoiceField(
                label=f"{label} ({setting.source})", required=False,
                choices=[(FROM_PROFILE, _("as the profile says"))]
                + [(_encode(v), _choice_label(setting, v)) for v in setting.choices],
                initial=_encode(overrides[setting.name]) if setting.name in overrides else FROM_PROFILE,
            )
        # The model refuses a change of rules once a mesa started
        # (``Championship.check_rules_unchanged``); the page says so first.
        self.started = self.instance.started_mesa()
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean(self):
        data = super().clean()
        if self.instance.pk and self.instance.mesas.exists():
            for name in ("bracket_format", "players_per_pair", "third_place", "group_size"):
                if name in self.changed_data:
                    self.add_error(name, _("The bracket is drawn: this can no longer change."))
        overrides = {}
        for setting in SETTINGS:
            text = data.get("rule_" + setting.name)
            if text:
                overrides[setting.name] = _decode(text, setting)
        try:
            ruleset = build_ruleset(data.get("ruleset_profile") or "riobamba", overrides)
        except RuleSetError as error:
            raise forms.ValidationError(_("The rule set is not valid: %(error)s") % {"error": speak(error)}) from error
        # Keep only what differs from the profile, so the profile stays the reference.
        self.instance.ruleset_overrides = ruleset.overrides()
        return data


class PairForm(forms.ModelForm):
    """A pair and its players, saved together."""

    player1_name = TextField("name", label=_("Player 1: full name"))
    player1_id = TextField("line", label=_("Player 1: ID number"), max_length=20, required=False)
    player1_phone = TextField("line", label=_("Player 1: phone"), max_length=30, required=False)
    player2_name = TextField("name", label=_("Player 2: full name"), required=False)
    player2_id = TextField("line", label=_("Player 2: ID number"), max_length=20, required=False)
    player2_phone = TextField("line", label=_("Player 2: phone"), max_length=30, required=False)
    representative = forms.TypedChoiceField(
        label=_("Representative"), coerce=int, choices=[(1, _("Player 1")), (2, _("Player 2"))], initial=1,
    )

    class Meta:
        model = Pair
        fields = ["name", "club", "seed", "checked_in"]

    def __init__(self, *args, championship, **kwargs):
        super().__init__(*args, **kwargs)
        self.championship = championship
        self.instance.championship = championship
        if self.instance.pk:
            for player in self.instance.players.all():
                n = player.number
                self.initial.update({
                    f"player{n}_name": player.full_name, f"player{n}_id": player.id_number,
                    f"player{n}_phone": player.phone,
                })
                if player.is_representative:
                    self.initial["representative"] = n
        if championship.players_per_pair == 1:
            for name in ("player2_name", "player2_id", "player2_phone", "representative"):
                del self.fields[name]
        else:
            self.fields["player2_name"].required = True
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        others = self.championship.pairs.exclude(pk=self.instance.pk)
        if others.filter(name__iexact=name).exists():
            raise forms.ValidationError(_("A pair named \"%(name)s\" is already registered.") % {"name": name})
        return name

    def clean_seed(self):
        seed = self.cleaned_data["seed"]
        if seed is not None and self.championship.pairs.exclude(pk=self.instance.pk).filter(seed=seed).exists():
            raise forms.ValidationError(_("Seed %(seed)d is already taken.") % {"seed": seed})
        return seed

    def clean(self):
        data = super().clean()
        # A player plays in one pair of a championship (by ID number).
        numbers = [data.get(f"player{n}_id") for n in (1, 2) if data.get(f"player{n}_id")]
        if len(numbers) == 2 and numbers[0] == numbers[1]:
            self.add_error("player2_id", _("Both players have the same ID number."))
        taken = (Player.objects.filter(pair__championship=self.championship, id_number__in=numbers)
                 .exclude(pair=self.instance.pk).select_related("pair").first())
        if taken:
            raise forms.ValidationError(_("ID number %(id)s already plays in the pair \"%(pair)s\".")
                                        % {"id": taken.id_number, "pair": taken.pair})
        return data

    @transaction.atomic
    def save(self, commit=True):
        pair = super().save()
        count = self.championship.players_per_pair
        representative = self.cleaned_data.get("representative", 1)
        pair.players.filter(number__gt=count).delete()
        # Clear the representative first: the constraint allows one at a time.
        pair.players.update(is_representative=False)
        for n in range(1, count + 1):
            Player.objects.update_or_create(pair=pair, number=n, defaults={
                "full_name": self.cleaned_data[f"player{n}_name"],
                "id_number": self.cleaned_data[f"player{n}_id"],
                "phone": self.cleaned_data[f"player{n}_phone"],
                "is_representative": n == representative,
            })
        return pair


class ImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), required=False)
    # The previewed text, sent back on confirmation and checked again.
    text = forms.CharField(widget=forms.HiddenInput, required=False, max_length=MAX_CSV_BYTES)

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload and upload.size > MAX_CSV_BYTES:
            raise forms.ValidationError(_("The file is too large: at most %(n)d kB.") % {"n": MAX_CSV_BYTES // 1024})
        return upload


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Draw seed"), required=False, min_value=0, max_value=2**62,
        help_text=_("Leave empty for a new random draw; give a previous seed to reproduce it."),
    )


class JuezChoice(forms.ModelChoiceField):
    """A juez by full name, with the mesa (of any championship) the juez is busy with."""

    def __init__(self, busy, mesa, **kwargs):
        self.busy, self.mesa = busy, mesa
        super().__init__(queryset=jueces(), **kwargs)

    def label_from_instance(self, juez):
        held = self.busy.get(juez.pk)
        if held is None or held.pk == self.mesa.pk:
            return person_name(juez)
        return _("%(juez)s (busy: %(mesa)s)") % {"juez": person_name(juez), "mesa": mesa_place(held)}


class TableForm(forms.Form):
    table_number = forms.IntegerField(label=_("Table"), required=False, min_value=1)

    def __init__(self, *args, busy, mesa, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["juez"] = JuezChoice(busy, mesa, label=_("Juez"), required=False)


class ReasonField(TextField):
    """Why a result was recorded or corrected: kept in the audit trail (``audit``)."""

    def __init__(self):
        super().__init__("reason", label=_("Reason (kept in the audit trail)"), max_length=REASON_MAX,
                         required=False, widget=forms.Textarea(attrs={"rows": 2}))


class MesaPairsForm(forms.Form):
    """A form about one mesa whose ``winner`` is chosen among its pairs, by name."""

    def __init__(self, *args, mesa, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [(side, f"{side} · {mesa.pair(side) or '—'}") for side in ("A", "B")]


class WalkoverForm(MesaPairsForm):
    winner = forms.ChoiceField(label=_("Pair present (wins)"), widget=forms.RadioSelect)
    reason = ReasonField()


class CorrectionForm(MesaPairsForm):
    winner = forms.ChoiceField(label=_("Winner"), widget=forms.RadioSelect)
    chicas_a = forms.IntegerField(label=_("Chicas of pair A"), min_value=0, max_value=3)
    chicas_b = forms.IntegerField(label=_("Chicas of pair B"), min_value=0, max_value=3)
    zapateria = forms.BooleanField(label=_("Zapatería"), required=False)
    override = forms.BooleanField(
        label=_("Director's override: correct even though a later mesa has started"), required=False,
    )
    reason = ReasonField()


class JuezForm(UserCreationForm):
    """A new juez's account: the name the tables and planillas show, a username and a password."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("first_name", "last_name", "username")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("first_name", "last_name"):
            self.fields[name].required = True
            self.fields[name].validators.append(TextValidator("name"))
        self.helper = FormHelper()
        self.helper.form_tag = False

    def save(self):
        with transaction.atomic():
            user = super().save()
            make_juez(user)
        return user


class JuezPasswordForm(SetPasswordForm):
    """A juez's new password, set by an organiser (a forgotten one, or a lost tablet)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_tag = False
