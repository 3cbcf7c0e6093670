"""Planillas kept ready: a final mesa's PDF rendered once and stored under its verification code.

Terms
-----
final
    A mesa finished and signed by its three signers, or a walkover: its
    planilla changes only if its record does (a void, an appeal's ruling, a
    correction), and then its verification code changes too.
key
    What a stored PDF is filed under: the verification code, the language
    and the site address its QR code points at
    (``MEDIA_ROOT/planillas/stored/<code>.<language>.<address hash>.pdf``).
    A file is read only while its code is the mesa's code *now*: a stored
    planilla whose record has changed is never served; the new one is
    rendered and stored beside it.
ready before it is asked for
    When the last signature of a finished mesa is saved, the planilla is
    rendered in the background, in the Spanish of the sheet's default, for
    ``PLANILLA_SITE_URL`` (the address the tablets and phones use); a
    reprint or a batch print then reads the file. Without that setting, or
    for another language or address, the first print renders and stores it.

The background render runs in a thread of the web process once the
signature's transaction has committed (nothing else to run with ``make
run``); a failure there only means the first print renders it. Files are
written under a temporary name and renamed, so a half-written PDF is never
read. The store is a folder, like the batch jobs' records (``batch``):
several app servers each keep their own.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import close_old_connections, connections, transaction

from refereeing.planilla import printed, verification
from refereeing.planilla import sheet as planilla

if TYPE_CHECKING:
    from refereeing.models import Signature
    from tournament.models import Mesa

log = logging.getLogger(__name__)
DEFAULT_LANGUAGE = "es-ec"


def folder() -> Path:
    path = Path(settings.MEDIA_ROOT) / "planillas" / "stored"
    path.mkdir(parents=True, exist_ok=True)
    return path


def path_for(code: str, language: str, base_url: str) -> Path:
    # The addresses the sheet prints: the hall's, and the mirror's its QR code points at.
    address = hashlib.sha256(f"{base_url} {settings.MIRROR_URL}".encode()).hexdigest()[:12]
    return folder() / f"{code}.{(language or DEFAULT_LANGUAGE).lower()}.{address}.pdf"


def is_final(mesa: Mesa) -> bool:
    """Finished and signed by all three, or a walkover (see the terms)."""
    if mesa.status == mesa.Status.WALKOVER:
        return True
    return mesa.status == mesa.Status.FINISHED and mesa.signatures.count() == 3


def stored(mesa: Mesa, base_url: str, language: str) -> bytes | None:
    """The stored PDF of ``mesa`` as it is now, or None."""
    target = path_for(verification.verification_code(mesa), language, base_url)
    try:
        return target.read_bytes()
    except FileNotFoundError:
        return None


def keep(mesa: Mesa, code: str, base_url: str, language: str, pdf: bytes) -> None:
    """Store ``pdf``, rendered when ``mesa``'s code was ``code``, if the mesa is final."""
    if not is_final(mesa):
        return
    target = path_for(code, language, base_url)
    temporary = target.with_suffix(f".{threading.get_ident()}.tmp")
    temporary.write_bytes(pdf)
    os.replace(temporary, target)


def pdf(mesa: Mesa, base_url: str, language: str) -> bytes:
    """``mesa``'s planilla: the stored one while it is current, else rendered now (and kept if final)."""
    kept = stored(mesa, base_url, language)
    if kept is not None:
        return kept
    sheet = planilla.build(mesa, base_url, language)
    data = printed.pdf(sheet)
    keep(mesa, sheet.code, base_url, language, data)
    return data


def prepare_when_final(mesa_id: int) -> None:
    """After the current transaction commits, render ``mesa_id``'s planilla in the background if it is final."""
    base_url = getattr(settings, "PLANILLA_SITE_URL", "")
    if base_url:
        transaction.on_commit(
            lambda: threading.Thread(
                target=_prepare, args=(mesa_id, base_url), daemon=True, name=f"planilla-{mesa_id}"
            ).start()
        )


def _prepare(mesa_id: int, base_url: str) -> None:
    try:
        close_old_connections()
        mesa = planilla.mesas_for_print().filter(pk=mesa_id).first()
        if mesa is not None and is_final(mesa):
            pdf(mesa, base_url, DEFAULT_LANGUAGE)
    except Exception:  # the first print renders it instead
        log.exception("planilla %s: the background render failed", mesa_id)
    finally:
        connections.close_all()


def on_signature(sender: type[Signature], instance: Signature, created: bool, **kwargs: object) -> None:
    """``post_save`` of a signature (``refereeing.apps``): the third one makes the mesa final."""
    if created:
        prepare_when_final(instance.mesa_id)
