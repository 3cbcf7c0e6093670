"""The table card the organiser prints (it shows the PIN), and a new PIN: under /acceso/ (namespace ``access``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("mesa/<int:mesa_id>/tarjeta/", views.table_card, name="table_card"),
    path("mesa/<int:mesa_id>/pin-nuevo/", views.new_pin, name="new_pin"),
]
