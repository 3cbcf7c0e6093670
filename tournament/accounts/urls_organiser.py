from django.urls import path

from . import views

urlpatterns = [
    path("", views.juez_list, name="list"),
    path("<int:pk>/clave/", views.juez_password, name="password"),
    path("<int:pk>/activo/", views.juez_active, name="active"),
    path("<int:pk>/desbloquear/", views.juez_unlock, name="unlock"),
    path("<int:pk>/disponible/", views.juez_available, name="available"),
    path("todos-disponibles/", views.jueces_all_available, name="all_available"),
    path("importar/", views.jueces_import, name="import"),
    path("plantilla/", views.jueces_template, name="template"),
]
