"""The rules page, under /reglas/, for everyone (URL name ``rules``, without a namespace)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.rules, name="rules"),
]
