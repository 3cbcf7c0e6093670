"""The organisers' CSV files, read and written one way for every import and export (pairs, jueces).

Reading
-------
A file is bytes of a bounded size (each import states its own); its text is
UTF-8 (with or without BOM) first; a file that is not UTF-8 is read as
Windows-1252 (Excel's "CSV" on Windows, a superset of Latin-1), and the
preview says so, so that the organiser checks the accents. A file that is
neither (binary, UTF-16) is refused as a whole. The separator is ``;`` or
``,``, whichever the first line has more of (Excel in es-EC writes ``;``).
A header names the columns in Spanish, compared without case, accents or
the spaces around (:func:`header_key`).

Writing
-------
In one of two styles (:data:`STYLES`): ``excel`` (the default) for Excel
as Ecuador sets it up, UTF-8 with a BOM (without one Excel reads "Guamán"
as "GuamÃ¡n"), ``;`` between cells (Excel in es-EC takes ``,`` as the
decimal mark and puts a whole row in one column) and CRLF line ends;
``plain``, UTF-8 with ``,``, for other programs. The imports read both back.

Formulas
--------
Excel and LibreOffice take a cell that begins with ``=``, ``+``, ``-`` or
``@`` (or a tab or a carriage return, which they skip) as a formula, so a
pair named ``=cmd|' /C calc'!A0`` would run on the organiser's computer
when the export is opened (CSV injection). Such a cell is written with a
``'`` in front, which makes it text (:func:`neutralised`). To give every
text back on import, a cell that already begins with ``'`` and one of those
characters (or a second ``'``) is guarded too, and the import takes one
``'`` off exactly those cells (:func:`restored`): a ``'`` followed by
anything else is left as typed.
"""

import csv
import io
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from django.utils.translation import gettext as _

from engines.text import printable
from tournament.errors import Refusal

# How much of a header cell or a bad value a message quotes.
QUOTED = 40
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
GUARD = "'"

STYLES = {
    # style: (separator, BOM first)
    "excel": (";", True),
    "plain": (",", False),
}


class ImportRefused(Refusal):
    """The file as a whole cannot be read."""

    code = "import_refused"


class Unreadable(Exception):
    """The text is not CSV the ``csv`` module reads (a cell past its limit of 128 kB, a quote left open): the
    line it stopped at, and why."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line


Row = TypeVar("Row")


@dataclass
class Preview(Generic[Row]):
    """What an import would do: its good rows, its bad lines with why (``(line, message)``), the text read and
    a notice about how it was read; nothing is saved."""

    rows: list[Row] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    text: str = ""
    notice: str = ""

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not self.errors


def _guarded(text: str) -> bool:
    return text.startswith(GUARD) and text[1:].startswith((*TRIGGERS, GUARD))


def neutralised(cell: object) -> str:
    """``cell`` as written to a CSV file: never a formula."""
    text = str(cell)
    return GUARD + text if text.startswith(TRIGGERS) or _guarded(text) else text


def restored(cell: str) -> str:
    """A cell read from a CSV file as the text it was before :func:`neutralised`."""
    return cell[1:] if _guarded(cell) else cell


def decode(data: bytes) -> tuple[str, str]:
    """The file's text and a notice when it was not UTF-8 (see *Reading*)."""
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


def header_key(text: str) -> str:
    """A header as compared: no accents, no case, no spaces around (inner spaces are ``_``)."""
    text = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(c for c in text if not unicodedata.combining(c)).replace(" ", "_")


def lines(text: str) -> list[list[str]]:
    """The rows of ``text`` as lists of cells, the blank lines at its very end left out; :class:`Unreadable`
    when the ``csv`` module cannot read it."""
    first = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text), delimiter=";" if first.count(";") > first.count(",") else ",")
    try:
        rows = list(reader)
    except csv.Error as error:
        raise Unreadable(
            reader.line_num,
            _("The file cannot be read as CSV here: %(error)s.") % {"error": printable(str(error), 200)},
        ) from None
    while len(rows) > 1 and not any(cell.strip() for cell in rows[-1]):
        rows.pop()
    return rows


def write(style: str, header: Sequence[str], rows: Iterable[Iterable[object]]) -> bytes:
    """``rows`` under ``header``, as a CSV file of ``style`` (:data:`STYLES`); the rows' cells are
    :func:`neutralised`."""
    separator, bom = STYLES[style]
    out = io.StringIO()
    writer = csv.writer(out, delimiter=separator, lineterminator="\r\n" if bom else "\n")
    writer.writerow(header)
    writer.writerows([neutralised(cell) for cell in row] for row in rows)
    return out.getvalue().encode("utf-8-sig" if bom else "utf-8")


class Readable(Protocol):
    """What :func:`records` reads a file from and writes its refusals to: an import's preview."""

    text: str
    errors: list[tuple[int, str]]


def records(
    preview: Readable,
    columns: Sequence[str],
    required: Iterable[str],
    most: int,
    too_many: Callable[[int], str],
) -> list[tuple[int, dict[str, str]]] | None:
    """The rows of ``preview.text`` under a header naming ``columns`` (``required`` among them), as
    ``[(line, {column: text})]`` with every column (empty where the file has none), each cell
    :func:`restored`; ``None`` when the file as a whole is refused: unreadable, a header that names an unknown,
    repeated or missing column, or more than ``most`` rows (``too_many(rows)`` says why). Empty rows, and rows
    of another length than the header, are left out. Every refusal goes to ``preview.errors``: the file's
    bounds are checked before its rows, so a file of the largest size is refused in one pass."""
    try:
        rows = lines(preview.text)
    except Unreadable as error:
        preview.errors.append((error.line, str(error)))
        return None
    names = ", ".join(columns)
    if not rows or not any(cell.strip() for cell in rows[0]):
        preview.errors.append((1, _("The first line must name the columns: %(columns)s.") % {"columns": names}))
        return None
    if len(rows[0]) > len(columns):
        preview.errors.append(
            (
                1,
                _("The first line has %(n)d columns; this file has at most %(m)d: %(columns)s.")
                % {"n": len(rows[0]), "m": len(columns), "columns": names},
            )
        )
        return None
    header = [header_key(cell) for cell in rows[0]]
    unknown = [printable(name, QUOTED) for name, key in zip(rows[0], header) if key not in columns]
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
        preview.errors.append((1, "; ".join(reasons) + ". " + _("The columns are: %(columns)s.") % {"columns": names}))
        return None
    if len(rows) - 1 > most:
        preview.errors.append((1, too_many(len(rows) - 1)))
        return None
    found: list[tuple[int, dict[str, str]]] = []
    for line, cells in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in cells):
            preview.errors.append((line, _("empty row")))
        elif len(cells) != len(header):
            preview.errors.append((line, _("%(n)d cells; the header has %(m)d") % {"n": len(cells), "m": len(header)}))
        else:
            values = dict.fromkeys(columns, "")
            values.update({key: restored(cell.strip()) for key, cell in zip(header, cells)})
            found.append((line, values))
    return found
