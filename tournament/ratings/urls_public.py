"""The ranking and each person's page, for everyone, at the venue and on the mirror: under /jugadores/
(namespace ``ratings``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.ranking, name="ranking"),
    path("<int:pk>/", views.person, name="person"),
]
