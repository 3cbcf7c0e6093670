"""The juez's screen, under /mesa/."""
from django.urls import path

from . import views

app_name = "refereeing"
urlpatterns = [
    path("", views.mesa_list, name="mesa_list"),
    path("<int:mesa_id>/", views.mesa_screen, name="mesa_screen"),
]
