"""Texts people type, checked before anything is stored.

A text is refused when it holds an unpaired surrogate (it cannot be written
as UTF-8), a NUL or another control character (a line break and a tab only
in long texts), or is longer than its field allows.
"""

from django.utils.translation import gettext as _

ALLOWED_IN_LONG_TEXT = {"\n", "\r", "\t"}


class TextError(ValueError):
    """What is wrong with a text, in the request's language."""


def check_text(value, max_length, multiline=False):
    """``value`` stripped, or :class:`TextError`."""
    if not isinstance(value, str):
        raise TextError(_("Expected a text."))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise TextError(_("The text holds a character that cannot be stored.")) from None
    allowed = ALLOWED_IN_LONG_TEXT if multiline else set()
    if any((ord(ch) < 32 or 127 <= ord(ch) < 160) and ch not in allowed for ch in value):
        raise TextError(_("The text holds a control character."))
    value = value.strip()
    if len(value) > max_length:
        raise TextError(_("The text is longer than %(n)d characters.") % {"n": max_length})
    return value
