"""The JSON API the juez's tablet and the other screens talk to (under /api/).

Endpoints
---------
``GET  /api/mesas/<id>/``            the mesa, its rule set, its state and every decision.
``GET  /api/mesas/<id>/claims/?after=<seq>``  the entries after ``seq`` and the state (null when
                                     ``seq`` is the last: the device has it): what the other
                                     devices of the mesa poll every second.
``POST /api/mesas/<id>/claims/``     log one claim: ``{"client_id", "claim", "expected_seq"}``.
``POST /api/mesas/<id>/signatures/`` sign the finished mesa's planilla.
``POST /api/levante/``               the levante checker for a "juego y veo" (Art. 5):
                                     ``{"table", "played", "previous", "taken", "mesa"?}``.

Answers are JSON; an error is a refusal's JSON (``{"code", "message", "article", "status", "detail"}``,
``config.refusals``) in the request's language (400 malformed, 403 not yours or a claim kind that is not yours to
log, 404 no such mesa, 409 conflict or a claim the mesa does not take now,
413 a body over the endpoint's cap: ``MAX_BODY``, more for a signature's
image). Answers are written in ASCII JSON (``\\u`` escapes), so that no
stored text can make one fail to encode.
Every state carries the engine's ``preview`` (what each claim would do
now) in the request's language, and every decision (the log's, an
entry's, a preview's refusal) its ``article_url`` in the rules page
(``refereeing.rulebook``).
Auth is Django's session (same origin as the screens), or a device opened
with the table's PIN; every POST sends the CSRF token in the
``X-CSRFToken`` header (see ``refereeing.access.permissions``).
"""

import io
from collections.abc import Mapping
from typing import IO, Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework import parsers, renderers, status
from rest_framework.exceptions import APIException, ParseError, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engines.rules import replay
from engines.rules.cards import CardError
from engines.rules.levante import captures, judge
from engines.rules.messages import kind_labels
from engines.rules.preview import localise
from engines.rules.rules import build_ruleset
from engines.text import TextError, check_text
from refereeing.access import permissions as mesa_access
from refereeing.access.permissions import SessionOrPinAuthentication, access, client_address
from refereeing.claimlog import log as claimlog
from refereeing.models import ClaimEntry
from refereeing.rulebook.document import article_url
from refereeing.signatures import MAX_PNG_BYTES, sign
from tournament.language import language, speak
from tournament.models import Mesa, Pair
from tournament.naming import person_name
from tournament.policy import ACT_AT_MESA, ASK_ENGINE, JUEZ_TABLET, VIEW_MESA, Allowed, may

