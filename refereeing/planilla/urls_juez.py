"""One mesa's planilla, for whoever may see the mesa: under /planilla/ (namespace ``planilla``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("mesa/<int:pk>.pdf", views.mesa_pdf, name="mesa_pdf"),
]
