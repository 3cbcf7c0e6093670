"""A planilla's verification code: the public page tells by it whether a printed planilla still matches the database.

Terms
-----
verification code
    ``<mesa id>-XXXX-XXXX-XXXX``: the mesa's id and 60 bits of an HMAC
    (keyed with ``SECRET_KEY``) over the canonical JSON of the mesa's log,
    its header (the rules it started with), signatures and result, its
    times to the second (a backup's round trip changes nothing it covers).
    Any later change to any of them gives another code, so the public page
    can tell whether a printed planilla still matches the database. Codes
    printed before mesas kept a header, or while the times kept their
    microseconds, still verify. Codes made with a key in
    ``SECRET_KEY_FALLBACKS`` are still accepted after a key rotation.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from django.conf import settings

from tournament.models import Mesa

if TYPE_CHECKING:
    from refereeing.models import Appeal, ClaimEntry, Signature

_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford: no I, L, O, U
_CODE_CHARS = 12
_HMAC_SALT = b"mesa-de-control.planilla.v1"


def _moment(when: datetime | None, precise: bool = False) -> str | None:
    """A time as the record holds it: UTC, to the second, so that a backup's round trip
    (which another tool may cut to the millisecond) leaves the code as it was."""
    if when is None:
        return None
    when = when.astimezone(UTC)
    return when.isoformat() if precise else when.replace(microsecond=0).isoformat()


def canonical_record(
    mesa: Mesa,
    entries: Iterable[ClaimEntry] | None = None,
    signatures: Iterable[Signature] | None = None,
    appeals: Iterable[Appeal] | None = None,
    header: bool = True,
    precise: bool = False,
) -> bytes:
    """The mesa's log, header, signatures, result and appeals as canonical JSON bytes.

    ``header=False``: the record as it was before mesas kept a header;
    ``precise`` keeps the times' microseconds, as the record did before they
    were left out. Both for the codes printed then (``mesa_for_code``).
    """
    entries = mesa.claims.order_by("seq") if entries is None else entries
    signatures = mesa.signatures.all() if signatures is None else signatures
    appeals = mesa.appeals.all() if appeals is None else appeals
    record: dict[str, object] = {
        "mesa": mesa.pk,
        "pairs": [mesa.pair_a_id, mesa.pair_b_id],
        "claims": [
            [e.seq, str(e.client_id), e.kind, e.claim, e.accepted, e.decision, _moment(e.created_at, precise)]
            for e in entries
        ],
        "signatures": sorted(
            [s.role, s.name, hashlib.sha256(s.image.encode()).hexdigest(), _moment(s.signed_at, precise)]
            for s in signatures
        ),
        "result": [mesa.status, mesa.chicas_a, mesa.chicas_b, mesa.winner_id, mesa.zapateria],
    }
    # Only when there are appeals, so that the codes printed before appeals
    # existed still verify.
    filed = [
        [
            a.pk,
            a.pair,
            a.seq,
            a.status,
            a.reason,
            a.name,
            a.ruling,
            hashlib.sha256(a.signature.encode()).hexdigest(),
            _moment(a.filed_at, precise),
        ]
        for a in sorted(appeals, key=lambda a: a.pk)
    ]
    if filed:
        record["appeals"] = filed
    # Only once the mesa has one (its first claim), so that a mesa not
    # started keeps its code whatever its championship's rules.
    if header and mesa.header is not None:
        record["header"] = mesa.header
    # surrogatepass: a lone surrogate an older version let into a claim's
    # JSON gives its own bytes instead of failing (valid text encodes the same).
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8", "surrogatepass"
    )


def _digest(key: str, record: bytes) -> str:
    mac = hmac.new(hashlib.sha256(_HMAC_SALT + key.encode()).digest(), record, hashlib.sha256)
    number = int.from_bytes(mac.digest()[:8], "big") >> (64 - 5 * _CODE_CHARS)
    chars = "".join(_CODE_ALPHABET[(number >> (5 * i)) & 31] for i in reversed(range(_CODE_CHARS)))
    return "-".join(chars[i : i + 4] for i in range(0, _CODE_CHARS, 4))


def verification_code(
    mesa: Mesa,
    entries: Iterable[ClaimEntry] | None = None,
    signatures: Iterable[Signature] | None = None,
    appeals: Iterable[Appeal] | None = None,
) -> str:
    return f"{mesa.pk}-{_digest(settings.SECRET_KEY, canonical_record(mesa, entries, signatures, appeals))}"


def verification_path(code: str) -> str:
    from django.urls import reverse

    return reverse("planilla:verify", args=[code])


def normalise_code(code: str) -> str:
    """A typed code in its printed form: separators ignored (the digest is
    always the last 12 characters), upper case, O read as 0 and I, L as 1."""
    chars = "".join(ch for ch in code.upper() if ch.isascii() and ch.isalnum())
    chars = chars.translate(str.maketrans("OIL", "011"))
    head, tail = chars[:-_CODE_CHARS], chars[-_CODE_CHARS:]
    return f"{head}-" + "-".join(tail[i : i + 4] for i in range(0, len(tail), 4))


def parsed_code(code: str) -> str | None:
    """A typed code as ``<mesa id>-XXXX-XXXX-XXXX`` (``normalise_code``), or None where it cannot be one."""
    head, _sep, digest = normalise_code(code).partition("-")
    if not head.isdigit() or len(head) > 18 or len(digest) != _CODE_CHARS + 2:
        return None
    return f"{int(head)}-{digest}"


def codes(mesa: Mesa) -> set[str]:
    """Every code that verifies ``mesa`` now: its record as it is, and as codes
    printed before kept it (without the header, with the times' microseconds),
    with ``SECRET_KEY`` and with the keys it replaced."""
    entries, signatures, appeals = (
        list(mesa.claims.order_by("seq")),
        list(mesa.signatures.all()),
        list(mesa.appeals.all()),
    )
    records = {
        canonical_record(mesa, entries, signatures, appeals, header=header, precise=precise)
        for header in (True, False)
        for precise in (False, True)
    }
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return {f"{mesa.pk}-{_digest(key, record)}" for key in keys for record in records}


def mesa_for_code(code: str) -> Mesa | None:
    """The mesa whose current record gives ``code``, or None."""
    parsed = parsed_code(code)
    if parsed is None:
        return None
    mesa = (
        Mesa.objects.select_related("championship", "pair_a", "pair_b", "winner")
        .filter(pk=int(parsed.partition("-")[0]))
        .first()
    )
    if mesa is not None and any(hmac.compare_digest(parsed, known) for known in codes(mesa)):
        return mesa
    return None
