"""The words of the decisions: what each kind and code means, in Spanish and English.

Every refusal code, and the note an accepted claim may carry, has a Spanish
text, an English text and the article it rests on (``Art. N`` of the
reglamento, ``002 Art. N`` of seed 002, ``seed 003``). The texts are built
only when asked for (``Decision.message``), so a replay does not pay for
them.
"""

from __future__ import annotations

KIND_LABELS = {
    "mano": ("Mano repartida", "Hand dealt"),
    "ronda": ("Ronda", "Ronda"),
    "doble_ronda": ("Doble ronda", "Doble ronda"),
    "caida": ("Caída", "Caída"),
    "limpia": ("Limpia", "Limpia"),
    "caida_limpia": ("Caída y limpia", "Caída and limpia"),
    "caida_en_ronda": ("Caída en ronda", "Caída en ronda"),
    "cuatro_caidas": ("Cuatro caídas seguidas", "Four caídas in a row"),
    "juego_y_veo": ("Juego y veo", "Juego y veo"),
    "pedir_mal": ("Pedir mal los puntos", "Points asked for wrongly"),
    "mal_repartidas": ("Cartas mal repartidas", "Cards misdealt"),
    "conteo": ("Conteo", "Conteo"),
    "ajuste": ("Ajuste del Director", "Director's adjustment"),
    "void": ("Anulación", "Void"),
    "suspender": ("Mesa suspendida", "Mesa suspended"),
    "reanudar": ("Mesa reanudada", "Mesa resumed"),
}

# The article an accepted claim of each kind rests on.
KIND_ARTICLES = {
    "mano": "Art. 3d", "ronda": "Art. 7a", "doble_ronda": "Art. 8",
    "caida": "Art. 6", "limpia": "Art. 9", "caida_limpia": "Art. 9a",
    "caida_en_ronda": "seed 003", "cuatro_caidas": "002 Art. 15B",
    "juego_y_veo": "Art. 5c", "pedir_mal": "Art. 11", "mal_repartidas": "Art. 4c",
    "conteo": "Art. 3g", "ajuste": "Art. 18", "void": "Art. 16",
    "suspender": "Art. 16", "reanudar": "Art. 16",
}

CODES = {
    "anulada": ("Anulada por la jugada {voided_by}.", "Voided by claim {voided_by}.",
                "Art. 16"),
    "mesa_terminada": ("La mesa ya terminó.", "The mesa is over.", "Art. 16"),
    "mesa_suspendida": ("La mesa está suspendida; solo se puede reanudar.",
                        "The mesa is suspended; it can only be resumed.", "Art. 16"),
    "ya_suspendida": ("La mesa ya está suspendida.", "The mesa is already suspended.",
                      "Art. 16"),
    "no_suspendida": ("La mesa no está suspendida.", "The mesa is not suspended.", "Art. 16"),
    "sin_mano": ("No hay una mano en juego.", "No hand is being played.", "Art. 3e"),
    "chica_terminada": ("La chica ya terminó; nada más puntúa en esta data.",
                        "The chica is over; nothing more scores in this data.", "Art. 15"),
    "conteo_pendiente": ("Ya se repartieron todas las manos de la data; falta el conteo.",
                         "Every hand of the data has been dealt; the conteo is due.",
                         "Art. 3f"),
    "conteo_prematuro": ("Aún no se han repartido todas las manos de la data.",
                         "Not every hand of the data has been dealt yet.", "Art. 3f"),
    "conteo_invalido": ("Las parejas no pueden haber levantado más de 40 cartas.",
                        "The pairs cannot have taken more than 40 cards.", "Art. 3g"),
    "sin_turno": ("No queda un turno en esta mano en que esa jugada sea posible.",
                  "No turn is left in this hand where that play is possible.", "Art. 13"),
    "ronda_cerrada": ("Ya jugaron todos una carta: no se puede pedir ronda.",
                      "Everyone has played a card: ronda can no longer be claimed.",
                      "Art. 7b"),
    "ronda_tarde": ("El jugador ya lanzó su primera carta: la ronda se pide antes.",
                    "The player has already played his first card: ronda comes before.",
                    "Art. 7a"),
    "ronda_repetida": ("Ese jugador ya pidió ronda en esta mano.",
                       "That player has already claimed a ronda in this hand.", "Art. 7"),
    "ronda_limite": ("La pareja supera los 30 puntos: ya no puede pedir ronda.",
                     "The pair is above 30 points: it can no longer claim ronda.",
                     "002 Art. 9"),
    "caida_en_ronda_no_aplica": (
        "Este reglamento no puntúa la caída en ronda; regístrela como caída.",
        "This rule set gives caída en ronda no special score; log a caída.", "seed 003"),
    "caida_en_ronda_sin_ronda": ("No se cantó ronda en esta mano.",
                                 "No ronda was claimed in this hand.", "seed 003"),
    "cuatro_caidas_no_aplica": ("Este reglamento no puntúa cuatro caídas seguidas.",
                                "This rule set gives four caídas in a row no score.",
                                "002 Art. 15B"),
    "cuatro_caidas_sin_racha": ("La pareja no lleva cuatro caídas seguidas.",
                                "The pair has not made four caídas in a row.", "002 Art. 15B"),
    "cuatro_caidas_otorgada": ("Ya se otorgaron las cuatro caídas de esta racha.",
                               "These four caídas have already been awarded.", "002 Art. 15B"),
    "juego_y_veo_sin_jugada": (
        "La jugada protestada no es una jugada aceptada de la otra pareja en esta mano.",
        "The protested claim is not an accepted play of the other pair in this hand.",
        "Art. 5"),
    "juego_y_veo_repetido": ("Esa jugada ya fue protestada.",
                             "That play has already been protested.", "Art. 5"),
    "juego_y_veo_no_ultima": ("Solo se protesta la última jugada de la otra pareja.",
                              "Only the other pair's last play can be protested.", "Art. 5a"),
    "anulacion_sin_objetivo": ("La jugada a anular no existe o no es anterior.",
                               "The claim to void does not exist or is not earlier.",
                               "Art. 16"),
    "anulacion_repetida": ("Esa jugada ya está anulada.", "That claim is already void.",
                           "Art. 16"),
    "treinta_y_ocho": ("38 que no juega: la pareja solo suma con una caída.",
                       "38 que no juega: the pair scores only with a caída.",
                       "002 Art. 11"),
}


# Kinds that never score: their message has no points.
_POINTLESS = frozenset({"mano", "void", "suspender", "reanudar"})


def _points(points: dict, spanish: bool) -> str:
    parts = [f"{points[p]:+d} {'para' if spanish else 'to'} {p}" for p in ("A", "B") if points[p]]
    if not parts:
        return "sin puntos" if spanish else "no points"
    return ", ".join(parts)


def message(decision, language: str) -> str:
    """The text of ``decision`` in ``language`` ("es" or "en")."""
    spanish = language == "es"
    index = 0 if spanish else 1
    if decision.code is not None:
        note = CODES[decision.code][index].format(voided_by=decision.voided_by)
    else:
        note = ""
    if not decision.accepted:
        return f"{'Rechazada' if spanish else 'Refused'}: {note}"
    label = KIND_LABELS[decision.kind][index]
    if decision.kind in _POINTLESS:
        text = f"{label}."
    else:
        text = f"{label}: {_points(decision.points, spanish)}."
    if note:
        text += " " + note
    for pair in ("A", "B"):
        if decision.points[pair] > 0 and decision.scores[pair] >= 40:
            text += (f" La pareja {pair} gana la chica {decision.chica}." if spanish
                     else f" Pair {pair} wins chica {decision.chica}.")
    return text
