"""The JSON API the juez's tablet and the other screens talk to (under /api/).

Endpoints
---------
``GET  /api/mesas/<id>/``            the mesa, its rule set, its state and every decision.
``GET  /api/mesas/<id>/claims/?after=<seq>``  the entries after ``seq`` and the state:
                                     what the other devices of the mesa poll every second.
``POST /api/mesas/<id>/claims/``     log one claim: ``{"client_id", "claim", "expected_seq"}``.
``POST /api/mesas/<id>/signatures/`` sign the finished mesa's planilla.
``POST /api/levante/``               the levante checker for a "juego y veo" (Art. 5):
                                     ``{"table", "played", "previous", "taken", "mesa"?}``.

Answers are JSON; an error is ``{"detail": "..."}`` in the request's
language (400 malformed, 403 not yours, 404 no such mesa, 409 conflict).
Auth is Django's session (same origin as the screens), or a device opened
with the table's PIN; every POST sends the CSRF token in the
``X-CSRFToken`` header (see ``refereeing.access``).
"""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework import parsers, status
from rest_framework.exceptions import ParseError, PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from refereeing import claimlog
from refereeing.access import (
    ACT, SessionOrPinAuthentication, SignedInOrPinDevice, access, client_address,
)
from refereeing.engine import KINDS, replay
from refereeing.engine.cards import CardError
from refereeing.engine.levante import captures, judge
from refereeing.engine.rules import build_ruleset
from refereeing.models import ClaimEntry
from refereeing.signatures import SignatureError, sign
from tournament.models import Mesa
from tournament.services import person_name

