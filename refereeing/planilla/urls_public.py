"""Checking a printed planilla against the database, for anyone: under /planilla/ (namespace ``planilla``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("verificar/", views.verify_form, name="verify_form"),
    path("verificar/<str:code>/", views.verify, name="verify"),
]
