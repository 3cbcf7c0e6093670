"""The Comité's persons, under /comite/personas/ (namespace ``persons``): merge, split, undo."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.committee_persons, name="list"),
    path("<int:pk>/", views.committee_person, name="person"),
    path("cambios/<int:pk>/deshacer/", views.committee_undo, name="undo"),
]
