"""Cells a spreadsheet would run as formulas: guarded on export, given back as they were on import.

Excel and LibreOffice take a cell that begins with ``=``, ``+``, ``-`` or
``@`` (or a tab or a carriage return, which they skip) as a formula, so a
pair named ``=cmd|' /C calc'!A0`` would run on the organiser's computer
when the export is opened (CSV injection). Such a cell is written with a
``'`` in front, which makes it text. To give every text back on import, a
cell that already begins with ``'`` and one of those characters (or a
second ``'``) is guarded too, and the import takes one ``'`` off exactly
those cells: a ``'`` followed by anything else is left as typed.
"""

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
GUARD = "'"


def _guarded(text):
    return text.startswith(GUARD) and text[1:].startswith((*TRIGGERS, GUARD))


def neutralised(cell) -> str:
    """``cell`` as written to a CSV file: never a formula."""
    text = str(cell)
    return GUARD + text if text.startswith(TRIGGERS) or _guarded(text) else text


def restored(cell: str) -> str:
    """A cell read from a CSV file as the text it was before :func:`neutralised`."""
    return cell[1:] if _guarded(cell) else cell
