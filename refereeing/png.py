"""A PNG's structure checked whole from its bytes, before Pillow decodes it.

Pillow decides whether a truncated or corrupt image is an error from a module
global, ``PIL.ImageFile.LOAD_TRUNCATED_IMAGES``, and WeasyPrint sets it to
True for the whole process when it is imported: from the first planilla a
worker rendered, Pillow padded a PNG cut short with blank rows and skipped
the CRCs of its ancillary chunks (issue 22). So a signature's file is checked
here, with nothing but the PNG specification (chunks, section 5; IHDR, 11.2.2;
filters, 9; Adam7 interlacing, 8) and zlib: every chunk whole with its CRC,
nothing after IEND, the pixel data one complete zlib stream holding exactly
the rows the header announces, each with a known filter. Animated PNGs
(APNG's acTL, fcTL, fdAT) are refused: a browser plays their frames, and
only the first would have been checked for ink.
"""

import struct
import zlib
from collections.abc import Iterator

MAGIC = b"\x89PNG\r\n\x1a\n"
ANIMATION_CHUNKS = {b"acTL", b"fcTL", b"fdAT"}
# Colour type -> (channels, allowed bit depths) (section 11.2.2, table 11.1).
COLOUR_TYPES = {
    0: (1, {1, 2, 4, 8, 16}),
    2: (3, {8, 16}),
    3: (1, {1, 2, 4, 8}),
    4: (2, {8, 16}),
    6: (4, {8, 16}),
}
# Adam7's passes: first column, first row, column step, row step (section 8.2).
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
LAST_FILTER = 4  # None, Sub, Up, Average, Paeth (section 9.2)


class Damaged(ValueError):
    """The file is not a whole, well-formed PNG."""


class Animated(ValueError):
    """The file is an animated PNG."""


def check_whole(data: bytes) -> None:
    """Raise :class:`Damaged` or :class:`Animated` unless ``data`` is one whole still PNG.

    The caller has bounded the header's width and height: the pixel data is
    inflated up to the size they announce and no further.
    """
    kinds, header, pixels = _chunks(data)
    if kinds & ANIMATION_CHUNKS:
        raise Animated("animated PNG")
    width, height, depth, colour, compression, filtering, interlace = struct.unpack(">IIBBBBB", header)
    channels, depths = COLOUR_TYPES.get(colour, (0, ()))
    if depth not in depths or compression or filtering or interlace > 1:
        raise Damaged("impossible header")
    if colour == 3 and b"PLTE" not in kinds:
        raise Damaged("palette image without a palette")
    rows = list(_scanlines(width, height, depth * channels, interlace))
    expected = sum(count * (1 + length) for count, length in rows)
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(pixels, expected + 1)
    except zlib.error:
        raise Damaged("corrupt pixel data") from None
    if len(raw) != expected or not inflater.eof or inflater.unused_data or inflater.unconsumed_tail:
        raise Damaged("pixel data incomplete or too long")
    position = 0
    for count, length in rows:
        for _ in range(count):
            if raw[position] > LAST_FILTER:
                raise Damaged("unknown filter")
            position += 1 + length


def _chunks(data: bytes) -> tuple[set[bytes], bytes, bytes]:
    """The chunk types seen, IHDR's data and the IDATs' data joined; :class:`Damaged` unless all whole."""
    if not data.startswith(MAGIC):
        raise Damaged("not a PNG")
    position = len(MAGIC)
    kinds: set[bytes] = set()
    header: bytes | None = None
    pixels: list[bytes] = []
    while True:
        if position + 12 > len(data):
            raise Damaged("cut before IEND")
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        end = position + 8 + length
        if end + 4 > len(data):
            raise Damaged("chunk cut short")
        body = data[position + 8 : end]
        if struct.unpack(">I", data[end : end + 4])[0] != zlib.crc32(kind + body):
            raise Damaged("CRC mismatch")
        if header is None and (kind != b"IHDR" or length != 13):
            raise Damaged("IHDR is not first")
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            pixels.append(body)
        kinds.add(kind)
        position = end + 4
        if kind == b"IEND":
            break
    if position != len(data) or header is None:  # the loop ends at IEND, which IHDR came before
        raise Damaged("bytes after IEND")
    return kinds, header, b"".join(pixels)


def _scanlines(width: int, height: int, bits_per_pixel: int, interlace: int) -> Iterator[tuple[int, int]]:
    """(rows, bytes per row without its filter byte) of each pass that has pixels."""
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    for first_column, first_row, column_step, row_step in passes:
        columns = max(0, -(-(width - first_column) // column_step))
        rows = max(0, -(-(height - first_row) // row_step))
        if columns and rows:
            yield rows, -(-(columns * bits_per_pixel) // 8)
