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

    mano, mal_repartidas                          (no field)
    suspender, reanudar                           director?
    ronda, doble_ronda, caida, limpia, caida_limpia, caida_en_ronda
                                                  pair, player?
    cuatro_caidas, pedir_mal                      pair
    juego_y_veo                                   pair (the protester), upheld, against?
    conteo                                        cards {"A": n, "B": m}
    ajuste                                        pair, points (may be < 0), reason
    void                                          target (an earlier seq), director?

``director`` (only ``true``) marks the Director's own void, suspension or
resumption, logged in an appeal's ruling: its decision cites the Director's
article (Art. 17), not the juez's (Art. 16). The log sets it for the
Director's claims and refuses it from anyone else's.

``caida_en_ronda`` takes an optional player like the other plays (it *is* a
caída): the contract lists only ``pair``, and a claim without ``player``
stays valid. A void marked ``director`` is the only void a suspended mesa
takes (third rulings). A claim with a field its kind does not have, a missing field
or a value of the wrong type is malformed: :func:`parse_claim` raises
:class:`ClaimError` and the log refuses it before the engine sees it.
A malformed claim is an input error, never a refused decision.

A new claim is also bounded (:func:`parse_claim`): an ``ajuste`` moves a
pair by 1 to 40 points either way (what a chica can hold), a conteo counts
0 to 40 cards a pair, a ``target`` or ``against`` names a seq already in
the log, and a reason is clean text of at most 500 characters
(``engines.text``). A replay checks only the shape, so a log
kept before a bound existed still replays as it did.

Messages come in Spanish and English (:class:`ClaimError`); whoever
answers picks the request's language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.text import TextError, check_text, printable

from .messages import EngineError

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
    "void": {"target": "seq", "director": "mark?"},
    "suspender": {"director": "mark?"},
    "reanudar": {"director": "mark?"},
}
KINDS = tuple(FIELDS)


class ClaimError(EngineError):
    """A malformed claim or header; says what is wrong in Spanish and English."""


def _is_int(value: object) -> bool:
    # bool is an int in Python: True must not pass for 1.
    return type(value) is int


def _pair(value: Any, players: int) -> bool:
    return value in PAIRS


def _player(value: Any, players: int) -> bool:
    return type(value) is int and (value == 1 or (value == 2 and players == 4))


def _bool(value: Any, players: int) -> bool:
    return type(value) is bool


def _int(value: Any, players: int) -> bool:
    return type(value) is int


def _mark(value: Any, players: int) -> bool:
    return value is True


def _seq(value: Any, players: int) -> bool:
    return type(value) is int and value >= 1


def _text(value: Any, players: int) -> bool:
    return type(value) is str and bool(value.strip())


def _cards(value: Any, players: int) -> bool:
    return (
        type(value) is dict
        and len(value) == 2
        and "A" in value
        and "B" in value
        and all(_is_int(n) and n >= 0 for n in value.values())
    )


# rule -> (its check, what it asks in Spanish, in English)
_RULES: dict[str, tuple[Callable[[Any, int], bool], str, str]] = {
    "pair": (_pair, 'la pareja debe ser "A" o "B"', 'pair must be "A" or "B"'),
    "player": (_player, "jugador no válido (1, o 2 solo con 4 jugadores)", "bad player (1, or 2 only with 4 players)"),
    "bool": (_bool, "debe ser true o false", "must be true or false"),
    "int": (_int, "debe ser un entero", "must be an integer"),
    "mark": (_mark, "solo puede ser true", "can only be true"),
    "seq": (_seq, "debe ser un número de orden (entero ≥ 1)", "must be a seq (integer ≥ 1)"),
    "text": (_text, "hace falta un motivo", "a reason is required"),
    "cards": (_cards, 'debe ser {"A": n, "B": m} con enteros ≥ 0', 'must be {"A": n, "B": m} with integers ≥ 0'),
}

# kind -> (the names it may carry, ((name, check, rule, optional), ...))
_SPECS: dict[str, tuple[frozenset[str], tuple[tuple[str, Callable[[Any, int], bool], str, bool], ...]]] = {
    kind: (
        frozenset(fields) | {"kind"},
        tuple(
            (name, _RULES[rule.rstrip("?")][0], rule.rstrip("?"), rule.endswith("?")) for name, rule in fields.items()
        ),
    )
    for kind, fields in FIELDS.items()
}
_MISSING = object()


def _shown(value: object) -> str:
    """A refused value as a message quotes it: short, and printable whatever it holds."""
    return printable(repr(value), 40)


