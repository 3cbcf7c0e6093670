"""The juez's screen, under /mesa/."""
from django.urls import path

from . import appeal_views, views

app_name = "refereeing"
urlpatterns = [
    path("", views.mesa_list, name="mesa_list"),
    path("<int:mesa_id>/", views.mesa_screen, name="mesa_screen"),
    path("<int:mesa_id>/apelacion/", appeal_views.file_appeal, name="file_appeal"),
]
