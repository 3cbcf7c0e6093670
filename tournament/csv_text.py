"""What the CSV imports share: reading a file's bytes as text, and a header's name as compared."""

import unicodedata

from django.utils.translation import gettext as _


class ImportRefused(Exception):
    """The file as a whole cannot be read."""


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
