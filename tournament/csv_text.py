"""What the CSV imports share: reading a file's bytes as text, and its rows under a header of known columns.

A file's separator is ``,`` or ``;``, whichever its first line has more of
(Excel in es-EC writes ``;``); the header names each column once, in any
case and with accents optional; blank lines at the very end are not rows.
"""

import csv
import io
import unicodedata
from collections import Counter

from django.utils.translation import gettext as _

from refereeing.engine.text import printable

# How much of a header's cell a message quotes.
QUOTED = 40


class ImportRefused(Exception):
    """The file as a whole cannot be read."""


class FileRefused(Exception):
    """A file whose ``line`` (1: its header) keeps any row from being read, for ``reason``."""

    def __init__(self, line, reason):
        super().__init__(reason)
        self.line, self.reason = line, reason


def decode(data: bytes):
    """The file's text and a notice when it was not UTF-8."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        raise ImportRefused(
            _('The file is not a text CSV (it looks like UTF-16 or a spreadsheet). Save it from Excel as "CSV UTF-8".')
        )
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError as error:
        bad = data[error.start]
        line = data[: error.start].count(b"\n") + 1
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        raise ImportRefused(
            _(
                "The file is neither UTF-8 nor Windows-1252/Latin-1 (byte 0x%(byte)02X on line %(line)d). "
                'Save it from Excel as "CSV UTF-8".'
            )
            % {"byte": bad, "line": line}
        ) from None
    return text, _(
        "The file is not UTF-8 (byte 0x%(byte)02X on line %(line)d); it was read as "
        "Windows-1252/Latin-1, as Excel saves it. Check the accents below before importing."
    ) % {"byte": bad, "line": line}


def column_key(text):
    """A header as compared: no accents, no case, no spaces around."""
    text = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(c for c in text if not unicodedata.combining(c)).replace(" ", "_")


def table(text, columns, required, too_many):
    """``(header, rows)``: the header's names as compared (:func:`column_key`) and the rows after it, their
    lines numbered from 2. Raises :class:`FileRefused` for a file that cannot be read as CSV, or whose header
    names no column, more than ``columns`` (``too_many`` words it, with ``n``, ``m`` and ``columns``), one
    unknown or twice, or misses one of ``required``."""
    first = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text), delimiter=";" if first.count(";") > first.count(",") else ",")
    try:
        lines = list(reader)
    except csv.Error as error:
        # A cell past the csv module's limit (128 kB), or a quote left open.
        raise FileRefused(
            reader.line_num,
            _("The file cannot be read as CSV here: %(error)s.") % {"error": printable(str(error), 200)},
        ) from None
    named = ", ".join(columns)
    if not lines or not any(cell.strip() for cell in lines[0]):
        raise FileRefused(1, _("The first line must name the columns: %(columns)s.") % {"columns": named})
    if len(lines[0]) > len(columns):
        raise FileRefused(1, too_many % {"n": len(lines[0]), "m": len(columns), "columns": named})
    header = [column_key(cell) for cell in lines[0]]
    unknown = [printable(name, QUOTED) for name, key in zip(lines[0], header) if key not in columns]
    missing = [c for c in required if c not in header]
    repeated = sorted(c for c, n in Counter(header).items() if n > 1 and c in columns)
    if unknown or missing or repeated:
        reasons = []
        if unknown:
            reasons.append(_("unknown columns: %(c)s") % {"c": ", ".join(unknown)})
        if missing:
            reasons.append(_("missing columns: %(c)s") % {"c": ", ".join(missing)})
        if repeated:
            reasons.append(_("repeated columns: %(c)s") % {"c": ", ".join(repeated)})
        raise FileRefused(1, "; ".join(reasons) + ". " + _("The columns are: %(columns)s.") % {"columns": named})
    while len(lines) > 1 and not any(cell.strip() for cell in lines[-1]):
        lines.pop()
    return header, lines[1:]
