"""A championship's form: its settings and its rule set, a profile plus one select per setting. Rule checks
live in the engine and the domain modules; the forms of every feature turn their refusals into form errors, and
check every text as clean text of its kind (``tournament.validators``): the models' fields carry the check, the
other fields are ``TextField``s."""

import json
from typing import Any, cast

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from engines.rules.rules import DEFAULT_PROFILE, PROFILES, SETTINGS, RuleSetError, Setting, build_ruleset
from tournament.accounts.accounts import directors
from tournament.language import language, speak
from tournament.models import Championship
from tournament.naming import PersonChoice, profile_name

FROM_PROFILE = ""


# The championship fields that only one bracket format reads.
FORMAT_FIELDS = {
    "third_place": [Championship.Format.SINGLE],
    "group_size": [Championship.Format.ROUND_ROBIN],
    "advance_per_group": [Championship.Format.ROUND_ROBIN],
}


def _encode(value: object) -> str:
    """A setting's value as a form choice: JSON-like text."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _decode(text: str, setting: Setting) -> object:
    for value in setting.choices:
        if _encode(value) == text:
            return value
    raise RuleSetError(f"{setting.name}: {text!r}")


def _choice_label(setting: Setting, value: object) -> str:
    """How the engine words ``value`` in the organiser's table."""
    try:
        rows = build_ruleset("riobamba", {setting.name: value}).describe(language())
    except RuleSetError:
        return str(value)
    label: str = next(row["value"] for row in rows if row["name"] == setting.name)
    return label


class ChampionshipForm(forms.ModelForm[Championship]):
    """A championship and its rule set: a profile plus one select per setting."""

    class Meta:
        model = Championship
        fields = [
            "name",
            "edition",
            "sede",
            "start_date",
            "end_date",
            "director",
            "ruleset_profile",
            "players_per_pair",
            "bracket_format",
            "third_place",
            "group_size",
            "advance_per_group",
            "auto_seating",
            "start_mode",
            "appeal_window_minutes",
            "self_check_in",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }
        field_classes = {"director": PersonChoice}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        director = cast(forms.ModelChoiceField[User], self.fields["director"])
        director.queryset = (directors() | get_user_model().objects.filter(Q(pk=self.instance.director_id))).distinct()
        cast(forms.ChoiceField, self.fields["ruleset_profile"]).choices = [
            (name, profile_name(name)) for name in PROFILES
        ]
        director.help_text = _("Directors are made on the Comité's accounts page.")
        self.fields["sede"].help_text = _("Sedes and their physical tables are made on the Sedes page.")
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
        # A form sent without it (an older page, a script) keeps how the championship starts its mesas.
        self.fields["start_mode"].required = False

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        data["start_mode"] = data.get("start_mode") or self.instance.start_mode
        # The bracket's shape is the model's to refuse (``Championship.DRAW_FIELDS``).
        if "players_per_pair" in self.changed_data and self.instance.pk and self.instance.mesas.exists():
            self.add_error("players_per_pair", _("The bracket is drawn: this can no longer change."))
        overrides: dict[str, object] = {}
        for setting in SETTINGS:
            text = data.get("rule_" + setting.name)
            if text:
                overrides[setting.name] = _decode(text, setting)
        try:
            ruleset = build_ruleset(data.get("ruleset_profile") or "riobamba", overrides)
        except RuleSetError as error:
            raise forms.ValidationError(_("The rule set is not valid: %(error)s") % {"error": speak(error)}) from error
        # Keep only what differs from the profile, so the profile stays the reference.
        data["ruleset_overrides"] = self.instance.ruleset_overrides = ruleset.overrides()
        return data

    def values(self) -> dict[str, Any]:
        """The clean settings as ``championships.save_championship`` takes them."""
        return {name: self.cleaned_data[name] for name in (*self.Meta.fields, "ruleset_overrides")}
