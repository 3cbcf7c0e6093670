"""How the engine speaks: every text in Spanish and English, and where its articles are.

The convention
--------------
The engine never picks a language: every text it makes comes in both, as a
pair ``(spanish, english)`` in its tables, as ``message`` (Spanish) and
``message_en`` (English) on what it decides (a decision, a levante
verdict, stored with the log), and as ``spanish`` and ``english`` on the
errors it raises (:class:`EngineError`: ``ClaimError``, ``RuleSetError``,
``CardError``). Whoever shows it picks
one with :func:`pick` (the Django side: ``tournament.language.speak``).
Game words stay Spanish in English too (caída, limpia, ronda...), as the
players say them.

Tables
------
``KIND_LABELS``
    The one table of claim-kind labels (the juez's buttons and log, the
    API's ``ruleset.labels``, the planilla).
``CODES``
    Every refusal code, and the note an accepted claim may carry: Spanish,
    English and the article it rests on.
``KIND_ARTICLES``
    The article an accepted claim of each kind rests on.
``DIRECTOR_ARTICLES``
    The article of a kind when the Director logs it (a claim marked
    ``director``).
``SCREEN_RULES``
    What the juez's screen says of a rule before anything is logged (what
    mal repartidas does, the cards a conteo may count, the zapatero's
    points): the engine's words, so that no rule is written in the screen's
    own catalogue or in its scripts.

Articles are cited as ``Art. N`` of the reglamento (``Art. 3g.6``),
``002 Art. N`` of seed 002, ``seed 003``, or ``ruling <slug>`` for the
project's own rulings; :func:`anchor` gives each its anchor in the rules
document, ``docs/REGLAS.md``. The texts are built only when asked for
(``Decision.message``), so a replay does not pay for them.
"""

from __future__ import annotations

import re
from typing import Any


class EngineError(ValueError):
    """An error the engine raises, in Spanish and English.

    ``EngineError(spanish, english)``: ``spanish`` and ``english`` hold the
    texts and :meth:`message` gives the one asked for; ``str()`` holds both
    (``"es / en"``), as a log or a command line shows it. Given one text
    only, it stands for both.
    """

    def __init__(self, spanish: str, english: str | None = None):
        self.spanish = spanish
        self.english = spanish if english is None else english
        super().__init__(spanish if english is None else f"{spanish} / {english}")

    def message(self, language: str = "es") -> str:
        """The message in ``language`` ("es", "en"; a region such as "es-ec" is ignored)."""
        return self.english if language.startswith("en") else self.spanish


KIND_LABELS = {
    "mano": ("Mano", "Mano"),
    "ronda": ("Ronda", "Ronda"),
    "doble_ronda": ("Doble ronda", "Doble ronda"),
    "caida": ("Caída", "Caída"),
    "limpia": ("Limpia", "Limpia"),
    "caida_limpia": ("Caída y limpia", "Caída and limpia"),
    "caida_en_ronda": ("Caída en ronda", "Caída en ronda"),
    "cuatro_caidas": ("Cuatro caídas", "Four caídas"),
    "juego_y_veo": ("Juego y veo", "Juego y veo"),
    "pedir_mal": ("Pedir mal", "Points asked wrongly"),
    "mal_repartidas": ("Mal repartidas", "Misdeal"),
    "conteo": ("Conteo", "Conteo"),
    "ajuste": ("Ajuste del Director", "Director's adjustment"),
    "void": ("Anulación", "Void"),
    "suspender": ("Suspensión", "Suspension"),
    "reanudar": ("Reanudación", "Resumption"),
}


def pick(texts: Any, language: str) -> str:
    """The text of ``texts`` for ``language`` ("es", "en", "en-us"...): Spanish unless English.

    ``texts`` is a pair ``(spanish, english)``, a decision (object or dict)
    with ``message`` and ``message_en``, or an error with ``spanish`` and
    ``english``.
    """
    english = (language or "es").startswith("en")
    if isinstance(texts, tuple):
        return str(texts[1 if english else 0])
    if isinstance(texts, dict):
        return str(texts.get("message_en" if english else "message") or texts.get("message") or "")
    if hasattr(texts, "spanish"):
        return str(texts.english if english else texts.spanish)
    return str((texts.message_en if english else texts.message) or texts.message)


