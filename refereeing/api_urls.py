"""The JSON API, under /api/ (see ``refereeing.api``)."""
from django.urls import path

from . import api

app_name = "api"
urlpatterns = [
    path("mesas/<int:mesa_id>/", api.MesaDetail.as_view(), name="mesa"),
    path("mesas/<int:mesa_id>/claims/", api.MesaClaims.as_view(), name="claims"),
    path("mesas/<int:mesa_id>/signatures/", api.MesaSignatures.as_view(), name="signatures"),
    path("levante/", api.Levante.as_view(), name="levante"),
]
