"""The guides' pages: /ayuda/ lists them, /ayuda/<slug>/ shows one.

Each guide is a template of ``templates/guides/`` whose every sentence goes
through gettext (English msgids, Spanish in ``locale/es``), so a venue
without internet reads it from the app in the language chosen in the bar.
Its pictures are ``static/help/<es or en>/*.png`` (those of the page's language), taken from the demo by
``tests/guides/test_screenshots.py`` (``make guide-screenshots``).
"""

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

# slug (the address, Spanish as the site's are), title, who it is for; in the order the index lists them.
GUIDES = {
    "organizador": (
        _("Organiser's guide"),
        _("Setting up a championship: jueces, pairs, the draw, tables and rounds."),
    ),
    "mesa-de-control": (
        _("Control desk's guide"),
        _("Following every mesa, results and walkovers, planillas, cards and backups."),
    ),
    "juez": (_("Juez's guide"), _("Refereeing a mesa on the tablet: claims, the conteo, refusals, signatures.")),
    "director": (_("Director's guide"), _("Appeals (Art. 17) and resolutions (Art. 18).")),
    "publico": (
        _("Guide for spectators and pairs"),
        _("The live scoreboard, the projector, the bracket, the standings and each pair's page."),
    ),
}


def index(request):
    return render(request, "guides/index.html", {"guides": GUIDES, "rules": reverse("rules")})


def guide(request, slug):
    if slug not in GUIDES:
        raise Http404
    title, summary = GUIDES[slug]
    return render(request, f"guides/{slug}.html", {"title": title, "summary": summary, "guides": GUIDES})
