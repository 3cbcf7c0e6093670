"""The juez's screen, under /mesa/ (namespace ``refereeing``)."""

from django.urls import path

from . import api, api_schema, views  # noqa: F401  (api_schema describes the views to the OpenAPI schema)

urlpatterns = [
    path("", views.mesa_list, name="mesa_list"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("<int:mesa_id>/", views.mesa_screen, name="mesa_screen"),
    path("<int:mesa_id>/iniciar/", views.mesa_start, name="mesa_start"),
    path("<int:mesa_id>/vista-previa/", api.MesaPreview.as_view(), name="mesa_preview"),
]
