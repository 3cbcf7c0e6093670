"""The one refusal every act of the project raises, and the one the organisers' actions raise.

As Zulip's ``JsonableError``: a refusal carries what any screen needs to show it, so that no view
has to know which act refused. ``tournament.refusals`` shows it on a page (a form's error or a
message), ``config.refusals`` answers it under the API (one JSON shape) and for any page that
lets it go. Each app's errors derive from :class:`Refusal` and set their own ``code`` and
``status``; the engines' errors, which import nothing of Django, are turned into one with
:meth:`Refusal.from_engine` where the Django side meets them.
"""

import re
from typing import Any, Self

from tournament.language import speak

# A message that rests on a rule starts with it: "Art. 17: ...", "Art. 3g.6: ...".
LEADING_ARTICLE = re.compile(r"^(Art\. [0-9][\w.–-]*):")


class Refusal(Exception):
    """An act that did nothing, and why.

    ``message`` is in the request's language (the caller's gettext, or the engine's text picked by
    :func:`tournament.language.speak`); ``code`` a stable name for software; ``article`` the rule
    that refused (taken from a message that starts with it when not given); ``status`` the HTTP
    status an API answers with; ``data`` further fields an API answer carries (a conflict's state).
    """

    code: str = "refused"
    status: int = 400

    def __init__(
        self,
        message: object,
        *,
        code: str | None = None,
        article: str | None = None,
        status: int | None = None,
        **data: Any,
    ) -> None:
        super().__init__(message)
        self.message = str(message)
        self.code = code or self.code
        self.status = status or self.status
        leading = LEADING_ARTICLE.match(self.message)
        self.article = article or (leading.group(1) if leading else None)
        self.data = data

    @classmethod
    def from_engine(cls, error: Any, **kwargs: Any) -> Self:
        """The engine's ``error`` (Spanish and English at once) as this refusal, in the request's language."""
        kwargs.setdefault("code", getattr(error, "code", None))
        return cls(speak(error), **kwargs)

    def as_json(self) -> dict[str, Any]:
        """The refusal as the API answers it; ``detail`` repeats ``message`` for the clients that read DRF's key."""
        return {
            "code": self.code,
            "message": self.message,
            "article": self.article,
            "status": self.status,
            "detail": self.message,
            **self.data,
        }


class ActionRefused(Refusal):
    """A refused organiser's action; ``blocking`` lists the mesas in the way.

    Every action of ``tournament`` (draws, tables, results, accounts) either
    does all it says or raises this and saves nothing.
    """

    code = "action_refused"
    status = 409

    def __init__(self, message: object, blocking: Any = (), **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.blocking = list(blocking)
