"""The juez's screen, under /mesa/ (namespace ``refereeing``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.mesa_list, name="mesa_list"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("<int:mesa_id>/", views.mesa_screen, name="mesa_screen"),
    path("<int:mesa_id>/iniciar/", views.mesa_start, name="mesa_start"),
]
