"""The mirror's URLs (``MIRROR=true``): the public pages, and nothing that signs in or writes.

Every path of the venue's site keeps its name (so the shared templates
reverse the same names), but any view not in ``PUBLIC`` is replaced by a
404 that says the page lives at the venue: no sign-in, no form, no API is
reachable here. The database connection is read-only besides (settings).

The language switch takes no CSRF token here: it sets only the visitor's
language cookie, and a page that hands out no token sets no cookie, so an
HTTP cache in front may keep it (``mirror.caching``).
"""

from django.http import Http404
from django.urls import URLPattern, URLResolver
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from . import urls as venue

handler400 = venue.handler400
handler403 = venue.handler403
handler404 = venue.handler404
handler500 = venue.handler500

PUBLIC = {
    "home",
    "rules",
    "guides:index",
    "guides:guide",
    "tournament:bracket",
    "tournament:standings",
    "public:scoreboard",
    "public:projector",
    "public:pair_signed",
    "planilla:verify_form",
    "planilla:verify",
    "ratings:ranking",
    "ratings:person",
}


def not_on_mirror(request, *args, **kwargs):
    raise Http404(_("This page is only at the venue: the public mirror shows the live pages."))


def _public_only(patterns, namespace=""):
    kept = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace + (pattern.namespace + ":" if pattern.namespace else "")
            kept.append(
                URLResolver(
                    pattern.pattern,
                    _public_only(pattern.url_patterns, inner),
                    pattern.default_kwargs,
                    pattern.app_name,
                    pattern.namespace,
                )
            )
        elif pattern.name == "set_language":
            kept.append(URLPattern(pattern.pattern, csrf_exempt(pattern.callback), pattern.default_args, pattern.name))
        elif f"{namespace}{pattern.name}" in PUBLIC:
            kept.append(pattern)
        else:
            kept.append(URLPattern(pattern.pattern, not_on_mirror, pattern.default_args, pattern.name))
    return kept


urlpatterns = _public_only(venue.urlpatterns)