def kind_labels(language: str) -> dict[str, str]:
    """Every claim kind's label in ``language``."""
    return {kind: pick(texts, language) for kind, texts in KIND_LABELS.items()}


_ARTICLE = re.compile(r"(?:(?P<seed>00\d) )?Art\. (?P<n>\d+)")


def anchor(article: str | None) -> str | None:
    """The anchor of ``article`` in docs/REGLAS.md, or None when it has none.

    ``Art. 10`` -> ``art-10`` (sub-articles go to their article: ``Art. 3g.6``
    -> ``art-3``), ``002 Art. 9`` -> ``s002-art-9``, ``seed 003`` -> ``s003``,
    ``ruling <slug>`` -> ``ruling-<slug>``; a list (``Art. 10, 15``) goes
    to its first.
    """
    if not article:
        return None
    if article.startswith("ruling "):
        return "ruling-" + article[len("ruling ") :]
    if article.startswith("seed 003"):
        return "s003"
    found = _ARTICLE.match(article)
    if found is None:
        return None
    if found["seed"]:
        return f"s{found['seed']}-art-{found['n']}"
    return f"art-{found['n']}"


# The sources as people know them, by seed: plain "Art. N" is the Riobamba
# reglamento (seed 001), "002 Art. N" the deck maker's rules, "seed 003" the
# Quito variants.
SOURCES = {
    "001": ("Reglamento de Riobamba", "Riobamba reglamento"),
    "002": ("Reglas del fabricante", "Deck maker's rules"),
    "003": ("variante de Quito", "Quito variant"),
}
_CITATION = re.compile(r"^(?:(?P<seed>\d{3}) )?(?P<article>Art\. .+)$")


def cite(citation: str | None, language: str = "es") -> str:
    """``citation`` as people name it: ``002 Art. 9`` -> "Reglas del fabricante, Art. 9",
    ``Art. 5c; 002 Art. 13`` -> "Reglamento de Riobamba, Art. 5c; Reglas del fabricante, Art. 13",
    ``seed 003`` -> "variante de Quito". Anything else is given back as it is."""
    if not citation:
        return ""
    named = []
    for part in (p.strip() for p in citation.split(";")):
        found = _CITATION.match(part)
        if part.startswith("seed 003"):
            named.append(pick(SOURCES["003"], language))
        elif found:
            named.append(f"{pick(SOURCES[found['seed'] or '001'], language)}, {found['article']}")
        else:
            named.append(part)
    return "; ".join(named)


# The article an accepted claim of each kind rests on.
KIND_ARTICLES = {
    "mano": "Art. 3d",
    "ronda": "Art. 7a",
    "doble_ronda": "Art. 8",
    "caida": "Art. 6",
    "limpia": "Art. 9",
    "caida_limpia": "Art. 9a",
    "caida_en_ronda": "seed 003",
    "cuatro_caidas": "002 Art. 15B",
    "juego_y_veo": "Art. 5c",
    "pedir_mal": "Art. 11",
    "mal_repartidas": "Art. 4c",
    "conteo": "Art. 3g",
    "ajuste": "Art. 18",
    "void": "Art. 16",
    "suspender": "Art. 16",
    "reanudar": "Art. 16",
}

# The Director voids, suspends and resumes only in an appeal's ruling
# (Art. 17); an adjustment is the Director's in any case (Art. 18, above).
DIRECTOR_ARTICLES = {
    "void": "Art. 17",
    "suspender": "Art. 17",
    "reanudar": "Art. 17",
}

