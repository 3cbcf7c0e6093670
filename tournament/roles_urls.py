from django.urls import path

from . import roles_views

app_name = "roles"
urlpatterns = [
    path("", roles_views.role_list, name="list"),
]
