"""Claims: the juez's log entries, and the check of their shape.

Terms
-----
claim
    One JSON object the juez logs: what a pair asks for (``caida``,
    ``ronda``...), what the juez does (``mano`` deals a hand, ``conteo``
    counts the cards at the end of a data, ``suspender``/``reanudar``, a
    ``void`` that cancels an earlier claim) or the Director's ``ajuste``
    (Art. 18). Its place in the log (1-based) is its *seq*.
pair, player
    ``"A"`` or ``"B"``; ``player`` is 1 or 2 (only 1 at a two-player mesa).
    When a play or ronda claim omits the player, the engine takes the pair's
    earliest possible player.

Fields of each kind (``?`` marks an optional field)::

    mano, mal_repartidas, suspender, reanudar     (no field)
    ronda, doble_ronda, caida, limpia, caida_limpia, caida_en_ronda
                                                  pair, player?
    cuatro_caidas, pedir_mal                      pair
    juego_y_veo                                   pair (the protester), upheld, against?
    conteo                                        cards {"A": n, "B": m}
    ajuste                                        pair, points (may be < 0), reason
    void                                          target (an earlier seq)

``caida_en_ronda`` takes an optional player like the other plays (it *is* a
caída): the contract lists only ``pair``, and a claim without ``player``
stays valid. A claim with a field its kind does not have, a missing field
or a value of the wrong type is malformed: :func:`parse_claim` raises
:class:`ClaimError` and the log refuses it before the engine sees it.
A malformed claim is an input error, never a refused decision.
"""

from __future__ import annotations

PAIRS = ("A", "B")

# The kinds of a play: a capture that takes its turn in the mano.
PLAYS = frozenset({"caida", "limpia", "caida_limpia", "caida_en_ronda"})
CAIDAS = frozenset({"caida", "caida_limpia", "caida_en_ronda"})
RONDAS = frozenset({"ronda", "doble_ronda"})

_PAIR_PLAYER = {"pair": "pair", "player": "player?"}
FIELDS: dict[str, dict[str, str]] = {
    "mano": {},
    "ronda": _PAIR_PLAYER,
    "doble_ronda": _PAIR_PLAYER,
    "caida": _PAIR_PLAYER,
    "limpia": _PAIR_PLAYER,
    "caida_limpia": _PAIR_PLAYER,
    "caida_en_ronda": _PAIR_PLAYER,
    "cuatro_caidas": {"pair": "pair"},
    "juego_y_veo": {"pair": "pair", "upheld": "bool", "against": "seq?"},
    "pedir_mal": {"pair": "pair"},
    "mal_repartidas": {},
    "conteo": {"cards": "cards"},
    "ajuste": {"pair": "pair", "points": "int", "reason": "text"},
    "void": {"target": "seq"},
    "suspender": {},
    "reanudar": {},
}
KINDS = tuple(FIELDS)


class ClaimError(ValueError):
    """A malformed claim or header; the message says what is wrong."""


def _is_int(value) -> bool:
    # bool is an int in Python: True must not pass for 1.
    return type(value) is int


def _check(kind: str, name: str, rule: str, value, players: int) -> None:
    where = f"«{kind}».{name}"
    if rule == "pair":
        if value not in PAIRS or type(value) is not str:
            raise ClaimError(f"{where}: la pareja debe ser \"A\" o \"B\", no {value!r}."
                             f" / pair must be \"A\" or \"B\", not {value!r}.")
    elif rule == "player":
        allowed = (1, 2) if players == 4 else (1,)
        if not _is_int(value) or value not in allowed:
            raise ClaimError(f"{where}: jugador {value!r} no válido en una mesa de {players}"
                             f" jugadores. / bad player {value!r} at a {players}-player mesa.")
    elif rule == "bool":
        if type(value) is not bool:
            raise ClaimError(f"{where}: debe ser true o false. / must be true or false.")
    elif rule == "int":
        if not _is_int(value):
            raise ClaimError(f"{where}: debe ser un entero. / must be an integer.")
    elif rule == "seq":
        if not _is_int(value) or value < 1:
            raise ClaimError(f"{where}: debe ser un número de orden (entero ≥ 1)."
                             f" / must be a seq (integer ≥ 1).")
    elif rule == "text":
        if type(value) is not str or not value.strip():
            raise ClaimError(f"{where}: hace falta un motivo. / a reason is required.")
    elif rule == "cards":
        if (type(value) is not dict or set(value) != {"A", "B"}
                or not all(_is_int(n) and n >= 0 for n in value.values())):
            raise ClaimError(f"{where}: debe ser {{\"A\": n, \"B\": m}} con enteros ≥ 0."
                             f" / must be {{\"A\": n, \"B\": m}} with integers ≥ 0.")


def parse_claim(obj, players: int = 4) -> dict:
    """``obj`` checked as one claim; returns it as a new dict.

    Raises :class:`ClaimError` naming the kind and field when ``obj`` is
    not a claim of the format above (``players`` decides whether player 2
    exists).
    """
    if type(obj) is not dict:
        raise ClaimError(f"Una jugada debe ser un objeto JSON, no {type(obj).__name__}."
                         f" / A claim must be a JSON object, not {type(obj).__name__}.")
    kind = obj.get("kind")
    fields = FIELDS.get(kind) if type(kind) is str else None
    if fields is None:
        raise ClaimError(f"Tipo de jugada desconocido {kind!r}; use uno de: {', '.join(KINDS)}."
                         f" / Unknown claim kind {kind!r}.")
    for name in obj:
        if name != "kind" and name not in fields:
            raise ClaimError(f"«{kind}» no lleva el campo «{name}». / '{kind}' has no field '{name}'.")
    for name, rule in fields.items():
        optional = rule.endswith("?")
        if name not in obj:
            if optional:
                continue
            raise ClaimError(f"«{kind}»: falta el campo «{name}». / '{kind}': missing field '{name}'.")
        _check(kind, name, rule.rstrip("?"), obj[name], players)
    return dict(obj)
