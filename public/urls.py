from django.urls import path

from . import views

app_name = "public"
urlpatterns = [
    path("en-vivo/<int:pk>/", views.scoreboard, name="scoreboard"),
    path("en-vivo/<int:pk>/proyector/", views.projector, name="projector"),
    path("pareja/<str:token>/", views.pair_page, name="pair"),
]
