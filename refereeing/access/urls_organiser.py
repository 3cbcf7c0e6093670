"""The table card the organiser prints (it shows the PIN), and a new PIN: under /acceso/ (namespace ``access``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("mesa-fisica/<int:table_id>/tarjeta/", views.table_card, name="table_card"),
    path("mesa-fisica/<int:table_id>/pin-nuevo/", views.new_pin, name="new_pin"),
    # A mesa's card, as printed before tables had their own PIN: its table's.
    path("mesa/<int:mesa_id>/tarjeta/", views.old_table_card, name="old_table_card"),
]
