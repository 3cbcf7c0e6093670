"""The Director's desk of appeals, under /apelaciones/ (namespace ``appeals``; filing one is on the juez's screen)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.appeal_list, name="list"),
    path("<int:pk>/", views.appeal_detail, name="detail"),
]
