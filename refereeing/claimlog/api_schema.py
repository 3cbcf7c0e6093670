"""The OpenAPI 3 description of the JSON API (drf-spectacular), served at /api/schema/.

The views in ``refereeing.claimlog.api`` read and answer plain dicts; this module
describes those dicts to other software and to the fuzzer
(``tests/server/test_schemathesis.py``), and attaches each description to
its view. Rules:

- Every endpoint lists every status it answers, each error as ``Error``
  (a refusal's shape, ``config.refusals``), so an answer outside the schema is a bug to fix.
- The shapes the engine owns and grows (a mesa's ``state``, a claim, a
  decision's ``detail``, the preview) are objects whose listed fields are
  required and whose other fields are allowed: the schema pins what the
  screens read, not every engine field.
"""

from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers

from . import api


class SessionOrPinScheme(OpenApiAuthenticationExtension):
    """Django's session cookie: a signed-in user's, or a device opened with the table's PIN."""

    target_class = "refereeing.access.permissions.SessionOrPinAuthentication"
    name = "session"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": settings.SESSION_COOKIE_NAME,
            "description": "The session of a signed-in user or of a device opened with the table's PIN. "
            "Every POST also sends the csrftoken cookie's value in the X-CSRFToken header.",
        }


SCORES = serializers.DictField(child=serializers.IntegerField(), help_text='Points by pair: {"A": n, "B": n}.')


class Error(serializers.Serializer[Any]):
    """A refusal (``tournament.errors.Refusal``), or any other error, as the API answers it."""

    code = serializers.CharField(help_text="A stable name of the refusal, for software.")
    message = serializers.CharField(help_text="What went wrong, in the request's language.")
    article = serializers.CharField(allow_null=True, help_text="The rule that refused (Art. N), null for none.")
    status = serializers.IntegerField(help_text="The HTTP status of the answer.")
    detail = serializers.CharField(help_text="The message again, as DRF names it.")


class Conflict(Error):
    state = serializers.JSONField(required=False, help_text="The mesa's state now (stale expected_seq).")
    last_seq = serializers.IntegerField(required=False)


class Decision(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    accepted = serializers.BooleanField()
    points = SCORES
    code = serializers.CharField(allow_null=True, help_text="A refusal's stable code, null when accepted.")
    message = serializers.CharField(allow_blank=True)
    message_en = serializers.CharField(allow_blank=True)
    article = serializers.CharField(allow_null=True, allow_blank=True)
    voided_by = serializers.IntegerField(allow_null=True)


class Entry(serializers.Serializer[Any]):
    seq = serializers.IntegerField(min_value=1)
    client_id = serializers.UUIDField()
    claim = serializers.JSONField(help_text="The claim as logged (the engine's format, `engines.rules.claims`).")
    decision = Decision()


class State(serializers.Serializer[Any]):
    scores = SCORES
    chicas = SCORES
    chica = serializers.IntegerField()
    # The game's data, which shadows DRF's Serializer.data in the types alone: this class only describes.
    data = serializers.IntegerField()  # type: ignore[assignment]
    mano = serializers.IntegerField()
    dealer = serializers.CharField()
    finished = serializers.BooleanField()
    winner = serializers.CharField(allow_null=True)
    suspended = serializers.BooleanField()
    protestable = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="By protesting pair: the seqs of the plays its juego y veo may name now (the engine's answer).",
    )
    next = serializers.ChoiceField(
        ["deal", "play", "mano", "last_mano", "conteo", "resume", "finished"],
        help_text="The step the engine expects next (the screen's centre panel).",
    )
    counters = serializers.JSONField(
        help_text='The mano in play, or between datas the data dealt next: {"chica", "data", "mano", "dealer"}.'
    )
    ended = serializers.ChoiceField(
        ["chica", "mesa"],
        allow_null=True,
        help_text="A chica ended and the next data is not dealt yet; the mesa is over.",
    )
    chips = serializers.JSONField(help_text='By pair: the score as chips (Art. 14), {"perros", "tantos", ...}.')


class ClaimRequest(serializers.Serializer[Any]):
    client_id = serializers.UUIDField(help_text="Made by the device; a retry with the same id gets the first answer.")
    claim = serializers.JSONField(help_text='The claim, e.g. {"kind": "caida", "pair": "A"}.')
    expected_seq = serializers.IntegerField(required=False, allow_null=True, help_text="The seq this claim will get.")


class ClaimAnswer(serializers.Serializer[Any]):
    entry = Entry()
    state = State()
    last_seq = serializers.IntegerField()


class Poll(serializers.Serializer[Any]):
    entries = Entry(many=True)
    state = State(allow_null=True, help_text="null when ``after`` is the last seq: the device has this state already.")
    last_seq = serializers.IntegerField()
    status = serializers.CharField()


