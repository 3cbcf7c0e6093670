"""Rule sets: the settings that differ between the ways Cuarenta is played.

Terms
-----
profile
    A named, complete set of settings taken from one source:
    ``riobamba`` (the *Reglamento del Juego de Cuarenta*, the default),
    ``pichincha`` (the deck maker's *Reglas para jugar 40*, seed 002) and
    ``a_todo_rigor`` (seed 003's strict column on top of ``pichincha``).
rule set
    A profile plus overrides. An organiser starts from a profile and may
    change any setting; every value is validated here, so a bad rule set
    never reaches a mesa.
award
    What a special play gives: a number of points, ``"chica"`` (the pair
    wins the chica at once) or ``None`` (no special score: the play is not
    a claim of its own under that rule set).

scored kinds
    The claim kinds a rule set takes: every kind of the claim format but
    ``caida_en_ronda`` and ``cuatro_caidas`` where their award is ``None``
    (there the play is logged as plain caídas). ``pair_claims`` are the
    ones a pair asks for, in the order of the juez's buttons.

Points that every source agrees on (caída 2, limpia 2, ronda 2, pedir mal
2, falla 2, mal repartidas 10, juego y veo 2: Art. 15) are constants of the
engine, not settings.

This module imports nothing from Django: the engine is plain Python.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from .claims import KINDS
from .messages import EngineError, cite

CHICA = "chica"
# The zapatería that also puts the zapatero out of the championship (seed 003).
ELIMINATES = "eliminates"

# What a pair asks for, in the order of the juez's buttons; the variant
# claims (the settings of the same name) only where they score.
PAIR_CLAIMS = (
    "caida",
    "limpia",
    "caida_limpia",
    "ronda",
    "doble_ronda",
    "pedir_mal",
    "caida_en_ronda",
    "cuatro_caidas",
)
VARIANT_CLAIMS = frozenset({"caida_en_ronda", "cuatro_caidas"})


class RuleSetError(EngineError):
    """An unknown profile, an unknown setting or a bad value, in Spanish and English."""


@dataclass(frozen=True)
class Setting:
    name: str
    label_es: str
    label_en: str
    source: str
    choices: tuple[Any, ...]


# The order here is the order of the organiser's table.
SETTINGS: tuple[Setting, ...] = (
    Setting("caida_limpia_points", "Caída y limpia", "Caída and limpia", "Art. 9a", (2, 4)),
    Setting(
        "doble_ronda",
        "Doble ronda (cuatro cartas iguales)",
        "Doble ronda (four of a rank)",
        "Art. 8; 002 Art. 15A",
        (4, CHICA),
    ),
    Setting("caida_en_ronda", "Caída en ronda", "Caída en ronda", "seed 003", (None, 4, CHICA)),
    Setting(
        "cuatro_caidas",
        "Cuatro caídas seguidas de una pareja",
        "Four caídas in a row by one pair",
        "002 Art. 15B",
        (None, 4, CHICA),
    ),
    Setting(
        "ronda_limit", "Ronda negada a la pareja que supera", "Ronda refused to a pair above", "002 Art. 9", (None, 30)
    ),
    Setting("treinta_y_ocho", "38 que no juega", "38 que no juega", "002 Art. 11", (False, True)),
    Setting(
        "juego_y_veo_upheld",
        "Juego y veo comprobado",
        "Juego y veo upheld",
        "Art. 5c; 002 Art. 13",
        ("retract", "penalty"),
    ),
    Setting(
        "arranche",
        "Cartas de escalera olvidadas",
        "Forgotten escalera cards",
        "Art. 16; 002 Art. 13",
        ("set_aside", "opponents"),
    ),
    Setting(
        "zapateria",
        "Zapatería",
        "Zapatería",
        "Art. 3g.6, 12; 002 Art. 16; seed 003",
        ("ends_mesa", "title", ELIMINATES),
    ),
    Setting("chicas_to_win", "Chicas para ganar la mesa", "Chicas to win the mesa", "Art. 3g.7", (1, 2, 3)),
)

_BY_NAME = {s.name: s for s in SETTINGS}

# How each choice reads in the organiser's table, in Spanish and English.
_CHOICE_LABELS = {
    None: ("sin puntaje especial", "no special score"),
    CHICA: ("gana la chica", "wins the chica"),
    True: ("sí", "yes"),
    False: ("no", "no"),
    "retract": (
        "+2 a quien protesta; el infractor pierde lo que pidió",
        "+2 to the protester; the offender loses what it claimed",
    ),
    "penalty": ("−2 al infractor, +2 a quien protesta", "−2 to the offender, +2 to the protester"),
    "set_aside": ("el juez las retira; no cuentan para nadie", "the juez sets them aside; they count for nobody"),
    "opponents": ("los oponentes pueden tomarlas", "the opponents may take them"),
    "ends_mesa": ("termina la mesa tras la primera chica", "ends the mesa after the first chica"),
    "title": ("título tras cualquier chica; la mesa sigue", "a title after any chica; the mesa goes on"),
    ELIMINATES: (
        "termina la mesa tras la primera chica, y la pareja zapatera queda eliminada del campeonato",
        "ends the mesa after the first chica, and the zapatero pair is out of the championship",
    ),
}


@dataclass(frozen=True)
class RuleSet:
    profile: str
    caida_limpia_points: int
    doble_ronda: int | str
    caida_en_ronda: int | str | None
    cuatro_caidas: int | str | None
    ronda_limit: int | None
    treinta_y_ocho: bool
    juego_y_veo_upheld: str
    arranche: str
    zapateria: str
    chicas_to_win: int

    @property
    def most_chicas(self) -> int:
        """The most chicas a mesa can take (Art. 3g.7): each pair one short of winning, then the decider."""
        return 2 * self.chicas_to_win - 1

    @property
    def kinds(self) -> tuple[str, ...]:
        """The claim kinds this rule set takes (see "scored kinds")."""
        return tuple(k for k in KINDS if k not in VARIANT_CLAIMS or getattr(self, k) is not None)

    @property
    def pair_claims(self) -> tuple[str, ...]:
        """The claims a pair asks for under this rule set, in the buttons' order."""
        return tuple(k for k in PAIR_CLAIMS if k not in VARIANT_CLAIMS or getattr(self, k) is not None)

    def settings(self) -> dict[str, Any]:
        """Every setting's value, without the profile name."""
        values = asdict(self)
        del values["profile"]
        return values

    def overrides(self) -> dict[str, Any]:
        """The settings that differ from this rule set's profile."""
        base = PROFILES[self.profile].settings()
        return {k: v for k, v in self.settings().items() if base[k] != v}

    def describe(self, language: str = "es") -> list[dict[str, Any]]:
        """The rule set as rows for a readable table, in ``language``."""
        index = 1 if language.startswith("en") else 0
        overrides = self.overrides()
        rows = []
        for setting in SETTINGS:
            value = getattr(self, setting.name)
            if value is None and setting.name == "ronda_limit":
                shown = ("sin límite", "no limit")[index]
            elif isinstance(value, bool) or value is None or isinstance(value, str):
                shown = _CHOICE_LABELS[value][index]
            else:
                shown = (
                    str(value)
                    if setting.name == "chicas_to_win"
                    else (f"{value} puntos" if index == 0 else f"{value} points")
                )
            rows.append(
                {
                    "name": setting.name,
                    "label": (setting.label_es, setting.label_en)[index],
                    "value": shown,
                    "source": cite(setting.source, language),
                    "changed": setting.name in overrides,
                }
            )
        return rows


