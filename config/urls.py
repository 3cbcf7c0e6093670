"""The site's URLs: each app mounts its own under a prefix."""
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament import views as tournament_views

urlpatterns = [
    path("", tournament_views.home, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("cuenta/entrar/", auth_views.LoginView.as_view(), name="login"),
    path("cuenta/salir/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("campeonatos/", include("tournament.urls")),
    path("jueces/", include("tournament.jueces_urls")),
    path("mesa/", include("refereeing.urls")),
    path("api/", include("refereeing.api_urls")),
    path("acceso/", include("refereeing.pin_urls")),
    path("planilla/", include("refereeing.planilla_urls")),
    path("apelaciones/", include("refereeing.appeal_urls")),
]
