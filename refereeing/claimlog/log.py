"""The claim log: how a juez's claim becomes an entry, a decision and a state.

Terms
-----
claim log
    The append-only list of every claim logged at one mesa, numbered by
    ``seq`` from 1 with no gaps. Nothing in it is ever edited or deleted:
    a correction is a ``void`` claim naming the seq it cancels.
client id
    The UUID the device makes for each claim before sending it. A device
    that lost the answer (the venue's wifi) sends the same claim again with
    the same id; the server recognises the id and gives back the first
    answer, without applying the claim twice, even when both copies arrive
    at the same moment.
expected seq
    The seq the device believes the claim will get (its last seq + 1). When
    another tablet of the same mesa got there first, the claim is not
    applied and the device gets the current state to show the juez
    (HTTP 409): the juez decides again on what really happened.
decision
    The engine's ruling on one claim (accepted or refused, the points
    applied, a code, the article). The decision stored with an entry is the
    one given when the claim arrived; a later ``void`` does not rewrite it
    (the engine's replay shows it as voided).
state
    The engine's state after the last claim, with its ``preview`` (what
    each claim would do next, ``engines.rules.preview``, in both
    languages' terms: codes and articles). The mesa keeps a copy
    (``Mesa.state``, ``Mesa.last_seq``) written in the same transaction as
    the entry, so lists, boards and the devices' polls never replay a mesa.

How a claim is recorded
-----------------------
1. The mesa's row is locked, so claims at one mesa are applied one at a
   time (PostgreSQL: ``SELECT ... FOR UPDATE``; SQLite, which has no row
   locks: a write to the mesa first, which takes the database's write lock
   before anything is read). The locked row is the only read of the mesa:
   the API checks who may act on it there.
2. The claim's shape and bounds are checked with the engine's
   ``parse_claim`` (a void names a seq already in the log, a reason is
   clean text...); a malformed claim saves nothing, and the juez reads why
   in the request's language.
3. Under the lock: a known client id gives back its first answer; a stale
   expected seq is a conflict; a mesa that is not being played refuses
   (one that has not started says what starts it: ``tournament.seating.seating``),
   but a seated mesa whose championship starts mesas by their first claim
   takes it;
   and ``refereeing.access.permissions``'s table says whether the one logging may log
   that claim there now (an ``ajuste`` is the Director's; an admitted
   appeal holds the mesa for the Director: Art. 17–18).
4. The engine replays the whole log with the new claim at the end (it is
   fast: a full mesa is a few hundred claims). The new entry keeps the
   last decision; the mesa keeps the new state and its status follows it:
   the first claim puts it in play (Art. 3) and stores its header (the
   rules it keeps from then on), the juez's ``suspender``
   suspends it (Art. 16) and ``reanudar`` resumes it, and the end of the
   mesa records its result (Art. 3g.7, 12) — all in the same transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.context import acting
from engines.rules import ClaimError, Header, parse_claim, replay
from engines.rules.claims import MAX_SEQ
from engines.rules.messages import CODES, DIRECTOR_ARTICLES
from engines.rules.preview import preview, protestable
from engines.rules.state import Replay
from refereeing.access import permissions as access
from refereeing.models import ClaimEntry
from tournament.errors import Refusal
from tournament.language import speak
from tournament.locking import locked
from tournament.models import Championship, Mesa
from tournament.naming import mesa_place
from tournament.results.results import record_result
from tournament.seating import seating

# The statuses in which a mesa takes claims: its pairs are known and its
# result is not yet on the planilla.
OPEN_STATUSES = (Mesa.Status.READY, Mesa.Status.IN_PLAY, Mesa.Status.SUSPENDED)


class ClaimLogError(Refusal):
    """A claim that was not recorded; ``message`` says why, for the juez."""

    code = "claim_refused"


class MalformedClaim(ClaimLogError):
    """The request itself is wrong (shape, client id, expected seq)."""

    code = "malformed_claim"
    status = 400


class MesaClosed(ClaimLogError):
    """The mesa does not take this claim now (waiting, finished, walkover, held by an appeal)."""

    code = "mesa_closed"
    status = 409


class NotAllowed(ClaimLogError):
    """Whoever logs the claim may never log that kind there (``refereeing.access.MAY_LOG``)."""

    code = "not_allowed"
    status = 403


class Conflict(ClaimLogError):
    """The claim was not applied because the log moved on; carries the state now (``data``: ``last_seq``,
    and ``state`` as the engine gives it; the API sends it as it sends every state)."""

    code = "stale_seq"
    status = 409

    def __init__(self, message: str, state: dict[str, Any] | None, last_seq: int) -> None:
        super().__init__(message, last_seq=last_seq)
        self.state = state
        self.last_seq = last_seq


@dataclass(frozen=True)
class Answer:
    """What the server says about one claim: the same whenever it is asked again."""

    entry: ClaimEntry
    state: dict[str, Any]
    last_seq: int
    replayed: bool  # True when the client id was already known

    @property
    def decision(self) -> dict[str, Any]:
        decision: dict[str, Any] = self.entry.decision
        return decision

    def as_dict(self) -> dict[str, Any]:
        return {"entry": entry_dict(self.entry), "state": self.state, "last_seq": self.last_seq}


def entry_dict(entry: ClaimEntry) -> dict[str, Any]:
    """One log entry as the API and the screens show it."""
    return {
        "seq": entry.seq,
        "client_id": str(entry.client_id),
        "claim": entry.claim,
        "decision": entry.decision,
    }


def decision_message(decision: dict[str, Any]) -> str:
    """A stored decision's message in the current language."""
    return speak(decision)


