"""The organisers' pages of the ratings, under /campeonatos/ (namespace ``tournament``): the seeds by strength,
the persons of a championship, a past championship's import."""

from django.urls import path

from . import views

urlpatterns = [
    path("<int:pk>/fuerza/", views.seeds, name="seeds"),
    path("<int:pk>/personas/", views.persons, name="persons"),
    path("<int:pk>/personas/<int:doubt_pk>/", views.answer, name="answer_doubt"),
    path("historial/", views.history_import, name="history_import"),
]
