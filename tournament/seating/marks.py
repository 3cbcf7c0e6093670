"""What the control board and the tables page mark but refereeing knows: the mesas an appeal holds, the tables
whose PIN is blocked.

Which appeals wait and how many wrong PINs block a table are rules that live once, in refereeing's querysets;
tournament sits below refereeing and imports nothing of it, so refereeing gives its answers here, in its
``ready()``, and the pages ask them through this module.
"""

from collections.abc import Callable, Iterable

_answers: dict[str, Callable] = {}


def answer(question: str, function: Callable) -> None:
    """``function`` answers ``question`` from now on (``"appealed_mesas"`` or ``"blocked_tables"``)."""
    _answers[question] = function


def appealed_mesas(championship) -> set[int]:
    """The ids of ``championship``'s mesas an appeal waiting for the Director holds."""
    return _answers["appealed_mesas"](championship)


def blocked_tables(tables: Iterable) -> set[int]:
    """The ids of those of ``tables`` whose PIN took too many wrong tries."""
    return _answers["blocked_tables"](tables)
