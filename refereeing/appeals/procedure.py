"""Appeals: a pair objects to a decision of the juez, and the Director rules (Art. 17).

Terms
-----
appeal
    Filed at the table, on the juez's tablet, by a pair's representative:
    which pair, which decision (the seq of a claim in the mesa's log), the
    reason, the representative's name and signature. Its filing time goes
    on the planilla.
window
    An appeal is filed within the championship's appeal window
    (``Championship.appeal_window_minutes``, 10 by default) after the
    decision it objects to; later, it is refused. One appeal per pair and
    decision. The Director's own adjustments are not appealable: the
    Director's word is final (Art. 17-18). The reason (500 characters) and
    the name (120) are clean text (``engines.text``), and the
    signature a real drawing (``refereeing.signatures``).
admit / not admit
    The championship's Director reads a filed appeal and admits it, or not
    (saying why). Admitting it suspends the mesa until the ruling (Art. 17):
    the claim log gets a ``suspender`` from the Director, unless the mesa is
    already suspended or no longer takes claims (finished).
ruling
    On an admitted appeal, the Director upholds or rejects it, with the
    ruling's text. An upheld appeal may undo the decision appealed (a
    ``void`` of its seq) and adjust a pair's points (an ``ajuste``, Art. 18).
    Then the mesa resumes (``reanudar``) if admitting the appeal suspended
    it. The ruling is final: nothing changes it afterwards.
appealable
    What the tablet offers: a decision on a play or a count, not dealing
    a mano, suspending or resuming the mesa; never the Director's own
    adjustments (final, refused whoever asks).
at the table
    The juez's tablet shows the mesa's appeals until the pairs acknowledge
    the ruling there: while the Director holds one (admitted) the tablet
    says the mesa is suspended for it; once decided, the ruling is shown
    until the juez records that both pairs have read it.

Every step is one transaction: what it logs in the claim log and the
appeal's new status are saved together, or nothing is. A step is taken
once: the status moves by a conditional UPDATE, so two clicks of the
Director, or two app servers, cannot both admit or rule the same appeal.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.context import acting, record, recording
from engines.text import TextError, check_text
from live import notify
from refereeing.access import permissions as access
from refereeing.claimlog import log as claimlog
from refereeing.models import Appeal, ClaimEntry
from refereeing.signatures import SignatureError, check_png_data_url
from tournament.errors import Refusal
from tournament.models import Mesa
from tournament.policy import RULE_APPEAL, may

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class AppealError(Refusal):
    """A refused step of an appeal; ``message`` says why, in the request's language."""

    code = "appeal_refused"


def window(mesa: Mesa) -> timedelta:
    return timedelta(minutes=mesa.championship.appeal_window_minutes)


# Claims that decide nothing a pair could object to, and the Director's final word.
NOT_APPEALABLE = ("mano", "suspender", "reanudar", "ajuste")


def open_decisions(mesa: Mesa, now: datetime | None = None) -> list[ClaimEntry]:
    """The log entries of ``mesa`` that may still be appealed, newest first."""
    now = now or timezone.now()
    return list(
        ClaimEntry.objects.filter(mesa=mesa, created_at__gte=now - window(mesa))
        .exclude(kind__in=NOT_APPEALABLE)
        .order_by("-seq")
    )


