from django.urls import path

from . import views

app_name = "resolutions"
urlpatterns = [
    path("<int:pk>/", views.resolution_list, name="list"),
    path("<int:pk>/exportar/", views.resolution_export, name="export"),
    path("<int:pk>/importar/", views.resolution_import, name="import"),
]
