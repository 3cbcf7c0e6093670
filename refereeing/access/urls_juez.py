"""What a device opened with a table's PIN shows there, under /acceso/ (namespace ``access``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("mesa-fisica/<int:table_id>/ahora/", views.table_screen, name="table_screen"),
    path("mesa-fisica/<int:table_id>/estado/", views.table_state, name="table_state"),
]
