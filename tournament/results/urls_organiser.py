from django.urls import path

from . import views

urlpatterns = [
    path("<int:pk>/mesas/<int:mesa_pk>/resultado/", views.mesa_result, name="mesa_result"),
]
