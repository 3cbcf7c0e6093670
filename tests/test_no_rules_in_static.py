"""No rule of the game in the browser's JavaScript (issue 24): the engine says what the screen draws.

The claim kinds that score (the plays, the rondas, cuatro caídas) are the
engine's; a copy of them in ``static/`` (outside vendor) is how the screen
once offered protests the engine refused. This test greps for them, taking
the names from the engine's own table. It also greps for what the screen
once worked out itself: a list of claim kinds (two kinds quoted in one
line, or kinds as an object's keys), points turned into perros and tantos,
the score's floor at 0, and the numbers of the rules (the 40 cards of a
data or the 40 points of a chica, 38 que no juega, the 20 cards of the
conteo): the engine sends the chips, the preview, the cards of a data.

The words are the engine's too (issue 32): what a rule says ("más de 40",
"la pareja que no repartió anota") is taken from the engine's catalogue
(``SCREEN_RULES``), never written in ``static/``, in the screen's
templates or in the words the screen's view hands its script; and the
screen's highlights follow the step the engine expects (``State.next``),
not a phase of its own.
"""

import re
from pathlib import Path

from django.conf import settings
from django.utils import translation

from engines.rules.claims import PLAYS, RONDAS
from engines.rules.messages import KIND_LABELS, SCREEN_RULES, pick
from refereeing.claimlog.api_schema import State
from refereeing.juezscreen import views

