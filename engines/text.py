"""Text a person typed, checked whole before anything keeps it.

Every text that can reach the database (a claim's reason, who signs, an
appeal, the Director's ruling, pairs and players, accounts, the
championship) passes :func:`check_text` first; a text that fails is refused
whole, never trimmed or repaired behind the writer's back. Plain Python
with no Django import, so that the engine's claim parser uses it as the
forms and the API do (through ``tournament.validators``).

Terms
-----
kind
    What a text is for, which fixes its limits (:data:`KINDS`): ``name``
    (a person, a pair, a club: 120 characters, one line), ``line`` (any
    other one-line text: 200), ``reason`` (why an ajuste or an appeal: 500,
    several lines), ``ruling`` (the Director's words: 2000, several lines),
    ``card`` (a card as the levante checker reads it: 8).
clean text
    No unpaired surrogate (a half of a UTF-16 pair that no encoding can
    write: it would make every page that shows it fail), no control
    character (NUL, escape, tab...: U+0000-U+001F, U+007F-U+009F), no line
    or paragraph separator and no bidirectional override or isolate
    (U+202A-U+202E, U+2066-U+2069: they make a printed name read other than
    it is written). Newlines only in a kind of several lines, where
    ``\\r\\n`` and ``\\r`` (what browsers send from a textarea) count as one
    ``\\n``. Spaces around the text are dropped; an empty text is refused
    unless it may be left out. A text made only of spaces and invisible
    characters (``lookalikes.invisible``: zero-width spaces, Hangul fillers,
    the braille blank...) is empty.
one-line texts
    Kinds ``name`` and ``line`` are kept in Unicode's compatibility form
    (NFKC: a full-width ``Ａ`` is ``A``, a no-break space a space) and hold
    no invisible character at all. A name's spaces are collapsed to one, and
    no word of it mixes alphabets with a letter that imitates another
    (``lookalikes.imitation``: a Cyrillic ``і`` among Latin letters); accents
    and Spanish letters (ñ, á, ü) are Latin.
length
    Counted in characters (code points) once the newlines are normalised
    and the text stripped.

Stored text read back for display goes through :func:`printable`, which
never fails: whatever an older version or a hand-written row left in the
database shows as U+FFFD where it is not clean, and is cut at a limit.

Messages come in Spanish and English (:meth:`TextError.message`), like the
rest of the engine's.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from . import lookalikes


@dataclass(frozen=True)
class Kind:
    max_length: int
    multiline: bool


KINDS = {
    "name": Kind(120, False),
    "line": Kind(200, False),
    "reason": Kind(500, True),
    "ruling": Kind(2000, True),
    "card": Kind(8, False),
}
# The kinds kept in compatibility form, with no invisible character.
ONE_LINE = frozenset({"name", "line"})

_SURROGATE = re.compile("[\ud800-\udfff]")
# Controls other than the newline, line and paragraph separators, and the
# bidirectional embeddings, overrides and isolates.
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NEWLINES = re.compile("\r\n?")
_UNPRINTABLE = re.compile("[\ud800-\udfff\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

# code -> (Spanish, English); {field} and {limit} are filled in.
MESSAGES = {
    "not_text": ("debe ser un texto", "must be text"),
    "empty": ("no puede quedar vacío", "cannot be empty"),
    "too_long": ("es demasiado largo (máximo {limit} caracteres)", "is too long (at most {limit} characters)"),
    "surrogate": (
        "tiene un carácter que no es texto válido (un sustituto UTF-16 suelto)",
        "holds a character that is not valid text (an unpaired UTF-16 surrogate)",
    ),
    "control": (
        "tiene un carácter de control (U+{char:04X}), que no se admite",
        "holds a control character (U+{char:04X}), which is not allowed",
    ),
    "newline": ("debe ser una sola línea", "must be a single line"),
    "invisible": (
        "tiene un carácter invisible (U+{char:04X}), que no se admite",
        "holds an invisible character (U+{char:04X}), which is not allowed",
    ),
    "imitation": (
        "mezcla alfabetos: «{letter}» (U+{char:04X}) imita una letra de otro alfabeto",
        "mixes alphabets: '{letter}' (U+{char:04X}) imitates a letter of another alphabet",
    ),
}


class TextError(ValueError):
    """A text refused by :func:`check_text`: ``code``, and the field it was."""

    def __init__(self, code: str, kind: str, field: str | None = None, **details: Any) -> None:
        self.code, self.kind, self.field = code, kind, field
        self.details = {"limit": KINDS[kind].max_length, "char": 0, "letter": "", **details}
        super().__init__(self.message("en"))

    def message(self, language: str = "es") -> str:
        """The reason in ``language`` ("es" or "en"), naming the field when known."""
        spanish = not language.startswith("en")
        text = MESSAGES[self.code][0 if spanish else 1].format(**self.details)
        if self.field is None:
            return f"El texto {text}." if spanish else f"The text {text}."
        return f"«{self.field}» {text}." if spanish else f"'{self.field}' {text}."

    @property
    def spanish(self) -> str:
        return self.message("es")

    @property
    def english(self) -> str:
        return self.message("en")


def check_text(
    value: object, kind: str, field: str | None = None, required: bool = True, max_length: int | None = None
) -> str:
    """``value`` as it is kept: stripped, newlines normalised; or :class:`TextError`.

    ``kind`` is a key of :data:`KINDS`; ``field`` names the text in the
    message; ``required`` refuses an empty text; ``max_length`` lowers the
    kind's limit (a column that holds less).
    """
    spec = KINDS[kind]
    limit = spec.max_length if max_length is None else min(max_length, spec.max_length)
    if type(value) is not str:
        raise TextError("not_text", kind, field)
    if spec.multiline:
        value = _NEWLINES.sub("\n", value)
    value = value.strip()
    if not lookalikes.visible(value):
        if required:
            raise TextError("empty", kind, field)
        return ""
    if len(value) > limit:
        raise TextError("too_long", kind, field, limit=limit)
    if _SURROGATE.search(value):
        raise TextError("surrogate", kind, field)
    control = _CONTROL.search(value)
    if control:
        raise TextError("control", kind, field, char=ord(control.group()))
    if not spec.multiline and "\n" in value:
        raise TextError("newline", kind, field)
    if kind in ONE_LINE:
        value = _one_line(value, kind, field, limit)
    return value


def _one_line(value: str, kind: str, field: str | None, limit: int) -> str:
    """A checked one-line text in compatibility form; see the module docstring."""
    hidden = lookalikes.first_invisible(value)
    if hidden:
        raise TextError("invisible", kind, field, char=ord(hidden))
    # NFKC can lengthen a text (one ligature becomes several letters): its limit is checked again.
    value = unicodedata.normalize("NFKC", value).strip()
    if kind == "name":
        value = " ".join(value.split())
    if len(value) > limit:
        raise TextError("too_long", kind, field, limit=limit)
    letter = lookalikes.imitation(value) if kind == "name" else None
    if letter:
        raise TextError("imitation", kind, field, letter=letter, char=ord(letter))
    return value


def printable(value: object, limit: int | None = None) -> str:
    """Stored ``value`` made safe to show and print: never fails.

    What :func:`check_text` would refuse (surrogates, controls) shows as
    U+FFFD, newlines stay; past ``limit`` characters the text is cut and
    ends with an ellipsis.
    """
    if value is None:
        return ""
    value = value if isinstance(value, str) else str(value)
    if limit is not None and len(value) > limit:
        value = value[: max(limit - 1, 0)] + "…"
    return _UNPRINTABLE.sub("\ufffd", value)
