"""The one reader of the environment: every setting the README's Configuration table names is read here.

Plain Python (no Django), because gunicorn's configuration file reads it too, before Django starts. A value
that cannot be what its variable means stops the start with the variable's name, never a bare ``int()`` error.
"""

import os

TRUE = {"1", "true", "yes", "on"}


class BadSetting(ValueError):
    pass


def text(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def flag(name: str, default: bool = False) -> bool:
    # Set but empty is off: only an unset variable takes the default (DEBUG= must never mean DEBUG on).
    if name not in os.environ:
        return default
    return text(name).lower() in TRUE


def whole_number(name: str, default: int, *, least: int = 0) -> int:
    value = text(name)
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise BadSetting(f"{name} must be a whole number, not {value!r}.") from None
    if number < least:
        raise BadSetting(f"{name} must be at least {least}, not {number}.")
    return number


def words(name: str, default: str = "") -> list[str]:
    """A comma-separated list, its blanks dropped."""
    return [word.strip() for word in text(name, default).split(",") if word.strip()]
