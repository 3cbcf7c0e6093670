"""What a mirror checks a printed planilla's code against: digests of each mesa's codes, never the codes.

A planilla's verification code is an HMAC of the mesa's whole record keyed
with the venue's ``SECRET_KEY`` (``refereeing.planilla.verification``), over parts
that never leave the venue (the claims' client ids, the signatures'
drawings, the appeals' reasons). So the venue computes the codes and
publishes, per mesa, the SHA-256 of each code that verifies it now
(``PlanillaCode``); the mirror hashes the code it is asked and looks it
up. A copy of the mirror's database gives no one a code: finding one from
its digest means trying 2^60 codes.

At a venue with a mirror (``MIRROR_URL`` set) the acts keep them current:
whatever says a mesa changed
(``live.notify.changing``: a claim, a result, an appeal, a draw) and a
signature saved ask for the mesa's digests once the transaction commits,
once per mesa however many rows the act wrote. ``manage.py mirror_publish``
publishes every code that verifies each mesa now, codes printed by earlier
versions and with replaced keys included (run it again after a key
rotation).
"""

import hashlib

from django.conf import settings
from django.db import transaction

from refereeing.planilla import verification
from tournament.models import Mesa

from . import status
from .models import PlanillaCode


def digest(code):
    """The published form of a parsed code (``verification.parsed_code``)."""
    return hashlib.sha256(code.encode()).hexdigest()


def refresh(mesa_ids, every=False):
    """Publish the digests of ``mesa_ids`` as their records are now.

    An act changes the record, and every code printed before it fails from
    then on, in whatever form and with whatever key it was made: the code of
    the record now is the only one left, first in the row, and the row is
    left alone when it is already that (a save that changed nothing the
    record holds). ``every``: every code that verifies the record now
    (``verification.codes``: the forms printed by earlier versions, the replaced
    keys), as ``mirror_publish`` writes them.

    Each mesa's record is read under its row's lock: of two acts that commit
    at once, the later record's digests are the ones left.
    """
    for mesa_id in mesa_ids:
        with transaction.atomic():
            if not Mesa.objects.filter(pk=mesa_id).exists():
                continue  # gone (a new draw); its row went with it
            PlanillaCode.objects.bulk_create([PlanillaCode(mesa_id=mesa_id)], ignore_conflicts=True)
            row = PlanillaCode.objects.select_for_update().get(mesa_id=mesa_id)
            mesa = Mesa.objects.get(pk=mesa_id)
            current = digest(verification.verification_code(mesa))
            if every:
                digests = [current, *sorted({digest(code) for code in verification.codes(mesa)} - {current})]
            elif row.digests[:1] == [current]:
                continue
            else:
                digests = [current]
            row.digests = digests
            row.save(update_fields=["digests"])


def mesa_for_code(code):
    """On the mirror: the mesa a typed ``code`` verifies, as the venue last published it, or None."""
    code = verification.parsed_code(code)
    if code is None:
        return None
    mesa_id = int(code.partition("-")[0])
    row = PlanillaCode.objects.filter(mesa_id=mesa_id).first()
    if row is None or digest(code) not in row.digests:
        return None
    return Mesa.objects.select_related("championship", "pair_a", "pair_b", "winner").filter(pk=mesa_id).first()


class _Refresh:
    """The callback run once an act commits, for the mesas it changed; it leaves the desk's mark too (``status``)."""

    def __init__(self, mesa_ids):
        self.mesa_ids = set(mesa_ids)

    def __call__(self):
        refresh(sorted(self.mesa_ids))
        status.mark_after_act()


def after_commit(mesa_ids):
    """Refresh ``mesa_ids`` once the current transaction commits, each once in it whatever asks again."""
    if settings.MIRROR or not settings.MIRROR_URL:
        return  # the mirror's rows are the venue's; a venue without a mirror pays nothing on its claims
    pending = set()
    for _savepoints, callback, _robust in transaction.get_connection().run_on_commit:
        if isinstance(callback, _Refresh):
            pending |= callback.mesa_ids
    new = set(mesa_ids) - pending
    if new:
        # robust: the act has committed; a failure here only leaves the mirror's check behind (logged).
        transaction.on_commit(_Refresh(new), robust=True)


def mesas_changing(sender, championship_id, mesa_ids, **kwargs):
    """``live.notify.changing``: a mesa's record may have changed; None is the whole bracket (a draw)."""
    if mesa_ids is None:
        mesa_ids = Mesa.objects.filter(championship_id=championship_id).values_list("pk", flat=True)
    after_commit(mesa_ids)


def signature_saved(sender, instance, **kwargs):
    after_commit([instance.mesa_id])