CODES = {
    "anulada": ("Anulada por la jugada {voided_by}.", "Voided by claim {voided_by}.", "Art. 16"),
    "mesa_terminada": ("La mesa ya terminó.", "The mesa is over.", "Art. 16"),
    "mesa_suspendida": (
        "La mesa está suspendida; solo se puede reanudar.",
        "The mesa is suspended; it can only be resumed.",
        "Art. 16",
    ),
    "ya_suspendida": ("La mesa ya está suspendida.", "The mesa is already suspended.", "Art. 16"),
    "no_suspendida": ("La mesa no está suspendida.", "The mesa is not suspended.", "Art. 16"),
    "sin_mano": ("No hay una mano en juego.", "No hand is being played.", "Art. 3e"),
    "chica_terminada": (
        "La chica ya terminó; nada más puntúa en esta data.",
        "The chica is over; nothing more scores in this data.",
        "Art. 15",
    ),
    "conteo_pendiente": (
        "Ya se repartieron todas las manos de la data; falta el conteo.",
        "Every hand of the data has been dealt; the conteo is due.",
        "Art. 3f",
    ),
    "conteo_prematuro": (
        "Aún no se han repartido todas las manos de la data.",
        "Not every hand of the data has been dealt yet.",
        "Art. 3f",
    ),
    "conteo_contradice_registro": (
        "El registro tiene {plays} levante(s) aceptado(s) de la pareja {pair} en esta data:"
        " no puede contarse con menos de {least} cartas (ni dar falla).",
        "The log has {plays} accepted capture(s) by pair {pair} in this data: it cannot be"
        " counted at fewer than {least} cards (nor give falla).",
        "Art. 10, 15",
    ),
    "conteo_invalido": (
        "Las parejas no pueden haber levantado más de 40 cartas.",
        "The pairs cannot have taken more than 40 cards.",
        "Art. 3g",
    ),
    "sin_turno": (
        "No queda un turno en esta mano en que esa jugada sea posible.",
        "No turn is left in this hand where that play is possible.",
        "Art. 13",
    ),
    "ronda_cerrada": (
        "Ya jugaron todos una carta: no se puede pedir ronda.",
        "Everyone has played a card: ronda can no longer be claimed.",
        "Art. 7b",
    ),
    "ronda_tarde": (
        "El jugador ya lanzó su primera carta: la ronda se pide antes.",
        "The player has already played his first card: ronda comes before.",
        "Art. 7a",
    ),
    "ronda_repetida": (
        "Ese jugador ya pidió ronda en esta mano.",
        "That player has already claimed a ronda in this hand.",
        "Art. 7",
    ),
    "ronda_limite": (
        "La pareja supera los 30 puntos: ya no puede pedir ronda.",
        "The pair is above 30 points: it can no longer claim ronda.",
        "002 Art. 9",
    ),
    "caida_en_ronda_no_aplica": (
        "Este reglamento no puntúa la caída en ronda: anote la jugada como caída simple.",
        "This rule set gives caída en ronda no score of its own: log the play as a plain caída.",
        "seed 003",
    ),
    "caida_en_ronda_sin_ronda": ("No se cantó ronda en esta mano.", "No ronda was claimed in this hand.", "seed 003"),
    "cuatro_caidas_no_aplica": (
        "Este reglamento no puntúa cuatro caídas seguidas.",
        "This rule set gives four caídas in a row no score.",
        "002 Art. 15B",
    ),
    "cuatro_caidas_sin_racha": (
        "La pareja no lleva cuatro caídas seguidas.",
        "The pair has not made four caídas in a row.",
        "002 Art. 15B",
    ),
    "cuatro_caidas_otorgada": (
        "Ya se otorgaron las cuatro caídas de esta racha.",
        "These four caídas have already been awarded.",
        "002 Art. 15B",
    ),
    "juego_y_veo_sin_jugada": (
        "La jugada protestada no es una jugada aceptada de la otra pareja en esta mano.",
        "The protested claim is not an accepted play of the other pair in this hand.",
        "Art. 5",
    ),
    "juego_y_veo_repetido": ("Esa jugada ya fue protestada.", "That play has already been protested.", "Art. 5"),
    "juego_y_veo_cerrado": (
        "Esa jugada ya no se protesta: el juego y veo se pide antes de lanzar la carta propia,"
        " contra el levante de quien jugó justo antes.",
        "That play can no longer be protested: juego y veo comes before the protester throws his"
        " card, against the levante of the player just before him.",
        "Art. 5a",
    ),
    "juego_y_veo_mesa_terminada": (
        "La mesa ya terminó: la jugada que la cerró no se protesta en la mesa. La pareja que se"
        " considere perjudicada apela al Director del Campeonato, cuyo fallo puede corregir el resultado.",
        "The mesa is over: the play that ended it is not protested at the table. The pair that"
        " considers itself harmed appeals to the Championship Director, who may correct the result.",
        "Art. 17",
    ),
    "pedir_mal_fuera_de_data": (
        "Pedir mal se anota en la data en que ocurrió: desde su primera mano hasta su conteo"
        " (una falla mal pedida, antes del conteo).",
        "Points asked wrongly are logged in the data where they were asked: from its first mano until"
        " its conteo (a falla asked for wrongly, before the conteo).",
        "Art. 11",
    ),
    "juego_y_veo_no_ultima": (
        "Solo se protesta la última jugada de la otra pareja.",
        "Only the other pair's last play can be protested.",
        "Art. 5a",
    ),
    "anulacion_sin_objetivo": (
        "La jugada a anular no existe o no es anterior.",
        "The claim to void does not exist or is not earlier.",
        "Art. 16",
    ),
    "anulacion_fuera_de_alcance": (
        "Solo se anula dentro de la chica en curso (o la jugada que cerró la anterior, antes"
        " de otra jugada): lo anterior lo corrige el Director con un ajuste.",
        "A void reaches only into the current chica (or the claim that ended the previous"
        " one, before any other claim): older claims are the Director's to correct with an"
        " adjustment.",
        "Art. 18",
    ),
    "anulacion_repetida": ("Esa jugada ya está anulada.", "That claim is already void.", "Art. 16"),
    "anulacion_de_negativa": (
        "Esa jugada fue negada: no hay nada que anular.",
        "That claim was refused: there is nothing to cancel.",
        "Art. 16",
    ),
    "anulacion_de_mano": (
        "Una mano se anula solo mientras no hay ninguna jugada anotada en ella.",
        "A mano can be voided only while no claim has been logged in it.",
        "Art. 16",
    ),
    "anulacion_de_suspension": (
        "La suspensión y la reanudación no se anulan: las corrige el acto contrario.",
        "A suspension or a resumption is never voided: the opposite act corrects it.",
        "Art. 16",
    ),
    "treinta_y_ocho": (
        "38 que no juega: la pareja solo suma con una caída.",
        "38 que no juega: the pair scores only with a caída.",
        "002 Art. 11",
    ),
}


