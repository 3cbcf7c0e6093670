from django.urls import path

from . import views

urlpatterns = [
    path("", views.juez_list, name="list"),
    path("<int:pk>/clave/", views.juez_password, name="password"),
    path("<int:pk>/activo/", views.juez_active, name="active"),
    path("<int:pk>/desbloquear/", views.juez_unlock, name="unlock"),
]
