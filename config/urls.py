"""The site's URLs: each app mounts its own under a prefix.

The features of refereeing and tournament keep their URLs in one file per audience
(``urls_public``, ``urls_juez``, ``urls_organiser``, ``urls_director``, ``urls_committee``);
a prefix's namespace gathers the files mounted under it, so every path and
every name (``refereeing:mesa_screen``, ``api:claims``, ``tournament:pairs``, ...) is the one the
templates, scripts and tests reverse.
"""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.venue_ca import ca_certificate
from public import championship as public_championship
from public import urls_championship as public_championship_urls
from public import urls_planilla as public_planilla
from public import urls_rules as public_rules
from refereeing.access import urls_juez as access_juez
from refereeing.access import urls_organiser as access_organiser
from refereeing.access import urls_public as access_public
from refereeing.appeals import urls_director as appeals_director
from refereeing.appeals import urls_juez as appeals_juez
from refereeing.claimlog import urls_juez as claimlog_juez
from refereeing.juezscreen import urls_juez as juezscreen_juez
from refereeing.planilla import urls_juez as planilla_juez
from refereeing.planilla import urls_organiser as planilla_organiser
from tournament.accounts import urls_committee as accounts_committee
from tournament.accounts import urls_organiser as accounts_organiser
from tournament.championships import urls_organiser as championships_organiser
from tournament.draws import urls_organiser as draws_organiser
from tournament.pairs import urls_organiser as pairs_organiser
from tournament.ratings import urls_committee as ratings_committee
from tournament.ratings import urls_organiser as ratings_organiser
from tournament.ratings import urls_public as ratings_public
from tournament.results import urls_organiser as results_organiser
from tournament.seating import urls_organiser as seating_organiser


def namespace(name, *url_files):
    """The patterns of ``url_files``, in that order, under one namespace."""
    return include(([pattern for url_file in url_files for pattern in url_file.urlpatterns], name))


urlpatterns = [
    # First: the tablets' API is most of the requests, and Django tries the patterns in order.
    path("api/", namespace("api", claimlog_juez)),
    path("", public_championship.home, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("ca.crt", ca_certificate, name="venue_ca"),
    path("reglas/", include(public_rules)),
    path("ayuda/", include("guides.urls")),
    path("cuenta/entrar/", auth_views.LoginView.as_view(), name="login"),
    path("cuenta/salir/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path(
        "campeonatos/",
        namespace(
            "tournament",
            championships_organiser,
            pairs_organiser,
            draws_organiser,
            seating_organiser,
            results_organiser,
            ratings_organiser,
            public_championship_urls,
        ),
    ),
    path("jueces/", namespace("jueces", accounts_organiser)),
    path("comite/cuentas/", namespace("roles", accounts_committee)),
    path("comite/personas/", namespace("persons", ratings_committee)),
    path("jugadores/", namespace("ratings", ratings_public)),
    path("informe/", include("report.urls")),
    path("", include("public.urls")),
    path("mesa/", namespace("refereeing", juezscreen_juez, appeals_juez)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up as a file: no inline script (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("acceso/", namespace("access", access_public, access_juez, access_organiser)),
    path("planilla/", namespace("planilla", planilla_juez, planilla_organiser, public_planilla)),
    path("apelaciones/", namespace("appeals", appeals_director)),
    path("resoluciones/", include("resolutions.urls")),
    path("auditoria/", include("tournament.trail.urls")),
    path("espejo/", include("mirror.urls")),
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.forbidden"
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
