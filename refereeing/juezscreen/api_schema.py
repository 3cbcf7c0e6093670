"""The OpenAPI description of the screen's question to the engine (``refereeing.juezscreen.api``).

It reuses the claim log's error answers and path parameter
(``refereeing.claimlog.api_schema``), so every endpoint of the schema says
its errors the same way.
"""

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import serializers

from refereeing.claimlog.api_schema import MESA_ID, errors

from . import api


class PreviewRequest(serializers.Serializer):
    claim = serializers.JSONField(help_text='The claim, e.g. {"kind": "conteo", "cards": {"A": 15, "B": 23}}.')


class PreviewEntry(serializers.Serializer):
    points = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text='An accepted claim\'s points: {"A": n, "B": n}.'
    )
    ends = serializers.CharField(required=False, help_text="What the claim would end: chica or mesa.")
    refused = serializers.CharField(required=False, help_text="The refusal's stable code.")
    note = serializers.CharField(required=False, help_text="An accepted claim's note (treinta_y_ocho).")
    article = serializers.CharField(required=False)
    detail = serializers.JSONField(required=False)
    message = serializers.CharField(required=False, help_text="The refusal or note, in the request's language.")
    article_url = serializers.CharField(allow_null=True, help_text="The article in the rules page.")


class PreviewAnswer(serializers.Serializer):
    last_seq = serializers.IntegerField(help_text="The seq of the log's last entry: the claim would be the next.")
    preview = PreviewEntry()


extend_schema_view(
    post=extend_schema(
        operation_id="mesa_claim_preview",
        summary="What one claim would get as the mesa's next claim; nothing is logged",
        parameters=[MESA_ID],
        request=PreviewRequest,
        examples=[
            OpenApiExample(
                "A conteo with two cards left on the table",
                request_only=True,
                value={"claim": {"kind": "conteo", "cards": {"A": 15, "B": 23}}},
            )
        ],
        responses={200: PreviewAnswer, **errors(400, 403, 404, 413, 415, 503)},
    )
)(api.MesaPreview)
