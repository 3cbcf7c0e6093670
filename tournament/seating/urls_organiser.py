from django.urls import path

from . import views

urlpatterns = [
    path("<int:pk>/rondas/<str:bracket>/<int:round_number>/iniciar/", views.start_round, name="start_round"),
    path("<int:pk>/mesas/", views.tables, name="tables"),
    path("<int:pk>/mesas/jueces/<int:juez_pk>/disponible/", views.juez_available, name="juez_available"),
    path("sedes/", views.sede_list, name="sedes"),
    path("<int:pk>/mesas/<int:mesa_pk>/mesa/", views.mesa_table, name="mesa_table"),
    path("<int:pk>/control/", views.board, name="board"),
]
