"""The JSON API the juez's tablet talks to, under /api/ (namespace ``api``; see ``refereeing.claimlog.api``)."""

from django.urls import path

from . import api, api_schema  # noqa: F401  (api_schema describes the views to the OpenAPI schema)

urlpatterns = [
    path("mesas/<int:mesa_id>/", api.MesaDetail.as_view(), name="mesa"),
    path("mesas/<int:mesa_id>/claims/", api.MesaClaims.as_view(), name="claims"),
    path("mesas/<int:mesa_id>/signatures/", api.MesaSignatures.as_view(), name="signatures"),
    path("levante/", api.Levante.as_view(), name="levante"),
]
