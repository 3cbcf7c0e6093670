"""A pair's link to its page on the mirror, signed by the venue: the pair's private token never leaves the hall.

The venue and its mirror share ``MIRROR_LINK_KEY`` (not the venue's
SECRET_KEY, which signs its sessions). The link names the pair and the
version of its links (published): a new private link at the venue revokes
the old mirror link too. A link that does not verify is a 404 like any
unknown address.
"""

from django.conf import settings
from django.core import signing
from django.urls import reverse

SALT = "mesa-de-control.mirror.pair"
MAX_LENGTH = 128


def _signer():
    return signing.Signer(key=settings.MIRROR_LINK_KEY, salt=SALT)


def signed(pair):
    """The same link each time for the same pair and version: a card printed again matches the first."""
    return _signer().sign_object([pair.pk, pair.link_version])


def pair_named(value, pairs):
    """The pair of ``pairs`` a signed link names, or None for anything else (forged, cut, foreign or revoked)."""
    if not settings.MIRROR_LINK_KEY or not value or len(value) > MAX_LENGTH:
        return None
    try:
        found = _signer().unsign_object(value)
    except signing.BadSignature:
        return None
    if not (isinstance(found, list) and len(found) == 2 and all(type(n) is int and n > 0 for n in found)):
        return None
    return pairs.filter(pk=found[0], link_version=found[1]).first()


def mirror_url(pair):
    """The pair's page on the mirror, or None where the venue has no mirror configured."""
    if not (settings.MIRROR_URL and settings.MIRROR_LINK_KEY):
        return None
    return settings.MIRROR_URL + reverse("public:pair_signed", args=[signed(pair)])