class Person(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class Player(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    full_name = serializers.CharField()
    representative = serializers.BooleanField()


class PairOfMesa(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    players = Player(many=True)


class Pairs(serializers.Serializer[Any]):
    A = PairOfMesa(allow_null=True)
    B = PairOfMesa(allow_null=True)


class MesaInfo(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    championship = Person()
    bracket = serializers.CharField()
    round = serializers.IntegerField()
    position = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    juez = Person(allow_null=True)
    inspector = Person(allow_null=True)
    status = serializers.CharField()
    status_display = serializers.CharField()
    pairs = Pairs()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class Ruleset(serializers.Serializer[Any]):
    profile = serializers.CharField()
    settings = serializers.JSONField()
    kinds = serializers.ListField(child=serializers.CharField())


class DecisionOfLog(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    client_id = serializers.UUIDField()
    claim = serializers.JSONField()
    decision = Decision()


class SignatureInfo(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=["A", "B", "juez"])
    name = serializers.CharField()
    signed_at = serializers.DateTimeField()


class MesaAnswer(serializers.Serializer[Any]):
    mesa = MesaInfo()
    ruleset = Ruleset()
    players = serializers.IntegerField()
    state = State()
    decisions = DecisionOfLog(many=True)
    last_seq = serializers.IntegerField()
    signatures = SignatureInfo(many=True)
    access = serializers.ChoiceField(choices=["act", "view"])


class SignatureRequest(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=["A", "B", "juez"])
    name = serializers.CharField()
    image = serializers.CharField(help_text="data:image/png;base64,... (a PNG under 200 kB).")


class LevanteRequest(serializers.Serializer[Any]):
    table = serializers.ListField(child=serializers.CharField(), max_length=40)
    played = serializers.CharField()
    previous = serializers.CharField(required=False, allow_null=True)
    taken = serializers.ListField(child=serializers.CharField(), max_length=40, required=False, allow_null=True)
    mesa = serializers.IntegerField(required=False, allow_null=True)


class Capture(serializers.Serializer[Any]):
    cards = serializers.ListField(child=serializers.CharField())
    caida = serializers.BooleanField()
    limpia = serializers.BooleanField()


class Verdict(serializers.Serializer[Any]):
    verdict = serializers.ChoiceField(choices=["legal", "incomplete", "illegal"])
    code = serializers.CharField(allow_null=True)
    message = serializers.CharField(allow_blank=True)
    message_en = serializers.CharField(allow_blank=True)
    article = serializers.CharField(allow_null=True, allow_blank=True)
    capture = Capture(allow_null=True)
    left_behind = serializers.ListField(child=serializers.CharField())


class LevanteAnswer(serializers.Serializer[Any]):
    captures = Capture(many=True)
    verdict = Verdict()


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The error answers of an endpoint, each ``Error``."""
    words = {
        400: "Malformed input.",
        403: "Not signed in, no CSRF token, or not this mesa's juez.",
        404: "No such mesa.",
        409: "Conflict.",
        413: "The body is too large.",
        415: "The body is not JSON.",
        503: "The database or Redis is not answering.",
    }
    return {code: OpenApiResponse(Error, description=words[code]) for code in codes}


MESA_ID = OpenApiParameter("mesa_id", int, OpenApiParameter.PATH, description="The mesa's id.")

extend_schema_view(
    get=extend_schema(
        operation_id="mesa_detail",
        summary="A mesa: its people, rule set, state and every decision",
        parameters=[MESA_ID],
        responses={200: MesaAnswer, **errors(403, 404, 503)},
    )
)(api.MesaDetail)

extend_schema_view(
    get=extend_schema(
        operation_id="mesa_claims_poll",
        summary="The entries after a seq, and the state unless the device has it (polled every second)",
        parameters=[MESA_ID, OpenApiParameter("after", int, description="The last seq the device has (0 by default).")],
        responses={200: Poll, **errors(400, 403, 404, 503)},
    ),
    post=extend_schema(
        operation_id="mesa_claims_log",
        summary="Log one claim",
        parameters=[MESA_ID],
        request=ClaimRequest,
        examples=[
            OpenApiExample(
                "A mano",
                request_only=True,
                value={
                    "client_id": "5b0c8f4e-6a3d-4c1e-9f3b-2d7a1e0c4b6a",
                    "claim": {"kind": "mano"},
                    "expected_seq": 2,
                },
            )
        ],
        responses={
            201: ClaimAnswer,
            200: OpenApiResponse(ClaimAnswer, description="The first answer to this client_id."),
            409: OpenApiResponse(Conflict, description="Another device logged first, or the mesa takes no claims."),
            **errors(400, 403, 404, 413, 415, 503),
        },
    ),
)(api.MesaClaims)

extend_schema_view(
    post=extend_schema(
        operation_id="mesa_signatures",
        summary="Sign a finished mesa's planilla",
        parameters=[MESA_ID],
        request=SignatureRequest,
        responses={201: SignatureInfo, **errors(400, 403, 404, 409, 413, 415, 503)},
    )
)(api.MesaSignatures)

extend_schema_view(
    post=extend_schema(
        operation_id="levante",
        summary="The levante checker (juego y veo, Art. 5)",
        request=LevanteRequest,
        examples=[
            OpenApiExample(
                "A caída on a 7",
                request_only=True,
                value={"table": ["3", "4", "7"], "played": "7", "previous": "7", "taken": ["7"]},
            )
        ],
        responses={200: LevanteAnswer, **errors(400, 403, 404, 413, 415, 503)},
    )
)(api.Levante)
