"""The planilla's URLs, mounted under ``planilla/``."""
from django.urls import path

from refereeing import planilla_views as views

app_name = "planilla"
urlpatterns = [
    path("mesa/<int:pk>.pdf", views.mesa_pdf, name="mesa_pdf"),
    path("campeonato/<int:pk>/imprimir/", views.batch, name="batch"),
    path("lote/<str:job>/", views.job, name="job"),
    path("lote/<str:job>/estado.json", views.job_status, name="job_status"),
    path("lote/<str:job>/planillas.pdf", views.job_pdf, name="job_pdf"),
    path("verificar/", views.verify_form, name="verify_form"),
    path("verificar/<str:code>/", views.verify, name="verify"),
]