PROFILES: dict[str, RuleSet] = {
    "riobamba": RuleSet(
        profile="riobamba",
        caida_limpia_points=2,
        doble_ronda=4,
        caida_en_ronda=None,
        cuatro_caidas=None,
        ronda_limit=None,
        treinta_y_ocho=False,
        juego_y_veo_upheld="retract",
        arranche="set_aside",
        zapateria="ends_mesa",
        chicas_to_win=2,
    ),
    "pichincha": RuleSet(
        profile="pichincha",
        caida_limpia_points=2,
        doble_ronda=CHICA,
        caida_en_ronda=None,
        cuatro_caidas=CHICA,
        ronda_limit=30,
        treinta_y_ocho=True,
        juego_y_veo_upheld="penalty",
        arranche="opponents",
        zapateria="title",
        chicas_to_win=2,
    ),
    "a_todo_rigor": RuleSet(
        profile="a_todo_rigor",
        caida_limpia_points=4,
        doble_ronda=CHICA,
        caida_en_ronda=CHICA,
        cuatro_caidas=CHICA,
        ronda_limit=30,
        treinta_y_ocho=True,
        juego_y_veo_upheld="penalty",
        arranche="opponents",
        zapateria=ELIMINATES,
        chicas_to_win=2,
    ),
}

DEFAULT_PROFILE = "riobamba"

# Each profile's human name (Spanish, English), after the source it comes from.
PROFILE_LABELS: dict[str, tuple[str, str]] = {
    "riobamba": ("Reglamento de Riobamba", "Riobamba rulebook"),
    "pichincha": ("Reglas para jugar 40 (Pichincha)", "Reglas para jugar 40 (Pichincha)"),
    "a_todo_rigor": ("A todo rigor", "A todo rigor (strict)"),
}


def build_ruleset(profile: str = DEFAULT_PROFILE, overrides: dict[str, Any] | None = None) -> RuleSet:
    """The rule set made of ``profile`` and ``overrides``, validated.

    Raises :class:`RuleSetError` naming the profile, setting or value that
    is wrong, and the values it accepts.
    """
    if profile not in PROFILES:
        raise RuleSetError(
            f"Perfil desconocido «{profile}»; use uno de: {', '.join(PROFILES)}.",
            f"Unknown profile '{profile}'; use one of: {', '.join(PROFILES)}.",
        )
    overrides = dict(overrides or {})
    for name, value in overrides.items():
        setting = _BY_NAME.get(name)
        if setting is None:
            raise RuleSetError(f"Ajuste desconocido «{name}».", f"Unknown setting '{name}'.")
        # bool is an int in Python: 1 must not pass for True, nor True for 1.
        if not any(value == c and type(value) is type(c) for c in setting.choices):
            allowed = ", ".join(repr(c) for c in setting.choices)
            raise RuleSetError(
                f"Valor {value!r} no válido para «{name}»; valores posibles: {allowed}.",
                f"Bad value {value!r} for '{name}'; allowed: {allowed}.",
            )
    return replace(PROFILES[profile], **overrides)
