from django.urls import path

from . import views

urlpatterns = [
    path("<int:pk>/sorteo/", views.draw, name="draw"),
    path("<int:pk>/sorteo/corregir/", views.draw_correct, name="draw_correct"),
    path("<int:pk>/sorteo/eliminatoria/", views.draw_knockout, name="draw_knockout"),
]