def state_dict(result: Replay) -> dict[str, Any]:
    """The state a replay leaves, with its preview: what the mesa keeps and the API sends. The plays each pair may
    protest are the preview's juego y veo trials: made once, for both."""
    shown = preview(result)
    state = result.state.as_dict(protestable=protestable(shown))
    state["preview"] = shown
    return state


def header_for(mesa: Mesa) -> Header:
    """The engine's header for ``mesa``: the rules it started with (``Mesa.rules_header``)."""
    header = mesa.rules_header()
    return Header(ruleset=mesa.ruleset, players=header["players"], first_dealer=header["first_dealer"])


def logged_claims(mesa: Mesa, upto: int | None = None) -> list[dict[str, Any]]:
    """The claims of ``mesa``'s log in seq order (up to seq ``upto``)."""
    entries = ClaimEntry.objects.filter(mesa=mesa)
    if upto is not None:
        entries = entries.filter(seq__lte=upto)
    return list(entries.order_by("seq").values_list("claim", flat=True))


def mesa_replay(mesa: Mesa) -> Replay:
    """The engine's result for ``mesa``'s stored log (planilla, screens)."""
    return replay(header_for(mesa), logged_claims(mesa))


def record_claim(
    mesa: Mesa | int,
    claim: Any,
    client_id: Any,
    user: AbstractBaseUser | None = None,
    address: str | None = None,
    expected_seq: Any = None,
    role: str | Callable[[Mesa], str] | None = None,
) -> Answer:
    """Log ``claim`` at ``mesa`` once, and answer with its decision and the new state.

    ``mesa`` is a :class:`Mesa` or its id: either way its row is read afresh
    under the lock. ``user`` is who logs the claim; the mesa's juez when
    None (a device opened with the table PIN). ``role`` is what they are at
    the mesa (``refereeing.access``): by default what ``user`` is there
    (``access.role_of``); or a function of the locked row that says it and
    raises to refuse before anything else (the API's check of the request,
    so that a claim reads its mesa once).

    Raises :class:`MalformedClaim`, :class:`MesaClosed`, :class:`NotAllowed`,
    :class:`Conflict`, ``Mesa.DoesNotExist`` or what ``role`` raises;
    nothing is saved when it raises.
    """
    mesa_id = mesa.pk if isinstance(mesa, Mesa) else mesa
    try:
        with transaction.atomic():
            mesa = _lock(mesa_id)
            role = role(mesa) if callable(role) else (role or access.role_of(mesa, user))
            client_id = _client_uuid(client_id)
            if expected_seq is not None and (type(expected_seq) is not int or not 1 <= expected_seq <= MAX_SEQ):
                raise MalformedClaim(_("expected_seq must be a whole number from 1."))
            try:
                claim = parse_claim(claim, players=mesa.players_at_table, last_seq=mesa.last_seq)
            except ClaimError as error:
                raise MalformedClaim.from_engine(error) from None
            return _append(mesa, _marked(claim, role), client_id, user, role, address, expected_seq)
    except IntegrityError:
        # The same client id was committed at this moment through another
        # mesa's lock (a device bug): the unique constraint kept the log
        # clean; answer as for any known id.
        assert isinstance(mesa, Mesa)  # the error came from a write, after the lock read the row
        known = _known(mesa, client_id)
        if known:
            return known
        # Otherwise the mesa's table or juez was taken by another mesa
        # going into play at this very moment (see _check_free).
        raise MesaClosed(_("This mesa's table or juez was just taken by another mesa.")) from None