SCORING = sorted(PLAYS | RONDAS | {"cuatro_caidas"})
QUOTED = re.compile(r"""["'`](%s)["'`]""" % "|".join(SCORING))
ANY_KIND = "|".join(sorted(KIND_LABELS))
# Two claim kinds quoted on one line: a list of them.
KIND_LIST = re.compile(r"""["'`](?:%s)["'`].*["'`](?:%s)["'`]""" % (ANY_KIND, ANY_KIND))
# A claim kind as an object's key: a table by kind.
KIND_KEY = re.compile(r"""(?:^\s*|[{,]\s*)["']?(?:%s)["']?\s*:(?!:)""" % ANY_KIND)
ARITHMETIC = {
    "points as perros and tantos": re.compile(r"[/%]\s*10\b"),
    "the score's floor at 0": re.compile(r"Math\.max\(\s*0\s*,"),
    "a number of the rules (40, 38, 20)": re.compile(r"(?<![\w.])(?:40|38|20)(?![\w.])"),
}
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
# What a rule says, in either language: a bound (the cards of a data or of a pair, zapatería's points), who scores a
# misdeal. In the words the view hands the script, any number of the rules too (40 cards or points, 38 que no juega,
# 20 cards, zapatería under 10, the ronda's limit of 30); the scripts' code is checked for those above.
RULE_WORDS = re.compile(r"m[aá]s de \d|more than \d|menos de \d|under \d|no repart|did not deal", re.I)
RULE_NUMBERS = re.compile(r"(?<![\w.#%])(?:40|38|30|20|10)(?![\w.])")
STRING = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`""")


def engine_kinds_in(paths):
    """``(path, line number, kind)`` for each scoring claim kind quoted in the files ``paths``."""
    return [
        (path, number, match.group(1))
        for path in paths
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in QUOTED.finditer(line)
    ]


def code_lines(path):
    """``(line number, code)`` of a script: comments blanked, and for arithmetic its strings too."""
    text = COMMENT.sub(lambda m: "\n" * m.group().count("\n"), path.read_text(encoding="utf-8"))
    return list(enumerate(text.splitlines(), 1))


def rules_in(paths):
    """``(path name, line number, what)`` for each kind list or rule arithmetic in the scripts ``paths``."""
    found = []
    for path in paths:
        for number, line in code_lines(path):
            if KIND_LIST.search(line) or KIND_KEY.search(line):
                found.append((path.name, number, "a list of claim kinds"))
            bare = STRING.sub('""', line)
            found += [(path.name, number, what) for what, pattern in ARITHMETIC.items() if pattern.search(bare)]
    return found


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


def test_no_kind_list_and_no_rule_arithmetic_in_static_javascript():
    assert rules_in(scripts()) == []


def test_the_grep_finds_what_the_screen_once_worked_out(tmp_path):
    """The lines issue 24 found, as they were, and what they look like elsewhere."""
    copy = tmp_path / "render.js"
    copy.write_text(
        "\n".join(
            [
                "const perros = Math.floor(score / 10), tantos = Math.floor((score % 10) / 2);",
                "      scores.A = Math.max(0, scores.A + (preview.points.A || 0));",
                "  const rest = c.restTyped ? num(c.rest) : counted === null ? null : 40 - counted;",
                "if (score >= 38) note();",
                'const CONFIRMED = { mal_repartidas: () => 1, "suspender": () => 2 };',
                'const KINDS = ["mano", "conteo"];',
                '  suspender: () => ["confirm.suspender"],',
                # Not rules: a radix, a timeout, a count in a comment or a string, one kind.
                "parseInt(text, 10); setTimeout(tick, 30000); // the 40 cards",
                'take({ kind: "conteo", cards }); t("over 40");',
                "/* 40 - 20 */",
            ]
        ),
        encoding="utf-8",
    )
    assert rules_in([copy]) == [
        ("render.js", 1, "points as perros and tantos"),
        ("render.js", 2, "the score's floor at 0"),
        ("render.js", 3, "a number of the rules (40, 38, 20)"),
        ("render.js", 4, "a number of the rules (40, 38, 20)"),
        ("render.js", 5, "a list of claim kinds"),
        ("render.js", 6, "a list of claim kinds"),
        ("render.js", 7, "a list of claim kinds"),
    ]


def rule_words_in(paths):
    """``(path name, line number, words)`` for each rule's words in the files ``paths``, comments left out."""
    return [
        (path.name, number, match.group())
        for path in paths
        for number, line in code_lines(path)
        for match in RULE_WORDS.finditer(line)
    ]


def screen_files():
    """The screen's scripts, its style sheets and its templates."""
    static = Path(settings.BASE_DIR) / "static"
    templates = Path(settings.BASE_DIR) / "templates" / "refereeing"
    sheets = [path for path in static.rglob("*.css") if "vendor" not in path.relative_to(static).parts]
    return scripts() + sorted(sheets) + sorted(templates.glob("mesa_*.html"))


def test_no_rules_words_in_the_screens_files():
    assert rule_words_in(screen_files()) == []


def test_the_words_the_screen_hands_its_script_say_no_rule_but_the_engines():
    """The view's catalogue: its own words carry no rule; what a rule says comes from the engine's catalogue."""
    for language in ("es", "en"):
        with translation.override(language):
            words = views.catalogue()
        own = {key: text for key, text in words.items() if not key.startswith(("kind.", "rule."))}
        ruled = {key: text for key, text in own.items() if RULE_WORDS.search(text) or RULE_NUMBERS.search(text)}
        assert ruled == {}, language
        assert {key[5:]: text for key, text in words.items() if key.startswith("rule.")} == {
            name: pick(texts, language) for name, texts in SCREEN_RULES.items()
        }


def test_the_grep_finds_rule_words(tmp_path):
    copy = tmp_path / "conteo.js"
    copy.write_text(
        "\n".join(
            [
                'out.textContent = "Las cartas suman más de 40.";',
                "const text = `Mal repartidas: anota la pareja que no repartió`;",
                '.screen .x::after { content: "the pair that did not deal scores"; }',
                "const note = 'A pair cannot have more than 40 cards.';",
                # Not rules: words in a comment, a radix, a timeout.
                "parseInt(text, 10); setTimeout(tick, 1000); // más de 40 cartas, no repartió",
            ]
        ),
        encoding="utf-8",
    )
    assert rule_words_in([copy]) == [
        ("conteo.js", 1, "más de 4"),
        ("conteo.js", 2, "no repart"),
        ("conteo.js", 3, "did not deal"),
        ("conteo.js", 4, "more than 4"),
    ]


def test_the_highlights_follow_the_engines_next_step():
    """mesa.css highlighted the conteo on a phase of its own while the engine's next step was the last mano."""
    css = (Path(settings.BASE_DIR) / "static" / "refereeing" / "mesa.css").read_text(encoding="utf-8")
    assert "data-phase" not in css
    steps = set(re.findall(r'data-next="([^"]+)"', css))
    assert steps and steps <= set(State().fields["next"].choices), steps
