"""No rule of the game in the browser's JavaScript (issue 24): the engine says what the screen draws.

The claim kinds that score (the plays, the rondas, cuatro caídas) are the
engine's; a copy of them in ``static/`` (outside vendor) is how the screen
once offered protests the engine refused. This test greps for them, taking
the names from the engine's own table.
"""

import re
from pathlib import Path

from django.conf import settings

from refereeing.engine.claims import PLAYS, RONDAS

SCORING = sorted(PLAYS | RONDAS | {"cuatro_caidas"})
QUOTED = re.compile(r"""["'`](%s)["'`]""" % "|".join(SCORING))


def engine_kinds_in(paths):
    """``(path, line number, kind)`` for each scoring claim kind quoted in the files ``paths``."""
    return [
        (path, number, match.group(1))
        for path in paths
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in QUOTED.finditer(line)
    ]


def scripts():
    static = Path(settings.BASE_DIR) / "static"
    return [path for path in static.rglob("*.js") if "vendor" not in path.relative_to(static).parts]


def test_no_scoring_claim_kind_is_quoted_in_static_javascript():
    assert len(scripts()) > 10
    assert engine_kinds_in(scripts()) == []


def test_the_grep_finds_a_copy_of_the_kinds(tmp_path):
    copy = tmp_path / "jyv.js"
    copy.write_text("const PLAYS = [\"caida\", 'doble_ronda'];\nconst x = `cuatro_caidas`;\n", encoding="utf-8")
    found = [(number, kind) for _, number, kind in engine_kinds_in([copy])]
    assert found == [(1, "caida"), (1, "doble_ronda"), (2, "cuatro_caidas")]
