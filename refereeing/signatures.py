"""The signatures on a finished mesa's planilla (Art. 16).

Terms
-----
signature
    A name and a drawing made with a finger on the juez's tablet, sent as a
    PNG data URL (``data:image/png;base64,...``). The representative of each
    pair signs, and the juez; once per role.

A signature is taken only once the mesa is finished: the planilla records
the result the pairs sign. The image must really be a PNG, small enough to
keep in the database and print on the planilla.
"""

import base64
import binascii
import struct

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from refereeing.models import Signature
from tournament.models import Mesa

DATA_URL_PREFIX = "data:image/png;base64,"
MAX_PNG_BYTES = 200_000
MAX_SIDE = 4000
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class SignatureError(Exception):
    def __init__(self, message, conflict=False):
        super().__init__(message)
        self.message = message
        self.conflict = conflict  # True when the role has already signed


def sign(mesa, role, name, image):
    """Keep the signature of ``role`` at ``mesa``; raises :class:`SignatureError`."""
    if mesa.status != Mesa.Status.FINISHED:
        raise SignatureError(_("The planilla is signed once the mesa is finished."))
    if role not in Signature.Role.values:
        raise SignatureError(_("role must be one of: %(roles)s.") % {"roles": ", ".join(Signature.Role.values)})
    if not isinstance(name, str) or not name.strip():
        raise SignatureError(_("The name of who signs is required."))
    name = name.strip()
    if len(name) > Signature._meta.get_field("name").max_length:
        raise SignatureError(_("The name is too long."))
    check_png_data_url(image)
    try:
        with transaction.atomic():
            return Signature.objects.create(mesa=mesa, role=role, name=name, image=image)
    except IntegrityError:
        raise SignatureError(
            _("%(role)s has already signed this planilla.") % {"role": Signature.Role(role).label},
            conflict=True,
        ) from None


def check_png_data_url(value):
    """Raise :class:`SignatureError` unless ``value`` is a small, well-formed PNG data URL."""
    if not isinstance(value, str) or not value.startswith(DATA_URL_PREFIX):
        raise SignatureError(_("The signature must be a PNG image (data:image/png;base64,...)."))
    encoded = value[len(DATA_URL_PREFIX):]
    if len(encoded) > MAX_PNG_BYTES * 4 // 3 + 4:
        raise SignatureError(_("The signature image is too large."))
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise SignatureError(_("The signature image is not valid base64.")) from None
    # A PNG starts with its magic bytes and then the IHDR chunk, which holds
    # the width and height (PNG specification, section 5.2-5.3).
    if len(data) < 24 or not data.startswith(PNG_MAGIC) or data[12:16] != b"IHDR":
        raise SignatureError(_("The signature image is not a PNG."))
    width, height = struct.unpack(">II", data[16:24])
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        raise SignatureError(_("The signature image has an impossible size."))
