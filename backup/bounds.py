"""Reading a file that came from elsewhere within bounds: how deep its JSON nests, how large it unzips.

``json.loads`` descends once per level and ``gzip.decompress`` makes its
whole output at once, so a file of one byte per level, or a megabyte that
unzips to gigabytes, exhausts the stack or the memory before anything can
refuse it. Both are measured here as the file is read, so that refusing
one costs no more than the file itself. Used by ``backup.archive`` (restore)
and ``resolutions.register`` (the import of precedents).
"""

import re
import zlib

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')  # with its escapes: a bracket inside one is text
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")
_PIECE = 1024 * 1024


class OutOfBounds(ValueError):
    """The file nests deeper or unzips larger than allowed; the message says which."""


def check_depth(text: str, limit: int):
    """Refuse JSON ``text`` whose arrays and objects nest deeper than ``limit``, before it is parsed.

    Its brackets outside strings are kept, then the innermost pairs taken
    away one level at a time (each pass a regular expression over them all,
    not a step of Python per character): as many passes as levels. Brackets
    that do not pair are not JSON (ValueError).
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    levels = 0
    while brackets:
        fewer = _INNERMOST.sub("", brackets)
        if len(fewer) == len(brackets):
            raise ValueError("brackets that do not pair")
        levels += 1
        if levels > limit:
            raise OutOfBounds(f"nested deeper than {limit} levels")
        brackets = fewer


def gunzip(data: bytes, limit: int) -> bytearray:
    """The content of one gzip member, refused as soon as it passes ``limit`` bytes (zlib.error if broken).

    Made a megabyte at a time into one growing buffer: zlib's own bounded
    output gathers its pieces and joins them at the end, twice the memory.
    """
    stream = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    content, pending = bytearray(), data
    while not stream.eof:
        piece = stream.decompress(pending, _PIECE)
        content += piece
        if len(content) > limit:
            raise OutOfBounds(f"larger than {limit} bytes once decompressed")
        pending = stream.unconsumed_tail
        if not pending and not piece:
            break  # the input ended before the member did
    if not stream.eof or stream.unused_data:
        raise zlib.error("not one whole gzip member")
    return content
