from django.urls import path

from . import views

urlpatterns = [
    path("nuevo/", views.championship_edit, name="new"),
    path("<int:pk>/", views.championship_detail, name="detail"),
    path("<int:pk>/editar/", views.championship_edit, name="edit"),
]
