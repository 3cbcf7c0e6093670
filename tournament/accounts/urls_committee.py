from django.urls import path

from . import views

urlpatterns = [
    path("", views.role_list, name="list"),
]
