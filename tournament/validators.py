"""The text check of ``engines.text`` as Django validators and form fields.

One check for every text a person types: the engine's claim parser, the
API's domain modules and these forms all call ``check_text``; this module only
turns its refusal into Django's ``ValidationError`` in the request's
language. Model fields carry :class:`TextValidator` (so the admin's and
every ``ModelForm``'s fields are checked); a plain form's text is a
:class:`TextField`, which also keeps the text as checked (stripped, its
newlines normalised). :class:`UsernameValidator` is put on the accounts'
``username`` by ``tournament.apps``, so that every form that makes or
renames an account, the admin's too, refuses a username people cannot tell
from another.
"""

import unicodedata

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext as _

from engines import lookalikes
from engines.text import KINDS, TextError, check_text

from .language import speak


@deconstructible
class TextValidator:
    """Refuse a text that is not clean text of ``kind`` (see ``engines.text``)."""

    def __init__(self, kind):
        self.kind = kind

    def __call__(self, value):
        clean(value, self.kind, required=False)

    def __eq__(self, other):
        return isinstance(other, TextValidator) and other.kind == self.kind


def clean(value, kind, required=True, max_length=None):
    """``value`` checked and cleaned as ``kind``; ``ValidationError`` in the request's language."""
    try:
        return check_text(value, kind, required=required, max_length=max_length)
    except TextError as error:
        raise ValidationError(speak(error), code=error.code) from None


class TextField(forms.CharField):
    """A form's text of one kind: its limit as ``maxlength``, cleaned by the engine's check."""

    def __init__(self, kind, **kwargs):
        self.kind = kind
        spec = KINDS[kind]
        kwargs["max_length"] = min(kwargs.get("max_length") or spec.max_length, spec.max_length)
        if spec.multiline:
            kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 3}))
        super().__init__(**kwargs)

    def clean(self, value):
        value = super().clean(value)
        if value in self.empty_values:
            return value
        return clean(value, self.kind, required=self.required, max_length=self.max_length)

    def to_python(self, value):
        value = super().to_python(value)
        # The browser's \r\n counts as one character against the limit, as
        # the engine counts it.
        if KINDS[self.kind].multiline and isinstance(value, str):
            value = value.replace("\r\n", "\n").replace("\r", "\n")
        return value


@deconstructible
class UsernameValidator:
    """A username with no invisible character, no word mixing alphabets with a
    look-alike letter, and no other account's that reads the same
    (``lookalikes.key``: ``juez1`` and ``juezl``, ``Juez1`` and ``јuez1``)."""

    def __call__(self, value):
        # Checked as Django keeps it (``normalize_username``: NFKC).
        value = unicodedata.normalize("NFKC", value)
        hidden = lookalikes.first_invisible(value)
        if hidden:
            raise ValidationError(speak(TextError("invisible", "name", char=ord(hidden))), code="invisible")
        letter = lookalikes.imitation(value)
        if letter:
            error = TextError("imitation", "name", letter=letter, char=ord(letter))
            raise ValidationError(speak(error), code="imitation")
        key = lookalikes.key(value)
        # The accounts are a few hundred at most: their keys are computed here, not stored.
        for other in get_user_model().objects.exclude(username=value).values_list("username", flat=True).iterator():
            if lookalikes.key(other) == key:
                raise ValidationError(
                    _('An account named "%(other)s" already exists, which reads the same.') % {"other": other},
                    code="lookalike",
                )

    def __eq__(self, other):
        return isinstance(other, UsernameValidator)
