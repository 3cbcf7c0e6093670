from django.urls import path

from refereeing import planilla_views as views

app_name = "planilla"
urlpatterns = [
    path("verificar/", views.verify_form, name="verify_form"),
    path("verificar/<str:code>/", views.verify, name="verify"),
]
