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

from django.utils.translation import gettext as _
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from refereeing.access import permissions as mesa_access
from refereeing.claimlog.api import MesaView, json_object

from . import procedure


class MesaAppeals(MesaView):
    def get(self, request, mesa_id):
        mesa = self.mesa(request, mesa_id, rules=False)
        return Response({"appeals": procedure.at_the_table(mesa.pk)})

    def post(self, request, mesa_id):
        body = json_object(request)
        mesa = self.mesa(request, mesa_id, rules=False)
        if not mesa_access.on_juez_tablet(request, mesa):
            raise PermissionDenied(_("Only the juez of this mesa can do that."))
        procedure.acknowledge(mesa, body.get("appeal"), by=mesa_access.juez_at_tablet(request, mesa))
        return Response({"appeals": procedure.at_the_table(mesa.pk)})
