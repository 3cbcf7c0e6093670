"""The table's QR code, for whoever may see the mesa: under /acceso/ (namespace ``access``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("mesa/<int:mesa_id>/qr.svg", views.mesa_qr, name="mesa_qr"),
]
