"""The signatures on a finished mesa's planilla (Art. 16).

Terms
-----
signature
    A name and a drawing made with a finger on the juez's tablet, sent as a
    PNG data URL (``data:image/png;base64,...``). The representative of each
    pair signs, and the juez; once per role.

A signature is taken only once the mesa is finished: the planilla records
the result the pairs sign. The name is clean text (``engines.text``,
kind ``name``). The image must really be a PNG, small enough to keep in the
database and print on the planilla: at most ``MAX_PNG_BYTES`` bytes,
``MAX_SIDE`` pixels a side and ``MAX_PIXELS`` in all, checked from its
header before it is decoded; then checked whole (``refereeing.png``: every
chunk, every row, one still image, whatever switch another library set in
Pillow) and decoded with Pillow, so that a truncated, corrupt or animated
file is refused; and it must hold a drawing: a box left blank (every pixel
transparent or white) signs nothing.
"""

from __future__ import annotations

import base64
import binascii
import io
import struct
import zlib
from typing import cast

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from PIL import Image

from engines.text import TextError, check_text
from refereeing import png
from refereeing.models import Signature
from tournament.errors import Refusal
from tournament.language import speak
from tournament.models import Mesa

DATA_URL_PREFIX = "data:image/png;base64,"
MAX_PNG_BYTES = 200_000
MAX_SIDE = 2000
MAX_PIXELS = 1_000_000  # the tablet's box is 600 x 220
# The longest data URL such a PNG makes: its prefix and the base64.
MAX_DATA_URL = len(DATA_URL_PREFIX) + (MAX_PNG_BYTES + 2) // 3 * 4
# A pixel darker than this (0 black, 255 white), once drawn on white, is ink.
INK_BELOW = 200


class SignatureError(Refusal):
    """A signature not kept: 400, or 409 when the role has already signed (``conflict``)."""

    code = "signature_refused"

    def __init__(self, message: object, conflict: bool = False) -> None:
        # None: the class's own code and status.
        super().__init__(message, code="already_signed" if conflict else None, status=409 if conflict else None)
        self.conflict = conflict


def sign(mesa: Mesa, role: object, name: object, image: object) -> Signature:
    """Keep the signature of ``role`` at ``mesa``; raises :class:`SignatureError`."""
    if mesa.status != Mesa.Status.FINISHED:
        raise SignatureError(_("The planilla is signed once the mesa is finished."))
    if role not in Signature.Role.values:
        raise SignatureError(_("role must be one of: %(roles)s.") % {"roles": ", ".join(Signature.Role.values)})
    if not isinstance(name, str) or not name.strip():
        raise SignatureError(_("The name of who signs is required."))
    try:
        name = check_text(name, "name", field="name", max_length=Signature._meta.get_field("name").max_length)
    except TextError as error:
        raise SignatureError(speak(error)) from None
    check_png_data_url(image)
    try:
        with transaction.atomic():
            # check_png_data_url refused any image but a PNG data URL.
            return Signature.objects.create(mesa=mesa, role=role, name=name, image=cast(str, image))
    except IntegrityError:
        raise SignatureError(
            _("%(role)s has already signed this planilla.") % {"role": Signature.Role(role).label},
            conflict=True,
        ) from None


def check_png_data_url(value: object) -> None:
    """Raise :class:`SignatureError` unless ``value`` is a small, well-formed PNG data URL."""
    if not isinstance(value, str) or not value.startswith(DATA_URL_PREFIX):
        raise SignatureError(_("The signature must be a PNG image (data:image/png;base64,...)."))
    encoded = value[len(DATA_URL_PREFIX) :]
    if len(value) > MAX_DATA_URL:
        raise SignatureError(_("The signature image is too large."))
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise SignatureError(_("The signature image is not valid base64.")) from None
    # A PNG starts with its magic bytes and then the IHDR chunk, which holds
    # the width and height (PNG specification, section 5.2-5.3).
    if len(data) < 24 or not data.startswith(png.MAGIC) or data[12:16] != b"IHDR":
        raise SignatureError(_("The signature image is not a PNG."))
    width, height = struct.unpack(">II", data[16:24])
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE and width * height <= MAX_PIXELS):
        raise SignatureError(_("The signature image has an impossible size."))
    if not _has_ink(_decoded(data)):
        raise SignatureError(_("The signature box is empty: sign in it first."))


def _decoded(data: bytes) -> Image.Image:
    """The PNG decoded whole, as RGBA; :class:`SignatureError` if it is corrupt, truncated or animated."""
    try:
        png.check_whole(data)
        with Image.open(io.BytesIO(data), formats=["PNG"]) as image:
            image.load()
            return image.convert("RGBA")
    except png.Animated:
        raise SignatureError(_("The signature must be a single still image, not an animation.")) from None
    except (png.Damaged, OSError, SyntaxError, ValueError, zlib.error, Image.DecompressionBombError, EOFError):
        # Pillow says "truncated", "broken PNG file", a CRC error... as these.
        raise SignatureError(_("The signature image is damaged or incomplete; sign again.")) from None


def _has_ink(image: Image.Image) -> bool:
    """True when some pixel, drawn on white, is dark enough to be a stroke."""
    paper = Image.new("RGBA", image.size, (255, 255, 255, 255))
    # An image of one band ("L") has one (darkest, lightest).
    darkest, _lightest = cast("tuple[float, float]", Image.alpha_composite(paper, image).convert("L").getextrema())
    return darkest < INK_BELOW
