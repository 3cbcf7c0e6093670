"""Printing a round or a championship's planillas, under /planilla/ (namespace ``planilla``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("campeonato/<int:pk>/imprimir/", views.batch, name="batch"),
    path("lote/<str:job>/", views.job, name="job"),
    path("lote/<str:job>/estado.json", views.job_status, name="job_status"),
    path("lote/<str:job>/planillas.pdf", views.job_pdf, name="job_pdf"),
]