def file_appeal(
    mesa: Mesa,
    pair: object,
    seq: object,
    reason: object,
    name: object,
    signature: object,
    client_id: object,
    now: datetime | None = None,
    *,
    by: User | None,
) -> Appeal:
    """File a pair's appeal against decision ``seq`` of ``mesa``; a retry with the same ``client_id`` gets the first.

    The pair files it through the juez's tablet: ``by`` is the juez signed in there, or None for a
    tablet opened with the table's PIN, which the trail names as such.
    """
    try:
        client_id = client_id if isinstance(client_id, uuid.UUID) else uuid.UUID(str(client_id))
    except ValueError:
        raise AppealError(_("client_id must be a UUID.")) from None
    known = Appeal.objects.filter(client_id=client_id).first()
    if known is not None:
        if known.mesa_id != mesa.pk:
            raise AppealError(_("This client_id was already used for an appeal at another mesa."))
        return known
    if pair not in ("A", "B"):
        raise AppealError(_("The appeal must say which pair files it (A or B)."))
    if not (isinstance(reason, str) and reason.strip()):
        raise AppealError(_("Say what the appeal objects to."))
    if not (isinstance(name, str) and name.strip()):
        raise AppealError(_("The name of the representative who files the appeal is required."))
    reason = _text(reason, "reason", _("reason"))
    name = _text(name, "name", _("name"), Appeal._meta.get_field("name").max_length)
    try:
        check_png_data_url(signature)
    except SignatureError as error:
        raise AppealError(error.message) from None
    entry = ClaimEntry.objects.filter(mesa=mesa, seq=seq).first() if type(seq) is int else None
    if entry is None:
        raise AppealError(_("Mesa %(mesa)s has no decision #%(seq)s.") % {"mesa": mesa, "seq": seq})
    if entry.kind == "ajuste":
        raise AppealError(_("The Director's adjustments are final; they cannot be appealed (Art. 17-18)."))
    if (now or timezone.now()) > entry.created_at + window(mesa):
        raise AppealError(
            _("Art. 17: decision #%(seq)s was made more than %(minutes)s minutes ago; the time to appeal it is over.")
            % {"seq": seq, "minutes": mesa.championship.appeal_window_minutes}
        )
    try:
        with transaction.atomic(), acting(_at_the_table(mesa, by)):
            return Appeal.objects.create(
                mesa=mesa,
                client_id=client_id,
                pair=pair,
                seq=entry.seq,
                reason=reason,
                name=name,
                signature=cast(str, signature),  # check_png_data_url refused any other
            )
    except IntegrityError:
        # The same retry arriving twice at once, or the pair's second appeal of one decision.
        known = Appeal.objects.filter(client_id=client_id, mesa=mesa).first()
        if known is not None:
            return known
        raise AppealError(
            _("Pair %(pair)s has already appealed decision #%(seq)s.") % {"pair": pair, "seq": seq}
        ) from None


def admit(appeal: Appeal, *, by: User) -> Appeal:
    """The Director admits ``appeal``: the mesa is suspended until the ruling (Art. 17)."""
    _check_director(appeal, by)
    with transaction.atomic(), acting(by):
        _move(appeal, Appeal.Status.FILED, Appeal.Status.ADMITTED, admitted_at=timezone.now())
        mesa = Mesa.objects.get(pk=appeal.mesa_id)
        if mesa.status in (Mesa.Status.READY, Mesa.Status.IN_PLAY):
            _log(appeal, by, {"kind": "suspender"})
            Appeal.objects.filter(pk=appeal.pk).update(suspended_mesa=True)
            record(appeal, "appeal_suspended_mesa", {"suspended_mesa": ["False", "True"]})
    appeal.refresh_from_db()
    return appeal


def dismiss(appeal: Appeal, ruling: object, *, by: User) -> Appeal:
    """The Director does not admit ``appeal``, saying why; the mesa goes on as it was."""
    _check_director(appeal, by)
    ruling = _ruling_text(ruling)
    with transaction.atomic(), acting(by):
        _move(
            appeal,
            Appeal.Status.FILED,
            Appeal.Status.NOT_ADMITTED,
            ruling=ruling,
            ruled_at=timezone.now(),
            ruled_by=by,
        )
    appeal.refresh_from_db()
    return appeal


def rule(
    appeal: Appeal,
    upheld: bool,
    ruling: object,
    *,
    by: User,
    undo: bool = False,
    adjustment: tuple[object, object] | None = None,
) -> Appeal:
    """The Director's final ruling on an admitted ``appeal``.

    ``undo`` (upheld only) voids the decision appealed; ``adjustment``
    (upheld only) is ``(pair, points)`` added to that pair's score, which
    may be negative (Art. 18). Then the mesa resumes if admitting the
    appeal suspended it.
    """
    _check_director(appeal, by)
    ruling = _ruling_text(ruling)
    if not upheld and (undo or adjustment):
        raise AppealError(_("Only an upheld appeal changes the score."))
    if adjustment is not None:
        pair, points = adjustment
        if pair not in ("A", "B") or type(points) is not int or points == 0 or abs(points) > 40:
            raise AppealError(_("An adjustment gives a pair (A or B) between -40 and 40 points, not 0."))
    status = Appeal.Status.UPHELD if upheld else Appeal.Status.REJECTED
    with transaction.atomic(), acting(by):
        _move(appeal, Appeal.Status.ADMITTED, status, ruling=ruling, ruled_at=timezone.now(), ruled_by=by)
        mesa = Mesa.objects.get(pk=appeal.mesa_id)
        if (undo or adjustment) and mesa.status not in claimlog.OPEN_STATUSES:
            raise AppealError(_("Mesa %(mesa)s is already decided: correct its result instead.") % {"mesa": mesa})
        if undo:
            _log(appeal, by, {"kind": "void", "target": appeal.seq})
        if adjustment is not None:
            reason = _("Appeal of pair %(pair)s on #%(seq)s") % {"pair": appeal.pair, "seq": appeal.seq}
            _log(appeal, by, {"kind": "ajuste", "pair": adjustment[0], "points": adjustment[1], "reason": reason})
        if appeal.suspended_mesa and Mesa.objects.get(pk=appeal.mesa_id).status == Mesa.Status.SUSPENDED:
            _log(appeal, by, {"kind": "reanudar"})
    appeal.refresh_from_db()
    return appeal


