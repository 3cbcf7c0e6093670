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
    The engine's state after the last claim. The mesa keeps a copy
    (``Mesa.state``, ``Mesa.last_seq``) written in the same transaction as
    the entry, so lists and boards never replay a mesa.

How a claim is recorded
-----------------------
1. The mesa's row is locked, so claims at one mesa are applied one at a
   time (PostgreSQL: ``SELECT ... FOR UPDATE``; SQLite, which has no row
   locks: a write to the mesa first, which takes the database's write lock
   before anything is read). The locked row is the only read of the mesa:
   the API checks who may act on it there.
2. The claim's shape is checked with the engine's ``parse_claim``; a
   malformed claim saves nothing.
3. Under the lock: a known client id gives back its first answer; a stale
   expected seq is a conflict; a mesa that is not being played refuses; so
   does a mesa an admitted appeal holds for the Director, and a void of
   what the Director logged (Art. 17, ``refereeing.appeals``).
4. The engine replays the whole log with the new claim at the end (it is
   fast: a full mesa is a few hundred claims). The new entry keeps the
   last decision; the mesa keeps the new state and its status follows it:
   the first claim puts it in play (Art. 3), the juez's ``suspender``
   suspends it (Art. 16) and ``reanudar`` resumes it, and the end of the
   mesa records its result (Art. 3g.7, 12) — all in the same transaction.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from refereeing.engine import ClaimError, Header, parse_claim, replay
from refereeing.models import Appeal, ClaimEntry
from tournament.models import Mesa
from tournament.services import record_result

# The statuses in which a mesa takes claims: its pairs are known and its
# result is not yet on the planilla.
OPEN_STATUSES = (Mesa.Status.READY, Mesa.Status.IN_PLAY, Mesa.Status.SUSPENDED)


class ClaimLogError(Exception):
    """A claim that was not recorded; ``message`` says why, for the juez."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


class MalformedClaim(ClaimLogError):
    """The request itself is wrong (shape, client id, expected seq)."""


class MesaClosed(ClaimLogError):
    """The mesa does not take claims now (waiting, finished, walkover)."""


class Conflict(ClaimLogError):
    """The claim was not applied because the log moved on; carries the state now."""

    def __init__(self, message, state, last_seq):
        super().__init__(message)
        self.state = state
        self.last_seq = last_seq


@dataclass(frozen=True)
class Answer:
    """What the server says about one claim: the same whenever it is asked again."""

    entry: ClaimEntry
    state: dict
    last_seq: int
    replayed: bool  # True when the client id was already known

    @property
    def decision(self):
        return self.entry.decision

    def as_dict(self):
        return {"entry": entry_dict(self.entry), "state": self.state, "last_seq": self.last_seq}


def entry_dict(entry):
    """One log entry as the API and the screens show it."""
    return {
        "seq": entry.seq,
        "client_id": str(entry.client_id),
        "claim": entry.claim,
        "decision": entry.decision,
    }


def decision_message(decision):
    """A stored decision's message in the current language."""
    english = (get_language() or "es").startswith("en")
    return (decision.get("message_en") if english else decision.get("message")) or ""


def header_for(mesa):
    """The engine's header for ``mesa``: its championship's rules and table."""
    championship = mesa.championship
    return Header(
        ruleset=championship.ruleset,
        players=championship.players_at_table,
        first_dealer=mesa.first_dealer,
    )


def logged_claims(mesa, upto=None):
    """The claims of ``mesa``'s log in seq order (up to seq ``upto``)."""
    entries = ClaimEntry.objects.filter(mesa=mesa)
    if upto is not None:
        entries = entries.filter(seq__lte=upto)
    return list(entries.order_by("seq").values_list("claim", flat=True))


def mesa_replay(mesa):
    """The engine's result for ``mesa``'s stored log (planilla, screens)."""
    return replay(header_for(mesa), logged_claims(mesa))


def record_claim(mesa, claim, client_id, user=None, address=None, expected_seq=None, check=None) -> Answer:
    """Log ``claim`` at ``mesa`` once, and answer with its decision and the new state.

    ``mesa`` is a :class:`Mesa` or its id: either way its row is read afresh
    under the lock. ``check(mesa)``, when given, runs on that locked row
    before anything else and raises to refuse (the API's access check, so
    that a claim reads its mesa once). ``user`` is who logs the claim; the
    mesa's juez when None (a device opened with the table PIN).

    Raises :class:`MalformedClaim`, :class:`MesaClosed`, :class:`Conflict`,
    ``Mesa.DoesNotExist`` or what ``check`` raises; nothing is saved when it
    raises.
    """
    mesa_id = mesa.pk if isinstance(mesa, Mesa) else mesa
    try:
        with transaction.atomic():
            mesa = _lock(mesa_id)
            if check is not None:
                check(mesa)
            client_id = _client_uuid(client_id)
            if expected_seq is not None and (type(expected_seq) is not int or expected_seq < 1):
                raise MalformedClaim(_("expected_seq must be a whole number from 1."))
            try:
                claim = parse_claim(claim, players=mesa.championship.players_at_table)
            except ClaimError as error:
                raise MalformedClaim(str(error)) from None
            return _append(mesa, claim, client_id, user, address, expected_seq)
    except IntegrityError:
        # The same client id was committed at this moment through another
        # mesa's lock (a device bug): the unique constraint kept the log
        # clean; answer as for any known id.
        known = _known(mesa, client_id)
        if known:
            return known
        # Otherwise the mesa's table or juez was taken by another mesa
        # going into play at this very moment (see _check_free).
        raise MesaClosed(_("This mesa's table or juez was just taken by another mesa.")) from None


