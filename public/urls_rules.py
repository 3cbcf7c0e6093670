"""The rules page, under /reglas/, for everyone (URL name ``rules``, without a namespace)."""

from django.urls import path

from . import rules

urlpatterns = [
    path("", rules.rules, name="rules"),
]