def check_claim(obj: Any, players: int = 4) -> None:
    """Raise :class:`ClaimError` unless ``obj`` is a claim of the format above.

    ``players`` decides whether player 2 exists. The message names the
    kind and the field. This is the shape the engine needs, which every
    replay checks again; the bounds on new input are :func:`parse_claim`'s.
    """
    if type(obj) is not dict:
        raise ClaimError(
            f"Una jugada debe ser un objeto JSON, no {type(obj).__name__}.",
            f"A claim must be a JSON object, not {type(obj).__name__}.",
        )
    kind = obj.get("kind")
    spec = _SPECS.get(kind) if type(kind) is str else None
    if spec is None:
        raise ClaimError(
            f"Tipo de jugada desconocido {_shown(kind)}; use uno de: {', '.join(KINDS)}.",
            f"Unknown claim kind {_shown(kind)}; use one of: {', '.join(KINDS)}.",
        )
    allowed, fields = spec
    if not allowed.issuperset(obj):
        name = printable(sorted(map(str, set(obj) - allowed))[0], 40)
        raise ClaimError(f"«{kind}» no lleva el campo «{name}».", f"'{kind}' has no field '{name}'.")
    for name, check, rule, optional in fields:
        value = obj.get(name, _MISSING)
        if value is _MISSING:
            if optional:
                continue
            raise ClaimError(f"«{kind}»: falta el campo «{name}».", f"'{kind}': missing field '{name}'.")
        if not check(value, players):
            _, spanish, english = _RULES[rule]
            raise ClaimError(
                f"«{kind}».{name} = {_shown(value)}: {spanish}.", f"'{kind}'.{name} = {_shown(value)}: {english}."
            )


# The bounds of new input, beyond the shape: what a juez's tablet or the
# Director can mean. A chica is won at 40 points, so no adjustment moves a
# pair by more; a data has 40 cards; a seq names an entry already in the log.
MAX_POINTS = 40
MAX_CARDS = 40
MAX_SEQ = 100_000  # far beyond any mesa (a full one is a few hundred claims)


def _bounds_error(kind: str, name: str, value: Any, last_seq: int | None) -> tuple[str, str] | None:
    """(Spanish, English) when ``value`` of field ``name`` is out of bounds, else None."""
    if name == "points" and not (value != 0 and abs(value) <= MAX_POINTS):
        return (
            f"«{kind}».points = {_shown(value)}: un ajuste da entre -{MAX_POINTS} y {MAX_POINTS}"
            " puntos, no 0 (Art. 18).",
            f"'{kind}'.points = {_shown(value)}: an adjustment gives between -{MAX_POINTS} and"
            f" {MAX_POINTS} points, not 0 (Art. 18).",
        )
    if name == "cards" and not all(n <= MAX_CARDS for n in value.values()):
        return (
            f"«{kind}».cards: cada pareja cuenta entre 0 y {MAX_CARDS} cartas.",
            f"'{kind}'.cards: each pair counts between 0 and {MAX_CARDS} cards.",
        )
    if name in ("target", "against"):
        top = MAX_SEQ if last_seq is None else min(last_seq, MAX_SEQ)
        if value > top:
            return (
                f"«{kind}».{name} = {_shown(value)}: no hay tal jugada en el registro (la última es #{top}).",
                f"'{kind}'.{name} = {_shown(value)}: the log has no such claim (the last is #{top}).",
            )
    if name == "reason":
        try:
            check_text(value, "reason", field=f"{kind}.{name}")
        except TextError as error:
            return error.spanish, error.english
    return None


def parse_claim(obj: Any, players: int = 4, last_seq: int | None = None) -> dict[str, Any]:
    """``obj`` checked as one new claim, as a new dict; raises :class:`ClaimError`.

    Its shape (:func:`check_claim`), then the bounds of new input: an
    ``ajuste`` within what a chica holds (0 < |points| <= 40), a conteo's
    cards within 0..40, a seq (``target``, ``against``) within the log when
    ``last_seq`` says how long it is, a reason that is clean text of at most
    500 characters (``engines.text``). The reason is kept as
    checked (stripped).
    """
    check_claim(obj, players)
    claim = dict(obj)
    for name in ("points", "cards", "target", "against", "reason"):
        if name in claim:
            error = _bounds_error(claim["kind"], name, claim[name], last_seq)
            if error:
                raise ClaimError(*error)
    if "reason" in claim:
        claim["reason"] = check_text(claim["reason"], "reason")
    return claim