class AppealAtTable(TypedDict):
    """An appeal as the mesa's tablet shows it."""

    id: int
    pair: str
    seq: int
    status: str
    status_label: str
    ruling: str


def at_the_table(mesa_id: int) -> list[AppealAtTable]:
    """The appeals of a mesa its tablet shows: every one the pairs have not acknowledged yet."""
    return [
        {
            "id": a.pk,
            "pair": a.pair,
            "seq": a.seq,
            "status": a.status,
            "status_label": a.get_status_display(),
            "ruling": a.ruling,
        }
        for a in Appeal.objects.filter(mesa_id=mesa_id, acknowledged_at__isnull=True).order_by("filed_at", "pk")
    ]


def acknowledge(mesa: Mesa, appeal_id: object, *, by: User | None) -> Appeal:
    """The pairs have read the ruling on appeal ``appeal_id`` at ``mesa``'s table; ``by`` records it (None for a PIN tablet)."""
    appeal = Appeal.objects.filter(pk=appeal_id, mesa=mesa).first() if type(appeal_id) is int else None
    if appeal is None:
        raise AppealError(_("Mesa %(mesa)s has no such appeal.") % {"mesa": mesa})
    if appeal.status in Appeal.WAITING:
        raise AppealError(_("The Director has not ruled on this appeal yet."))
    now = timezone.now()
    # Recorded even inside the tablets' API, where the claim log is the record: no claim says this.
    with transaction.atomic(), acting(_at_the_table(mesa, by)), recording():
        read = Appeal.objects.filter(pk=appeal.pk, acknowledged_at__isnull=True).update(
            acknowledged_at=now, acknowledged_by=by
        )
        if read:
            record(appeal, "appeal_acknowledged", {"acknowledged_at": ["", now.isoformat()]})
    appeal.refresh_from_db()
    return appeal


def _at_the_table(mesa: Mesa, by: User | None) -> User | str:
    """Who acts on ``mesa``'s tablet: its juez signed in (``by``), or else the tablet the table's PIN opened."""
    return by or access.tablet(mesa)


def _check_director(appeal: Appeal, user: User | None) -> None:
    if user is None or not may(user, RULE_APPEAL, appeal):
        raise AppealError(_("Only the championship's Director rules on appeals (Art. 17)."))


def _ruling_text(ruling: object) -> str:
    if not (isinstance(ruling, str) and ruling.strip()):
        raise AppealError(_("Write the ruling: the pairs read it on the planilla."))
    return _text(ruling, "ruling", _("ruling"))


def _text(value: object, kind: str, field: str, max_length: int | None = None) -> str:
    """``value`` as clean text of ``kind`` (``engines.text``), or :class:`AppealError`."""
    try:
        return check_text(value, kind, field=str(field), max_length=max_length)
    except TextError as error:
        raise AppealError.from_engine(error) from None


def _move(appeal: Appeal, from_status: str, to_status: str, **fields: Any) -> None:
    """Move ``appeal`` from one status to the next, once, whoever else tries at the same time."""
    moved = Appeal.objects.filter(pk=appeal.pk, status=from_status).update(status=to_status, **fields)
    if not moved:
        current = Appeal.objects.get(pk=appeal.pk)
        raise AppealError(_("This appeal is already %(status)s.") % {"status": current.get_status_display().lower()})
    notify.changed(appeal.mesa.championship_id, [appeal.mesa_id])
    record(appeal, "appeal_step", {"status": [from_status, to_status], "ruling": ["", fields.get("ruling", "")]})


def _log(appeal: Appeal, director: User, claim: dict[str, Any]) -> None:
    """Log the Director's ``claim`` at the appeal's mesa; a refusal undoes the whole step."""
    try:
        answer = claimlog.record_claim(appeal.mesa_id, claim, uuid.uuid4(), user=director, role=access.DIRECTOR)
    except claimlog.ClaimLogError as error:
        raise AppealError(error.message) from None
    if not answer.decision["accepted"]:
        raise AppealError(claimlog.decision_message(answer.decision))