SCREEN_RULES = {
    "mal_repartidas": (
        "Mal repartidas: anota la pareja que no repartió, y la data termina.",
        "Mal repartidas: the pair that did not deal scores, and the data ends.",
    ),
    "pair_cards": ("Una pareja no puede tener más de 40 cartas.", "A pair cannot have more than 40 cards."),
    "data_cards": CODES["conteo_invalido"][:2],
    "zapatero": ("%(pair)s queda zapatero (menos de 10 puntos)", "%(pair)s is zapatero (under 10 points)"),
}


def screen_rules(language: str) -> dict[str, str]:
    """Every text of ``SCREEN_RULES`` in ``language``."""
    return {name: pick(texts, language) for name, texts in SCREEN_RULES.items()}


# Kinds that never score: their message has no points.
_POINTLESS = frozenset({"mano", "void", "suspender", "reanudar"})


def _points(points: dict[str, int], spanish: bool) -> str:
    parts = [f"{points[p]:+d} {'para' if spanish else 'to'} {p}" for p in ("A", "B") if points[p]]
    if not parts:
        return "sin puntos" if spanish else "no points"
    return ", ".join(parts)


def note(code: str, language: str, voided_by: int | None = None, detail: dict[str, Any] | None = None) -> str:
    """The text of ``code`` in ``language``, with the values it names."""
    return pick(CODES[code][:2], language).format(voided_by=voided_by, **(detail or {}))


def message(decision: Any, language: str) -> str:
    """The text of ``decision`` in ``language`` ("es" or "en")."""
    spanish = not language.startswith("en")
    reason = "" if decision.code is None else note(decision.code, language, decision.voided_by, decision.detail)
    if not decision.accepted:
        return f"{'Rechazada' if spanish else 'Refused'}: {reason}"
    label = KIND_LABELS[decision.kind][0 if spanish else 1]
    if decision.kind in _POINTLESS:
        text = f"{label}."
    else:
        text = f"{label}: {_points(decision.points, spanish)}."
    if reason:
        text += " " + reason
    # A conteo that brings both pairs to 40 names the one that wins (ruling "ambas 40").
    winner = (decision.detail or {}).get("winner")
    for pair in ("A", "B"):
        if decision.points[pair] > 0 and decision.scores[pair] >= 40 and winner in (None, pair):
            text += (
                f" La pareja {pair} gana la chica {decision.chica}."
                if spanish
                else f" Pair {pair} wins chica {decision.chica}."
            )
    return text
