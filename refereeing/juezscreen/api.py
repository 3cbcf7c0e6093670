"""The juez's screen asks the engine about one claim before logging it (issue 32).

``POST /mesa/<id>/vista-previa/``  ``{"claim": {...}}``: what the claim would
                                   get as the mesa's next claim, decided by the
                                   engine on the log as it stands; nothing is
                                   logged. ``{"last_seq", "preview"}``, the
                                   preview's entry in the request's language.

The state's preview (``engines.rules.preview``) answers every claim the
screen offers but one: a conteo whose counts leave cards out (cards left on
the table or set aside, Art. 3g). The screen asks this for it while the
juez types, and before sending one that was tapped offline. Who may: the
mesa's officials, as for logging (``refereeing.access``). A void is not
asked here: the state's preview names the one the screen offers.
"""

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.response import Response

from engines.rules.claims import ClaimError, parse_claim
from engines.rules.preview import localise_entry, next_claim
from refereeing.claimlog import log as claimlog
from refereeing.claimlog.api import MesaView, json_object
from refereeing.rulebook.document import article_url
from tournament.language import language, speak
from tournament.policy import ACT_AT_MESA


class MesaPreview(MesaView):
    acts = {"POST": ACT_AT_MESA}

    def post(self, request, mesa_id):
        body = json_object(request)
        mesa = self.mesa(request, mesa_id)
        try:
            claim = parse_claim(body.get("claim"), players=mesa.players_at_table, last_seq=mesa.last_seq)
        except ClaimError as error:
            raise ParseError(speak(error)) from None
        if claim["kind"] == "void":
            raise ParseError(_("A void is not previewed here: the state's preview names the claim it would void."))
        # What the juez would log: the Director's mark is the Director's (refereeing.claimlog.log._marked).
        claim.pop("director", None)
        result = claimlog.mesa_replay(mesa)
        return Response(
            {
                "last_seq": len(result.decisions),
                "preview": localise_entry(next_claim(result, claim), language(), article_url),
            }
        )
