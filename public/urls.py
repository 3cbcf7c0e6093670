from django.urls import path

from . import views

app_name = "public"
urlpatterns = [
    path("en-vivo/<int:pk>/", views.scoreboard, name="scoreboard"),
    path("en-vivo/<int:pk>/proyector/", views.projector, name="projector"),
    path("pareja/<str:token>/", views.pair_page, name="pair"),
    path("pareja/enlace/<str:signed>/", views.pair_signed, name="pair_signed"),
    path("pareja/<str:token>/presente/", views.pair_here, name="pair_here"),
]
