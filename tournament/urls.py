from django.urls import path

from . import views

app_name = "tournament"
urlpatterns = [
    path("nuevo/", views.championship_edit, name="new"),
    path("<int:pk>/", views.championship_detail, name="detail"),
    path("<int:pk>/editar/", views.championship_edit, name="edit"),
    path("<int:pk>/parejas/", views.pair_list, name="pairs"),
    path("<int:pk>/parejas/nueva/", views.pair_edit, name="pair_new"),
    path("<int:pk>/parejas/<int:pair_pk>/", views.pair_edit, name="pair_edit"),
    path("<int:pk>/parejas/<int:pair_pk>/asistencia/", views.pair_check_in, name="pair_check_in"),
    path("<int:pk>/parejas/todas-presentes/", views.pairs_all_present, name="pairs_all_present"),
    path("<int:pk>/parejas/<int:pair_pk>/tarjeta/", views.pair_card, name="pair_card"),
    path("<int:pk>/parejas/<int:pair_pk>/enlace-nuevo/", views.pair_new_link, name="pair_new_link"),
    path("<int:pk>/parejas/importar/", views.pairs_import, name="pairs_import"),
    path("<int:pk>/parejas/exportar/", views.pairs_export, name="pairs_export"),
    path("<int:pk>/sorteo/", views.draw, name="draw"),
    path("<int:pk>/sorteo/eliminatoria/", views.draw_knockout, name="draw_knockout"),
    path("<int:pk>/rondas/<str:bracket>/<int:round_number>/iniciar/", views.start_round, name="start_round"),
    path("<int:pk>/mesas/", views.tables, name="tables"),
    path("<int:pk>/mesas/<int:mesa_pk>/mesa/", views.mesa_table, name="mesa_table"),
    path("<int:pk>/mesas/<int:mesa_pk>/resultado/", views.mesa_result, name="mesa_result"),
    path("<int:pk>/control/", views.board, name="board"),
    path("<int:pk>/llaves/", views.bracket, name="bracket"),
    path("<int:pk>/posiciones/", views.standings_view, name="standings"),
]
