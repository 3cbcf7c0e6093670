from django.urls import path

from . import views

app_name = "report"
urlpatterns = [
    path("<int:pk>/", views.championship_report, name="championship"),
    path("<int:pk>/tarjetas/", views.cards, name="cards"),
]
