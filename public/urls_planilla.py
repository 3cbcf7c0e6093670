"""Checking a printed planilla against the database, for anyone: under /planilla/ (namespace ``planilla``)."""

from django.urls import path

from . import planilla_check

urlpatterns = [
    path("verificar/", planilla_check.verify_form, name="verify_form"),
    path("verificar/<str:code>/", planilla_check.verify, name="verify"),
]