def _marked(claim: dict[str, Any], role: str | None) -> dict[str, Any]:
    """The Director's void, suspension or resumption carries the Director's
    mark, so that its decision cites the Director's article (Art. 17), not
    the juez's, and a suspended mesa takes the void; ``access`` refuses the
    mark from anyone else."""
    if role == access.DIRECTOR and claim["kind"] in DIRECTOR_ARTICLES:
        return {**claim, "director": True}
    return claim


def _client_uuid(value: object) -> uuid.UUID:
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except (ValueError, TypeError, AttributeError):
        raise MalformedClaim(_("client_id must be a UUID.")) from None


def _known(mesa: Mesa, client_id: uuid.UUID, log: list[dict[str, Any]] | None = None) -> Answer | None:
    """The first answer for ``client_id``, or None when it is new.

    ``log``, when the caller has just read ``mesa``'s claims in seq order
    (under its lock), saves reading them again.
    """
    try:
        entry = ClaimEntry.objects.get(client_id=client_id)
    except ClaimEntry.DoesNotExist:
        return None
    if entry.mesa_id != mesa.pk:
        raise MalformedClaim(_("This client_id was already used for a claim at another mesa."))
    # The state that went with the first answer is the replay of the log up
    # to that entry; the device catches up with later claims by polling.
    claims = logged_claims(mesa, upto=entry.seq) if log is None else log[: entry.seq]
    state = state_dict(replay(header_for(mesa), claims))
    return Answer(entry=entry, state=state, last_seq=entry.seq, replayed=True)


# What a claim reads of its mesa's row (27 columns): what its save checks, who may log there, its rules, its
# log's end and its start. The rest (its place in the bracket, where its pairs go next, the state it keeps, which the
# replay makes again) is read only when asked for (a conflict's answer, the end of the mesa): in the same
# transaction, under the same lock, so it is the row as locked.
CLAIM_FIELDS = (
    *Mesa.GUARDED_FIELDS,
    "last_seq",
    "first_dealer",
    "table_number",
    "juez_id",
    "inspector_id",
    "started_at",
)


def _lock(mesa_id: int) -> Mesa:
    """Mesa ``mesa_id`` with its championship, its row locked until the end of the transaction; ``as_locked``: its
    guarded values as read, which its save in this transaction checks against instead of reading them again (the
    claim's third query, profiled)."""
    rows = Mesa.objects.filter(pk=mesa_id).select_related("championship").only(*CLAIM_FIELDS)
    mesa: Mesa = locked(rows).get()
    mesa.as_locked = mesa.guarded_values()
    return mesa


