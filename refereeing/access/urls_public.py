"""Opening a mesa with the table's PIN, under /acceso/ (namespace ``access``; see ``refereeing.access.views``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.pin_page, name="pin"),
    path("mesa/<int:mesa_id>/", views.mesa_pin_page, name="mesa_pin"),
]