# Claim kinds that score only under some rule sets: the setting that turns
# each on (None in the rule set means the play is no claim of its own).
VARIANT_KINDS = {"caida_en_ronda": "caida_en_ronda", "cuatro_caidas": "cuatro_caidas"}


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, which also refuses JSON nested deeper than Python can read.

    ``json`` raises RecursionError, not ValueError, on ``[[[[...`` a hundred
    thousand deep; DRF would let it through as a 500.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The JSON is nested too deeply.")) from None


def json_object(request):
    """The request's JSON body, which must be an object."""
    if not isinstance(request.data, dict):
        raise ParseError(_("The body must be a JSON object."))
    return request.data


class MesaView(APIView):
    authentication_classes = [SessionOrPinAuthentication]
    permission_classes = [SignedInOrPinDevice]
    parser_classes = [JSONParser]

    def mesa(self, request, mesa_id, need=None, rules=True):
        """The mesa, when this request may see it (and act on it, if ``need``).

        ``rules``: read its championship (the rule set) in the same query.
        """
        mesa = get_object_or_404(Mesa.objects.select_related("championship") if rules else Mesa.objects, pk=mesa_id)
        self.authorise(request, mesa, need)
        return mesa

    def authorise(self, request, mesa, need=None):
        """Raise 403 unless this request may see ``mesa`` (and act on it, if ``need``)."""
        level = access(request, mesa)
        if level is None:
            raise PermissionDenied(_("This mesa is not yours."))
        if need == ACT and level != ACT:
            raise PermissionDenied(_("Only the juez of this mesa can do that."))
        self.level = level


class MesaDetail(MesaView):
    def get(self, request, mesa_id):
        mesa = self.mesa(request, mesa_id)
        entries = list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values("seq", "client_id", "claim"))
        # The decisions as the engine sees the log now (a voided claim shows
        # who voided it), rather than as each was given when it arrived.
        result = replay(claimlog.header_for(mesa), [e["claim"] for e in entries])
        decisions = [
            {"seq": e["seq"], "client_id": str(e["client_id"]), "claim": e["claim"], "decision": d.as_dict()}
            for e, d in zip(entries, result.decisions)
        ]
        ruleset = mesa.championship.ruleset
        return Response({
            "mesa": mesa_dict(mesa),
            "ruleset": {
                "profile": ruleset.profile,
                "settings": ruleset.settings(),
                "kinds": [k for k in KINDS if k not in VARIANT_KINDS or getattr(ruleset, VARIANT_KINDS[k]) is not None],
            },
            "players": mesa.championship.players_at_table,
            "state": result.state.as_dict(),
            "decisions": decisions,
            "last_seq": len(decisions),
            "signatures": list(mesa.signatures.order_by("signed_at").values("role", "name", "signed_at")),
            "access": self.level,
        })


class MesaClaims(MesaView):
    def get(self, request, mesa_id):
        try:
            after = int(request.query_params.get("after", 0))
        except ValueError:
            raise ParseError(_("after must be a whole number.")) from None
        # The poll every device sends each second: the mesa's row alone (its
        # state and last seq) answers it.
        mesa = self.mesa(request, mesa_id, rules=False)
        entries = []
        if after < mesa.last_seq:
            # Bounded by the mesa's last seq, so entries and state agree
            # even when a claim is committed between the two queries.
            entries = [
                claimlog.entry_dict(e)
                for e in ClaimEntry.objects.filter(mesa=mesa, seq__gt=after, seq__lte=mesa.last_seq).order_by("seq")
            ]
        return Response({"entries": entries, "state": mesa.state, "last_seq": mesa.last_seq, "status": mesa.status})

    def post(self, request, mesa_id):
        body = json_object(request)
        try:
            answer = claimlog.record_claim(
                mesa_id, body.get("claim"), body.get("client_id"),
                user=request.user if request.user.is_authenticated else None,
                address=client_address(request), expected_seq=body.get("expected_seq"),
                check=lambda mesa: self.authorise(request, mesa, need=ACT),
            )
        except Mesa.DoesNotExist:
            raise Http404 from None
        except claimlog.Conflict as conflict:
            return Response(
                {"detail": conflict.message, "state": conflict.state, "last_seq": conflict.last_seq},
                status=status.HTTP_409_CONFLICT,
            )
        except claimlog.MesaClosed as error:
            return Response({"detail": error.message}, status=status.HTTP_409_CONFLICT)
        except claimlog.MalformedClaim as error:
            raise ParseError(error.message) from None
        return Response(answer.as_dict(), status=status.HTTP_200_OK if answer.replayed else status.HTTP_201_CREATED)


class MesaSignatures(MesaView):
    def post(self, request, mesa_id):
        body = json_object(request)
        mesa = self.mesa(request, mesa_id, need=ACT)
        try:
            signature = sign(mesa, body.get("role"), body.get("name"), body.get("image"))
        except SignatureError as error:
            code = status.HTTP_409_CONFLICT if error.conflict else status.HTTP_400_BAD_REQUEST
            return Response({"detail": error.message}, status=code)
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

    def post(self, request):
        body = json_object(request)
        table, played, previous, taken = (body.get(k) for k in ("table", "played", "previous", "taken"))
        taken = [] if taken is None else taken
        if not (_ranks(table) and _ranks(taken) and isinstance(played, str)
                and (previous is None or isinstance(previous, str))):
            raise ParseError(_("table and taken must be lists of cards, played a card, previous a card or null."))
        mesa_id = body.get("mesa")
        if mesa_id is None:
            ruleset = build_ruleset()
        elif type(mesa_id) is int:
            ruleset = self.mesa(request, mesa_id).championship.ruleset
        else:
            raise ParseError(_("mesa must be a mesa's id."))
        try:
            return Response({
                "captures": [c.as_dict() for c in captures(table, played, previous)],
                "verdict": judge(table, played, previous, taken, ruleset).as_dict(),
            })
        except CardError as error:
            raise ParseError(str(error)) from None


def _ranks(value):
    """True when ``value`` is a list of at most 40 cards written as strings."""
    return isinstance(value, list) and len(value) <= 40 and all(isinstance(card, str) for card in value)


def mesa_dict(mesa):
    """The mesa as the screens show it: its place, table, people and status."""
    def pair_dict(pair):
        if pair is None:
            return None
        return {
            "id": pair.pk, "name": pair.name, "club": pair.club,
            "players": [
                {"number": p.number, "full_name": p.full_name, "representative": p.is_representative}
                for p in pair.players.order_by("number")
            ],
        }

    def person(user):
        return None if user is None else {"id": user.pk, "name": person_name(user)}

    return {
        "id": mesa.pk,
        "name": str(mesa),
        "championship": {"id": mesa.championship_id, "name": str(mesa.championship)},
        "bracket": mesa.bracket, "round": mesa.round, "position": mesa.position,
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
