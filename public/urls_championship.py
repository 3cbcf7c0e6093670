"""A championship's bracket and standings, for everyone: under /campeonatos/ (namespace ``tournament``,
beside the organisers' pages)."""

from django.urls import path

from . import championship

urlpatterns = [
    path("<int:pk>/llaves/", championship.bracket, name="bracket"),
    path("<int:pk>/posiciones/", championship.standings_view, name="standings"),
]
