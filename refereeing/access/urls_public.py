"""Opening a physical table with its PIN, under /acceso/ (namespace ``access``; see ``refereeing.access.views``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.pin_page, name="pin"),
    path("mesa-fisica/<int:table_id>/", views.table_pin_page, name="table_pin"),
    # A mesa's PIN page, on cards printed before tables had their own PIN: its table's.
    path("mesa/<int:mesa_id>/", views.old_mesa_pin_page, name="mesa_pin"),
]
