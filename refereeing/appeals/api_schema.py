"""The OpenAPI description of the appeals at the table (``refereeing.appeals.api``).

It reuses the claim log's error answers and path parameter
(``refereeing.claimlog.api_schema``), so every endpoint of the schema says
its errors the same way.
"""

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers

from refereeing.claimlog.api_schema import MESA_ID, errors

from . import api


class AppealAtTheTable(serializers.Serializer):
    id = serializers.IntegerField()
    pair = serializers.ChoiceField(choices=["A", "B"])
    seq = serializers.IntegerField(help_text="The seq of the decision appealed.")
    status = serializers.CharField()
    status_label = serializers.CharField(help_text="The status in the request's language.")
    ruling = serializers.CharField(allow_blank=True)


class Appeals(serializers.Serializer):
    appeals = AppealAtTheTable(many=True)


class Acknowledgement(serializers.Serializer):
    appeal = serializers.IntegerField(help_text="The appeal whose ruling the pairs have read.")


extend_schema_view(
    get=extend_schema(
        operation_id="mesa_appeals",
        summary="The mesa's appeals the pairs have not acknowledged yet (Art. 17)",
        parameters=[MESA_ID],
        responses={200: Appeals, **errors(403, 404, 503)},
    ),
    post=extend_schema(
        operation_id="mesa_appeals_acknowledge",
        summary="The pairs have read an appeal's ruling",
        parameters=[MESA_ID],
        request=Acknowledgement,
        responses={200: Appeals, **errors(400, 403, 404, 413, 415, 503)},
    ),
)(api.MesaAppeals)
