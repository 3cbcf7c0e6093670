from django.urls import path

from . import views

urlpatterns = [
    path("<int:pk>/parejas/", views.pair_list, name="pairs"),
    path("<int:pk>/parejas/nueva/", views.pair_edit, name="pair_new"),
    path("<int:pk>/parejas/<int:pair_pk>/", views.pair_edit, name="pair_edit"),
    path("<int:pk>/parejas/<int:pair_pk>/asistencia/", views.pair_check_in, name="pair_check_in"),
    path("<int:pk>/parejas/todas-presentes/", views.pairs_all_present, name="pairs_all_present"),
    path("<int:pk>/parejas/<int:pair_pk>/tarjeta/", views.pair_card, name="pair_card"),
    path("<int:pk>/parejas/<int:pair_pk>/enlace-nuevo/", views.pair_new_link, name="pair_new_link"),
    path("<int:pk>/parejas/importar/", views.pairs_import, name="pairs_import"),
    path("<int:pk>/parejas/plantilla/", views.pairs_template, name="pairs_template"),
    path("<int:pk>/parejas/exportar/", views.pairs_export, name="pairs_export"),
]