def _client_uuid(value):
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except (ValueError, TypeError, AttributeError):
        raise MalformedClaim(_("client_id must be a UUID.")) from None


def _known(mesa, client_id, log=None):
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
    claims = logged_claims(mesa, upto=entry.seq) if log is None else log[:entry.seq]
    state = replay(header_for(mesa), claims).state.as_dict()
    return Answer(entry=entry, state=state, last_seq=entry.seq, replayed=True)


def _lock(mesa_id):
    """Mesa ``mesa_id`` with its championship, its row locked until the end of the transaction."""
    rows = Mesa.objects.filter(pk=mesa_id).select_related("championship")
    if connection.features.has_select_for_update:
        return rows.select_for_update(of=("self",)).get()
    rows.update(last_seq=F("last_seq"))
    return rows.get()


def _append(mesa, claim, client_id, user, address, expected_seq):
    # One read of the log serves both to recognise a retry (its client id
    # is in this mesa's log) and to replay.
    log = list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values_list("client_id", "claim"))
    if client_id in {logged_id for logged_id, _claim in log}:
        return _known(mesa, client_id, log=[logged for _id, logged in log])
    if mesa.status not in OPEN_STATUSES or mesa.pair_a_id is None or mesa.pair_b_id is None:
        raise MesaClosed(
            _("Mesa %(mesa)s does not take claims (status: %(status)s).")
            % {"mesa": mesa, "status": mesa.get_status_display()}
        )
    if mesa.status == Mesa.Status.READY:
        _check_free(mesa)
    _check_director_holds(mesa, claim, user)
    seq = mesa.last_seq + 1
    if expected_seq is not None and expected_seq != seq:
        raise Conflict(
            _("Another device logged claims first: the log is at #%(last)s and this claim expected"
              " #%(expected)s. Check the board and claim again.")
            % {"last": mesa.last_seq, "expected": expected_seq},
            state=mesa.state, last_seq=mesa.last_seq,
        )
    result = replay(header_for(mesa), [logged for _id, logged in log] + [claim])
    decision = result.decisions[-1].as_dict()
    state = result.state.as_dict()
    entry = ClaimEntry.objects.create(
        mesa=mesa, seq=seq, client_id=client_id, kind=claim["kind"], claim=claim,
        decision=decision, accepted=decision["accepted"], juez_id=mesa.juez_id if user is None else user.pk,
        address=address,
    )
    _follow(mesa, state, seq)
    return Answer(entry=entry, state=state, last_seq=seq, replayed=False)


def _check_free(mesa):
    """Raise :class:`MesaClosed` when ``mesa``'s table or juez is still busy at another mesa.

    A table holds one mesa in play at a time, and a juez referees one mesa
    at a time (constraints of ``tournament.models.Mesa``); saying so here
    gives the juez the reason instead of a database error.
    """
    playing = Mesa.objects.filter(status__in=(Mesa.Status.IN_PLAY, Mesa.Status.SUSPENDED)).exclude(pk=mesa.pk)
    if mesa.table_number is not None:
        other = playing.filter(championship=mesa.championship_id, table_number=mesa.table_number).first()
        if other:
            raise MesaClosed(
                _("Table %(table)s is still in use by mesa %(other)s.")
                % {"table": mesa.table_number, "other": other}
            )
    if mesa.juez_id is not None:
        other = playing.filter(juez=mesa.juez_id).first()
        if other:
            raise MesaClosed(
                _("The juez of this mesa is still refereeing mesa %(other)s.") % {"other": other}
            )


def _check_director_holds(mesa, claim, user):
    """Raise :class:`MesaClosed` when the claim would undo what the Director holds (Art. 17).

    A mesa suspended by an admitted appeal waits for the Director's ruling:
    meanwhile only the Director logs claims there. And nobody but the
    Director voids an entry the Director logged (a ruling is final).
    """
    director = mesa.championship.director_id
    if director is None or (user is not None and user.pk == director):
        return
    if mesa.status == Mesa.Status.SUSPENDED and Appeal.objects.filter(
            mesa=mesa, status=Appeal.Status.ADMITTED, suspended_mesa=True).exists():
        raise MesaClosed(_("Art. 17: the mesa is suspended by an appeal until the Director's ruling."))
    if claim["kind"] == "void" and ClaimEntry.objects.filter(mesa=mesa, seq=claim["target"], juez=director).exists():
        raise MesaClosed(_("Art. 17: what the Director logged is final; only the Director can undo it."))


def _follow(mesa, state, seq):
    """Save the new state on ``mesa`` and move its status to follow the engine."""
    now = timezone.now()
    mesa.state = state
    mesa.last_seq = seq
    mesa.started_at = mesa.started_at or now
    if state["finished"]:
        # The tournament writes the result and sends the pairs on to their
        # next mesas (winner_to, loser_to), in this same transaction.
        mesa.save(update_fields=["state", "last_seq", "started_at"])
        record_result(mesa)
        return
    if state["suspended"]:
        mesa.status = Mesa.Status.SUSPENDED
    else:
        mesa.status = Mesa.Status.IN_PLAY
    mesa.save(update_fields=["state", "last_seq", "started_at", "status"])
