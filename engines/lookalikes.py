"""Texts people cannot tell apart: invisible characters, mixed alphabets, look-alike letters.

A name is read by people, at a table or on a board, not compared byte by
byte: ``Los Tigres``, ``Los\\u200b Tigres`` (a zero-width space) and ``Los
Tіgres`` (a Cyrillic ``і``) are one name to anyone who reads them. Unicode's
security mechanisms (UTS #39) give the tools this module applies, with the
confusables data of ``confusable_homoglyphs`` (Unicode's ``confusables.txt``
and the scripts of every character):

invisible
    A character that shows nothing: the format characters (category Cf:
    zero-width spaces and joiners, the BOM, bidirectional marks), Unicode's
    other default-ignorable code points (the Hangul fillers U+115F, U+1160,
    U+3164, U+FFA0, variation selectors, U+034F...) and the braille blank
    U+2800, which Unicode classes as a symbol but prints as a space.
imitation
    A word that mixes alphabets where one of its letters looks like a letter
    of another alphabet in the same word (``јuez1``: a Cyrillic ``ј`` among
    Latin letters). Accents are no alphabet (``Peña``, ``Güiña`` are Latin).
key
    What two names are compared by: compatibility-normalised (NFKC), without
    case or accents, spaces collapsed, and every character replaced by one
    representative of the characters it can be confused with (UTS #39's
    skeleton, taken over the whole class so that the order of the data does
    not matter). Two names with one key are one name.

Plain Python (no Django), like the rest of the engine: ``text.check_text``
refuses invisible characters and imitations in names; the pairs' stored key
and the accounts' check compare keys.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import cache

from confusable_homoglyphs import categories, confusables  # type: ignore[import-untyped]  # ships no types

# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt) outside
# category Cf, and the braille blank.
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Letters of no alphabet of their own: digits, punctuation, combining accents.
_NO_SCRIPT = frozenset({"COMMON", "INHERITED"})


@cache
def invisible(char: str) -> bool:
    """Whether ``char`` shows nothing (a space is not invisible: it separates)."""
    if unicodedata.category(char) == "Cf":
        return True
    point = ord(char)
    return any(low <= point <= high for low, high in _IGNORABLE_RANGES)


def first_invisible(text: str) -> str | None:
    if text.isascii():  # most names: no ASCII character is invisible (controls are refused apart)
        return None
    return next((char for char in text if invisible(char)), None)


def visible(text: str) -> bool:
    """Whether ``text`` shows anything: a character that is neither a space nor invisible."""
    if text.isascii():
        return not text.isspace() and bool(text)
    return any(not char.isspace() and not invisible(char) for char in text)


# The script of a character (one lookup in the library's ranges), kept: a name uses few characters.
_script = cache(categories.alias)


def imitation(text: str) -> str | None:
    """The first letter of ``text`` that imitates a letter of another alphabet in its word, or None."""
    if text.isascii():
        return None
    for word in text.split():
        scripts = Counter(_script(char) for char in set(word))
        for script in _NO_SCRIPT:
            del scripts[script]
        if len(scripts) < 2:
            continue
        # The odd letter out first: in ``Tіgres`` the Cyrillic ``і``, not the Latin ``T``.
        for char in sorted(set(word), key=lambda char: (scripts[_script(char)], word.index(char))):
            script = _script(char)
            others = set(scripts) - {script}
            if script not in _NO_SCRIPT and confusables.is_confusable(char, preferred_aliases=sorted(others)):
                return char
    return None


@cache
def _representatives() -> dict[str, str]:
    """Each confusable character -> the least character of its class (single characters only)."""
    parent: dict[str, str] = {}

    def find(char: str) -> str:
        while parent.setdefault(char, char) != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for char, glyphs in confusables.confusables_data.items():
        for glyph in glyphs:
            # The data wraps right-to-left glyphs in directional marks.
            other = glyph["c"].strip("\u200e\u200f")
            if len(char) == 1 and len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {char: find(char) for char in parent}


def skeleton(text: str) -> str:
    """``text`` with each character replaced by its class's representative (UTS #39 style)."""
    representatives = _representatives()
    return "".join(representatives.get(char, char) for char in text)


def key(text: str) -> str:
    """What ``text`` is compared by as a name; see the module docstring."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    text = "".join(char for char in text if not unicodedata.combining(char) and not invisible(char))
    return " ".join(skeleton(text).casefold().split())
