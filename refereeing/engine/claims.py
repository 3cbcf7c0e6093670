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


def _pair(value, players):
    return value in PAIRS


def _player(value, players):
    return type(value) is int and (value == 1 or (value == 2 and players == 4))


def _bool(value, players):
    return type(value) is bool


def _int(value, players):
    return type(value) is int


def _seq(value, players):
    return type(value) is int and value >= 1


def _text(value, players):
    return type(value) is str and bool(value.strip())


def _cards(value, players):
    return (type(value) is dict and len(value) == 2 and "A" in value and "B" in value
            and all(_is_int(n) and n >= 0 for n in value.values()))


_RULES = {
    "pair": (_pair, "la pareja debe ser \"A\" o \"B\"", "pair must be \"A\" or \"B\""),
    "player": (_player, "jugador no válido (1, o 2 solo con 4 jugadores)",
               "bad player (1, or 2 only with 4 players)"),
    "bool": (_bool, "debe ser true o false", "must be true or false"),
    "int": (_int, "debe ser un entero", "must be an integer"),
    "seq": (_seq, "debe ser un número de orden (entero ≥ 1)", "must be a seq (integer ≥ 1)"),
    "text": (_text, "hace falta un motivo", "a reason is required"),
    "cards": (_cards, "debe ser {\"A\": n, \"B\": m} con enteros ≥ 0",
              "must be {\"A\": n, \"B\": m} with integers ≥ 0"),
}

# kind -> (the names it may carry, ((name, check, rule, optional), ...))
_SPECS = {
    kind: (frozenset(fields) | {"kind"},
           tuple((name, _RULES[rule.rstrip("?")][0], rule.rstrip("?"), rule.endswith("?"))
                 for name, rule in fields.items()))
    for kind, fields in FIELDS.items()
}
_MISSING = object()


def check_claim(obj, players: int = 4) -> None:
    """Raise :class:`ClaimError` unless ``obj`` is a claim of the format above.

    ``players`` decides whether player 2 exists. The message names the
    kind and the field.
    """
    if type(obj) is not dict:
        raise ClaimError(f"Una jugada debe ser un objeto JSON, no {type(obj).__name__}."
                         f" / A claim must be a JSON object, not {type(obj).__name__}.")
    kind = obj.get("kind")
    spec = _SPECS.get(kind) if type(kind) is str else None
    if spec is None:
        raise ClaimError(f"Tipo de jugada desconocido {kind!r}; use uno de: {', '.join(KINDS)}."
                         f" / Unknown claim kind {kind!r}.")
    allowed, fields = spec
    if not allowed.issuperset(obj):
        name = sorted(set(obj) - allowed)[0]
        raise ClaimError(f"«{kind}» no lleva el campo «{name}». / '{kind}' has no field '{name}'.")
    for name, check, rule, optional in fields:
        value = obj.get(name, _MISSING)
        if value is _MISSING:
            if optional:
                continue
            raise ClaimError(f"«{kind}»: falta el campo «{name}». / '{kind}': missing field '{name}'.")
        if not check(value, players):
            _, spanish, english = _RULES[rule]
            raise ClaimError(f"«{kind}».{name} = {value!r}: {spanish}. / '{kind}'.{name}"
                             f" = {value!r}: {english}.")


def parse_claim(obj, players: int = 4) -> dict:
    """``obj`` checked as one claim (see :func:`check_claim`), as a new dict."""
    check_claim(obj, players)
    return dict(obj)
