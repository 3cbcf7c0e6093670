"""The one error an organiser's action raises when it is refused."""

from collections.abc import Iterable


class ActionRefused(Exception):
    """A refused action; ``message`` says why, ``blocking`` lists the mesas in the way.

    Every action of ``tournament`` (draws, tables, results, accounts) either
    does all it says or raises this and saves nothing.
    """

    def __init__(self, message: str, blocking: Iterable[object] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.blocking = list(blocking)
