"""Opening a mesa with the table's PIN, under /acceso/ (see ``refereeing.pin_views``)."""
from django.urls import path

from . import pin_views

app_name = "access"
urlpatterns = [
    path("", pin_views.pin_page, name="pin"),
    path("mesa/<int:mesa_id>/", pin_views.mesa_pin_page, name="mesa_pin"),
    path("mesa/<int:mesa_id>/qr.svg", pin_views.mesa_qr, name="mesa_qr"),
    path("mesa/<int:mesa_id>/tarjeta/", pin_views.table_card, name="table_card"),
]
