"""The guides, under /ayuda/, for everyone (namespace ``guides``)."""

from django.urls import path

from . import views

app_name = "guides"
urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.guide, name="guide"),
]
