"""Filing an appeal at the table, from the juez's screen: under /mesa/ (namespace ``refereeing``)."""

from django.urls import path

from . import api, api_schema, views  # noqa: F401  (api_schema describes the views to the OpenAPI schema)

urlpatterns = [
    path("<int:mesa_id>/apelacion/", views.file_appeal, name="file_appeal"),
    path("<int:mesa_id>/apelaciones/", api.MesaAppeals.as_view(), name="mesa_appeals"),
]
