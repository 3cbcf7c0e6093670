"""The appeals at the table, as JSON for the juez's tablet (Art. 17).

``GET  /mesa/<id>/apelaciones/``  ``{"appeals": [...]}``: the mesa's appeals the
                                  pairs have not acknowledged yet (id, pair, seq,
                                  status and its words, ruling); the tablet asks
                                  every second while it knows of one, or while
                                  the mesa is suspended (it may be for one).
``POST /mesa/<id>/apelaciones/``  ``{"appeal": id}``: the pairs have read its
                                  ruling; answers the list left.

Who may: anyone who may see the mesa reads; its juez, or a tablet opened
with the table's PIN, acknowledges (``refereeing.access``).
"""

from rest_framework.response import Response

from refereeing.access import permissions as mesa_access
from refereeing.claimlog.api import MesaView, json_object
from tournament.policy import JUEZ_TABLET, VIEW_MESA

from . import procedure


class MesaAppeals(MesaView):
    acts = {"GET": VIEW_MESA, "POST": JUEZ_TABLET}
    rules = False

    def get(self, request, mesa_id):
        mesa = self.mesa(request, mesa_id)
        return Response({"appeals": procedure.at_the_table(mesa.pk)})

    def post(self, request, mesa_id):
        body = json_object(request)
        mesa = self.mesa(request, mesa_id)
        procedure.acknowledge(mesa, body.get("appeal"), by=mesa_access.juez_at_tablet(request, mesa))
        return Response({"appeals": procedure.at_the_table(mesa.pk)})