def _append(
    mesa: Mesa,
    claim: dict[str, Any],
    client_id: uuid.UUID,
    user: AbstractBaseUser | None,
    role: str | None,
    address: str | None,
    expected_seq: int | None,
) -> Answer:
    # One read of the log serves both to recognise a retry (its client id
    # is in this mesa's log) and to replay.
    log = list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values_list("client_id", "claim"))
    if client_id in {logged_id for logged_id, _claim in log}:
        known = _known(mesa, client_id, log=[logged for _id, logged in log])
        assert known is not None  # its client id is in this mesa's log
        return known
    starting = seating.starts_on_first_claim(mesa)
    if not starting and (mesa.status not in OPEN_STATUSES or mesa.pair_a_id is None or mesa.pair_b_id is None):
        if mesa.status == Mesa.Status.FINISHED and claim["kind"] == "juego_y_veo":
            # The engine's refusal: the play that ended the mesa goes to the Director on appeal (Art. 17).
            spanish, english, article = CODES["juego_y_veo_mesa_terminada"]
            raise MesaClosed(speak((spanish, english)), article=article)
        raise MesaClosed(
            seating.not_started_reason(mesa)
            or _("Mesa %(mesa)s does not take claims (status: %(status)s).")
            % {"mesa": mesa, "status": mesa.get_status_display()}
        )
    if starting or mesa.status == Mesa.Status.READY:
        _check_free(mesa)
    try:
        access.check_claim(role, mesa, claim)
    except access.Refused as refusal:
        raise (NotAllowed if refusal.forbidden else MesaClosed)(refusal.message, article=refusal.article) from None
    seq = mesa.last_seq + 1
    if expected_seq is not None and expected_seq != seq:
        raise Conflict(
            _(
                "Another device logged claims first: the log is at #%(last)s and this claim expected"
                " #%(expected)s. Check the board and claim again."
            )
            % {"last": mesa.last_seq, "expected": expected_seq},
            state=mesa.state,
            last_seq=mesa.last_seq,
        )
    if mesa.header is None:
        # The first claim: the mesa keeps the rules it starts with (ruling).
        # The championship's row is locked, so its rules cannot change at
        # this same moment (``Championship.save`` locks it too).
        mesa.championship = locked(Championship.objects.filter(pk=mesa.championship_id)).get()
        mesa.header = mesa.championship.header(mesa.first_dealer)
    result = replay(header_for(mesa), [logged for _id, logged in log] + [claim])
    decision = result.decisions[-1].as_dict()
    state = state_dict(result)
    entry = ClaimEntry.objects.create(
        mesa=mesa,
        seq=seq,
        client_id=client_id,
        kind=claim["kind"],
        claim=claim,
        decision=decision,
        accepted=decision["accepted"],
        juez_id=mesa.juez_id if user is None else user.pk,
        address=address,
    )
    # What the claim sets off beyond its mesa (the result, the pairs sent on, the seating) names who logged it.
    with acting(access.tablet(mesa) if role == access.PIN_DEVICE or user is None else user, address):
        _follow(mesa, state, seq)
    return Answer(entry=entry, state=state, last_seq=seq, replayed=False)


def _check_free(mesa: Mesa) -> None:
    """Raise :class:`MesaClosed` when ``mesa``'s table or juez is still busy at another mesa.

    A table holds one mesa in play at a time, and a juez referees one mesa
    at a time (constraints of ``tournament.models.Mesa``); saying so here
    gives the juez the reason instead of a database error.
    """
    playing = (
        Mesa.objects.filter(status__in=(Mesa.Status.IN_PLAY, Mesa.Status.SUSPENDED))
        .exclude(pk=mesa.pk)
        .select_related("championship")
    )
    if mesa.table_number is not None:
        other = playing.filter(championship=mesa.championship_id, table_number=mesa.table_number).first()
        if other:
            raise MesaClosed(
                _("Table %(table)s is still in use by mesa %(other)s.") % {"table": mesa.table_number, "other": other}
            )
    if mesa.juez_id is not None:
        other = playing.filter(juez=mesa.juez_id).first()
        if other:
            raise MesaClosed(_("The juez of this mesa is still refereeing %(other)s.") % {"other": mesa_place(other)})


def _follow(mesa: Mesa, state: dict[str, Any], seq: int) -> None:
    """Save the new state on ``mesa`` and move its status to follow the engine."""
    now = timezone.now()
    first = ["header"] if seq == 1 else []  # the header is written once, with the first claim
    mesa.state = state
    mesa.last_seq = seq
    mesa.started_at = mesa.started_at or now
    if state["finished"]:
        # The tournament writes the result and sends the pairs on to their
        # next mesas (winner_to, loser_to), in this same transaction.
        mesa.save(update_fields=["state", "last_seq", "started_at", *first], as_locked=mesa.as_locked)
        record_result(mesa)
        return
    if state["suspended"]:
        mesa.status = Mesa.Status.SUSPENDED
    else:
        mesa.status = Mesa.Status.IN_PLAY
    mesa.save(update_fields=["state", "last_seq", "started_at", "status", *first], as_locked=mesa.as_locked)