# The largest body an endpoint reads: a claim or a levante question is
# well under 4 kB even with a 500-character reason written in \u escapes.
MAX_BODY = 16 * 1024
# Mesa ids and other numbers in a body: what the database's integers hold.
MAX_ID = 2**63 - 1


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "body_too_large"


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, bounded: a body over the view's ``max_body`` is a 413.

    DRF reads the request's stream to its end, past Django's
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``; this reads at most one byte more than
    the cap. It also refuses JSON nested deeper than Python can read:
    ``json`` raises RecursionError, not ValueError, on ``[[[[...`` a hundred
    thousand deep, which DRF would let through as a 500.
    """

    def parse(
        self, stream: IO[bytes], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        limit = getattr((parser_context or {}).get("view"), "max_body", MAX_BODY)
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise BodyTooLarge(_("The request is too large: at most %(limit)d bytes.") % {"limit": limit})
        try:
            return super().parse(io.BytesIO(body), media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The JSON is nested too deeply.")) from None


class JSONRenderer(renderers.JSONRenderer):
    """DRF's JSON renderer in ASCII: a lone surrogate kept in a claim's JSON
    by an older version is written as ``\\udXXX`` instead of failing the
    answer (UTF-8 cannot encode it), so no stored text can lose a mesa."""

    ensure_ascii = True


def json_object(request: Request) -> dict[str, Any]:
    """The request's JSON body, which must be an object."""
    if not isinstance(request.data, dict):
        raise ParseError(_("The body must be a JSON object."))
    return request.data


class MesaView(APIView):
    """A mesa's API view: ``acts`` (method -> act; "" for every other) say what the policy is asked
    (``tournament.policy.Allowed``) for the mesa the URL names."""

    authentication_classes = [SessionOrPinAuthentication]
    permission_classes = [Allowed]
    parser_classes = [JSONParser]
    renderer_classes = [JSONRenderer]
    max_body = MAX_BODY
    acts: Mapping[str, str] = {"": VIEW_MESA}
    object_act = VIEW_MESA

    @property
    def refusals(self) -> dict[str, str]:
        return {
            VIEW_MESA: _("This mesa is not yours."),
            ACT_AT_MESA: _(
                "Art. 16: only the mesa's juez, its inspector or a device opened with the table's PIN log claims here."
            ),
            JUEZ_TABLET: _("Only the juez of this mesa can do that."),
        }

    # What the guard reads of the URL's mesa, the record the view then takes (one read): with its championship
    # (the rule set) unless ``rules`` is False, and only ``fields`` of its row when given (any other is read when
    # asked for).
    rules = True
    fields: tuple[str, ...] = ()

    def find(self, kwargs: Mapping[str, Any]) -> Mesa | None:
        """The mesa the URL names, for the guard (``tournament.policy.Allowed``); a missing one is 404."""
        return self.read(kwargs["mesa_id"]) if "mesa_id" in kwargs else None

    def read(self, mesa_id: int) -> Mesa:
        rows = Mesa.objects.select_related("championship") if self.rules else Mesa.objects
        mesa: Mesa = get_object_or_404(rows.only(*self.fields) if self.fields else rows, pk=mesa_id)
        return mesa

    def mesa(self, request: Request, mesa_id: int) -> Mesa:
        """The mesa ``mesa_id``, when this request may see it: the URL's as its guard read it, or another one
        (a body's) read now and asked of the policy (``object_act``)."""
        guarded = getattr(self, "guarded", None)
        if isinstance(guarded, Mesa) and guarded.pk == mesa_id:
            return guarded
        mesa = self.read(mesa_id)
        self.check_object_permissions(request, mesa)
        return mesa

    def claim_role(self, request: Request, mesa: Mesa) -> str:
        """Who this request is at ``mesa`` when it logs a claim: one of its officials, whom alone the policy lets
        act there (asked here, of the row the claim log locked, for a claim: ``under_lock``)."""
        role: str | None = mesa_access.role(request, mesa)
        if role is None or not may(request, ACT_AT_MESA, mesa):
            raise PermissionDenied(self.refusals[ACT_AT_MESA])
        return role


# What the poll reads of the mesa's row (27 columns): who may read it (``access``: its juez, its inspector, its table,
# its championship), and its answer.
POLL_FIELDS = ("championship_id", "juez_id", "inspector_id", "table_number", "status", "state", "last_seq")


class MesaDetail(MesaView):
    def get(self, request: Request, mesa_id: int) -> Response:
        mesa = self.mesa(request, mesa_id)
        entries = list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values("seq", "client_id", "claim"))
        # The decisions as the engine sees the log now (a voided claim shows
        # who voided it), rather than as each was given when it arrived.
        result = replay(claimlog.header_for(mesa), [e["claim"] for e in entries])
        decisions = [
            {
                "seq": e["seq"],
                "client_id": str(e["client_id"]),
                "claim": e["claim"],
                "decision": decision_out(d.as_dict()),
            }
            for e, d in zip(entries, result.decisions)
        ]
        ruleset = mesa.ruleset
        return Response(
            {
                "mesa": mesa_dict(mesa),
                "ruleset": {
                    "profile": ruleset.profile,
                    "settings": ruleset.settings(),
                    "kinds": list(ruleset.kinds),
                    "labels": kind_labels(language()),
                },
                "players": mesa.players_at_table,
                "state": state_out(claimlog.state_dict(result)),
                "decisions": decisions,
                "last_seq": len(decisions),
                "signatures": list(mesa.signatures.order_by("signed_at").values("role", "name", "signed_at")),
                "access": access(request, mesa),
            }
        )


class MesaClaims(MesaView):
    acts = {"GET": VIEW_MESA, "POST": ACT_AT_MESA}
    under_lock = ("POST",)
    # The poll every device sends each second: the mesa's row alone (its state and last seq) answers it, and only
    # what says who may read it. A claim reads its row under the lock instead (``under_lock``).
    rules = False
    fields = POLL_FIELDS

    def get(self, request: Request, mesa_id: int) -> Response:
        try:
            after = int(request.query_params.get("after", 0))
        except ValueError:
            after = -1
        if after < 0:
            raise ParseError(_("after must be a whole number.")) from None
        mesa = self.mesa(request, mesa_id)
        entries = []
        if after < mesa.last_seq:
            # Bounded by the mesa's last seq, so entries and state agree
            # even when a claim is committed between the two queries.
            entries = [
                entry_out(claimlog.entry_dict(e))
                for e in ClaimEntry.objects.filter(mesa=mesa, seq__gt=after, seq__lte=mesa.last_seq).order_by("seq")
            ]
        # The state changes only with the log (``claimlog._follow``): a device that has every entry has their state,
        # and the poll a quiet mesa's tablets send each second leaves it out (null): a few bytes over the venue's wifi.
        state = state_out(mesa.state, mesa) if after != mesa.last_seq else None
        return Response({"entries": entries, "state": state, "last_seq": mesa.last_seq, "status": mesa.status})

    def post(self, request: Request, mesa_id: int) -> Response:
        body = json_object(request)
        try:
            answer = claimlog.record_claim(
                mesa_id,
                body.get("claim"),
                body.get("client_id"),
                user=request.user if request.user.is_authenticated else None,
                address=client_address(request),
                expected_seq=body.get("expected_seq"),
                role=lambda mesa: self.claim_role(request, mesa),
            )
        except Mesa.DoesNotExist:
            raise Http404 from None
        except claimlog.Conflict as conflict:
            # The refusal carries the state now, sent as every state is (config.refusals answers it).
            conflict.data["state"] = state_out(conflict.state)
            raise
        out = answer.as_dict()
        out["entry"] = entry_out(out["entry"])
        out["state"] = state_out(out["state"])
        return Response(out, status=status.HTTP_200_OK if answer.replayed else status.HTTP_201_CREATED)


class MesaSignatures(MesaView):
    acts = {"POST": JUEZ_TABLET}
    # The PNG in base64, and room for the rest of the body.
    max_body = MAX_PNG_BYTES * 4 // 3 + MAX_BODY

    def post(self, request: Request, mesa_id: int) -> Response:
        body = json_object(request)
        mesa = self.mesa(request, mesa_id)
        signature = sign(mesa, body.get("role"), body.get("name"), body.get("image"))
        return Response(
            {"role": signature.role, "name": signature.name, "signed_at": signature.signed_at},
            status=status.HTTP_201_CREATED,
        )


class Levante(MesaView):
    """Which captures the played card allows, and the verdict on the cards taken.

    The rule set decides only what happens to forgotten escalera cards; it
    is the mesa's when ``mesa`` is given (and the request may see it), else
    the default profile's.
    """

    acts = {"POST": ASK_ENGINE}

    def post(self, request: Request) -> Response:
        body = json_object(request)
        # Anything a client sent: checked below.
        table: Any
        played: Any
        previous: Any
        taken: Any
        table, played, previous, taken = (body.get(k) for k in ("table", "played", "previous", "taken"))
        taken = [] if taken is None else taken
        if not (
            _ranks(table)
            and _ranks(taken)
            and isinstance(played, str)
            and (previous is None or isinstance(previous, str))
        ):
            raise ParseError(_("table and taken must be lists of cards, played a card, previous a card or null."))
        try:
            for name, cards in (
                ("table", table),
                ("taken", taken),
                ("played", [played]),
                ("previous", [] if previous is None else [previous]),
            ):
                for card in cards:
                    check_text(card, "card", field=name)
        except TextError as error:
            raise ParseError(speak(error)) from None
        mesa_id = body.get("mesa")
        if mesa_id is None:
            ruleset = build_ruleset()
        elif type(mesa_id) is int and 1 <= mesa_id <= MAX_ID:
            ruleset = self.mesa(request, mesa_id).ruleset
        else:
            raise ParseError(_("mesa must be a mesa's id."))
        try:
            return Response(
                {
                    "captures": [c.as_dict() for c in captures(table, played, previous)],
                    "verdict": decision_out(judge(table, played, previous, taken, ruleset).as_dict()),
                }
            )
        except CardError as error:
            raise ParseError(speak(error)) from None


def decision_out(decision: dict[str, Any]) -> dict[str, Any]:
    """A decision as the API sends it: with the address of its article (contract 3)."""
    return {**decision, "article_url": article_url(decision.get("article"))}


def entry_out(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry as the API sends it."""
    return {**entry, "decision": decision_out(entry["decision"])}


def state_out(state: dict[str, Any] | None, mesa: Mesa | None = None) -> dict[str, Any] | None:
    """A state as the API sends it: its preview in the request's language, with article links.

    A state kept by an older version, without the preview or what the
    screen draws from (``counters``, ``undo``, ``juego_y_veo``), is made again from a replay
    of ``mesa``'s log, when ``mesa`` is given.
    """
    if not state:
        return state
    preview = state.get("preview")
    if mesa is not None and (
        preview is None or "counters" not in state or "undo" not in preview or "juego_y_veo" not in preview
    ):
        state = claimlog.state_dict(claimlog.mesa_replay(mesa))
        preview = state["preview"]
    if preview is None:
        return state
    return {**state, "preview": localise(preview, language(), article_url)}


def _ranks(value: object) -> bool:
    """True when ``value`` is a list of at most 40 cards written as strings."""
    return isinstance(value, list) and len(value) <= 40 and all(isinstance(card, str) for card in value)


def mesa_dict(mesa: Mesa) -> dict[str, Any]:
    """The mesa as the screens show it: its place, table, people and status."""

    def pair_dict(pair: Pair | None) -> dict[str, Any] | None:
        if pair is None:
            return None
        return {
            "id": pair.pk,
            "name": pair.name,
            "club": pair.club,
            "players": [
                {"number": p.number, "full_name": p.full_name, "representative": p.is_representative}
                for p in pair.players.order_by("number")
            ],
        }

    def person(user: AbstractBaseUser | None) -> dict[str, Any] | None:
        return None if user is None else {"id": user.pk, "name": person_name(user)}

    return {
        "id": mesa.pk,
        "name": str(mesa),
        "championship": {"id": mesa.championship_id, "name": str(mesa.championship)},
        "bracket": mesa.bracket,
        "round": mesa.round,
        "position": mesa.position,
        "table": mesa.table_number,
        "juez": person(mesa.juez),
        "inspector": person(mesa.inspector),
        "first_dealer": mesa.first_dealer,
        "status": mesa.status,
        "status_display": mesa.get_status_display(),
        "pairs": {"A": pair_dict(mesa.pair_a), "B": pair_dict(mesa.pair_b)},
        "started_at": mesa.started_at,
        "finished_at": mesa.finished_at,
    }
