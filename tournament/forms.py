"""The organiser's forms. Rule checks live in the engine and the domain modules;
these forms turn their refusals into form errors. Every text is checked as
clean text of its kind (``tournament.validators``): the models' fields
carry the check, the other fields are ``TextField``s."""

import json

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import SetPasswordForm, UserCreationForm
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from audit.models import REASON_MAX
from refereeing.engine.lookalikes import key as name_key
from refereeing.engine.rules import DEFAULT_PROFILE, PROFILES, SETTINGS, RuleSetError, build_ruleset
from tournament.language import language, speak

from .accounts import directors, give_role, jueces, make_juez
from .models import Championship, Pair, Player
from .naming import mesa_place, person_name
from .pairs_csv import MAX_CSV_BYTES
from .validators import TextField, TextValidator, clean

FROM_PROFILE = ""
# The championship fields that only one bracket format reads.
FORMAT_FIELDS = {
    "third_place": [Championship.Format.SINGLE],
    "group_size": [Championship.Format.ROUND_ROBIN],
    "advance_per_group": [Championship.Format.ROUND_ROBIN],
}


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
            "name",
            "edition",
            "venue",
            "start_date",
            "end_date",
            "director",
            "ruleset_profile",
            "players_per_pair",
            "bracket_format",
            "third_place",
            "group_size",
            "advance_per_group",
            "tables",
            "appeal_window_minutes",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        director = self.fields["director"]
        director.queryset = (directors() | get_user_model().objects.filter(pk=self.instance.director_id)).distinct()
        director.label_from_instance = person_name
        director.help_text = _("Directors are made on the Comité's accounts page.")
        overrides = self.instance.ruleset_overrides or {}
        # What each profile says of each setting, in the request's language: the
        # "as the profile says" choice names the chosen profile's value, and the
        # page's script (championship_form.js) renames it when the profile changes.
        profile = self.data.get("ruleset_profile") or self.instance.ruleset_profile or DEFAULT_PROFILE
        said = {name: {row["name"]: row for row in build_ruleset(name).describe(language())} for name in PROFILES}
        profile = profile if profile in said else DEFAULT_PROFILE
        for setting in SETTINGS:
            label = speak((setting.label_es, setting.label_en))
            by_profile = {
                name: str(_("as the profile says: %(value)s") % {"value": rows[setting.name]["value"]})
                for name, rows in said.items()
            }
            self.fields["rule_" + setting.name] = forms.ChoiceField(
                label=f"{label} ({said[profile][setting.name]['source']})",
                required=False,
                choices=[(FROM_PROFILE, by_profile[profile])]
                + [(_encode(v), _choice_label(setting, v)) for v in setting.choices],
                initial=_encode(overrides[setting.name]) if setting.name in overrides else FROM_PROFILE,
                widget=forms.Select(attrs={"data-by-profile": json.dumps(by_profile, ensure_ascii=False)}),
            )
        # Fields of one format only: the page's script hides the others (the server reads them all).
        for name, formats in FORMAT_FIELDS.items():
            self.fields[name].widget.attrs["data-formats"] = " ".join(formats)
        # The model refuses a change of rules once a mesa started
        # (``Championship.check_unchanged``); the page says so first.
        self.started = self.instance.started_mesa()
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean(self):
        data = super().clean()
        # The bracket's shape is the model's to refuse (``Championship.DRAW_FIELDS``).
        if "players_per_pair" in self.changed_data and self.instance.pk and self.instance.mesas.exists():
            self.add_error("players_per_pair", _("The bracket is drawn: this can no longer change."))
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
        label=_("Representative"),
        coerce=int,
        choices=[(1, _("Player 1")), (2, _("Player 2"))],
        initial=1,
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
                self.initial.update(
                    {
                        f"player{n}_name": player.full_name,
                        f"player{n}_id": player.id_number,
                        f"player{n}_phone": player.phone,
                    }
                )
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
        # Kept as the check leaves it (NFKC, one space), compared as the database does (``Pair.name_key``).
        name = clean(self.cleaned_data["name"], "name")
        others = self.championship.pairs.exclude(pk=self.instance.pk)
        if others.filter(name_key=name_key(name)).exists():
            raise forms.ValidationError(_('A pair named "%(name)s" is already registered.') % {"name": name})
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
        taken = (
            Player.objects.filter(pair__championship=self.championship, id_number__in=numbers)
            .exclude(pair=self.instance.pk)
            .select_related("pair")
            .first()
        )
        if taken:
            raise forms.ValidationError(
                _('ID number %(id)s already plays in the pair "%(pair)s".')
                % {"id": taken.id_number, "pair": taken.pair}
            )
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
            Player.objects.update_or_create(
                pair=pair,
                number=n,
                defaults={
                    "full_name": self.cleaned_data[f"player{n}_name"],
                    "id_number": self.cleaned_data[f"player{n}_id"],
                    "phone": self.cleaned_data[f"player{n}_phone"],
                    "is_representative": n == representative,
                },
            )
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
        label=_("Draw seed"),
        required=False,
        min_value=0,
        max_value=2**62,
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
        super().__init__(
            "reason",
            label=_("Reason (kept in the audit trail)"),
            max_length=REASON_MAX,
            required=False,
            widget=forms.Textarea(attrs={"rows": 2}),
        )


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
        label=_("Director's override: correct even though a later mesa has started"),
        required=False,
    )
    reason = ReasonField()


class AccountForm(UserCreationForm):
    """A new account: the name the pages and planillas show, a username and a password."""

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
            self.give_role(user)
        return user


class JuezForm(AccountForm):
    """A juez's account, made by an organiser."""

    def give_role(self, user):
        make_juez(user)


class RoleAccountForm(AccountForm):
    """An organiser's or a Director's account, made by the Comité's administrator."""

    role = forms.ChoiceField(
        label=_("Role"), widget=forms.RadioSelect, choices=[("organiser", _("Organiser")), ("director", _("Director"))]
    )

    def give_role(self, user):
        give_role(user, self.cleaned_data["role"])


class JuezPasswordForm(SetPasswordForm):
    """A juez's new password, set by an organiser (a forgotten one, or a lost tablet)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_tag = False
