"""The pieces of the public pages that the live streams push: one mesa's row, the projector's calls.

Rules
-----
- A row is rendered by the same template the page itself includes
  (``public/board_row.html`` for the scoreboard and the pair's page,
  ``public/projector_row.html`` for the projector), in the language the
  page asked for: what a stream pushes is exactly what a reload would show.
  The bracket's "row" is the mesa's match as brackets-viewer draws it
  (``tournament.draws.bracket_drawing.match``), the same the page starts from.
- ``render`` reads the championship once per language asked for all the
  pieces of that language, so a stream server renders each change once
  however many people watch it.
"""

from django.template.loader import render_to_string
from django.utils import translation

from tournament.draws import bracket_drawing
from tournament.models import Championship

from . import content

BOARD = "tablero"
PROJECTOR = "proyector"
BRACKET = "llaves"
# The most mesas one stream follows by name (a pair's page follows its own).
MAX_FOLLOWED = 64
ROW_TEMPLATES = {BOARD: "public/board_row.html", PROJECTOR: "public/projector_row.html"}
VIEWS = (BOARD, PROJECTOR, BRACKET)


def render(championship_id, mesa_ids, wanted):
    """{(view, language): {"rows": {mesa id: html}, "calls": html or None}} for each (view, language) in ``wanted``.

    ``mesa_ids``: the rows to render, or None for all of them. The calls come
    with the projector's pieces only. An unknown championship gives {}.
    """
    championship = Championship.objects.filter(pk=championship_id).first()
    if championship is None:
        return {}
    calls = content.calls(championship) if any(view == PROJECTOR for view, _ in wanted) else None
    pieces = {}
    for language in {language for _, language in wanted}:
        with translation.override(language):
            rows = content.scoreboard(championship, mesa_ids)  # its labels are in the language
            for view in {view for view, wanted_language in wanted if wanted_language == language}:
                pieces[view, language] = {
                    "rows": {row["mesa"].pk: _row(view, row) for row in rows},
                    "calls": render_to_string("public/calls.html", {"calls": calls}) if view == PROJECTOR else None,
                }
    return pieces


def _row(view, row):
    if view == BRACKET:
        return bracket_drawing.match(row["mesa"])
    return render_to_string(ROW_TEMPLATES[view], {"row": row})
