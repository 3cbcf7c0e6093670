"""The request's language, and the rules engine's texts in it.

Two conventions, one per side: Django's own texts go through gettext
(``locale/``); the rules engine, which imports no Django, gives every text
in Spanish and English at once (``engines.rules.messages``: pairs, or
``message`` and ``message_en``). These helpers are the one place the
Django side picks the engine's text in the language of the request, which
``LocaleMiddleware`` has set (Spanish unless the request asks for English).
"""

from django.utils.translation import get_language

from engines.rules.messages import pick


def language() -> str:
    """``"en"`` or ``"es"``: the request's language, as the engine names it."""
    return "en" if (get_language() or "es").startswith("en") else "es"


def speak(texts) -> str:
    """The engine's ``texts`` (a pair, or anything with ``message``/``message_en``) in the request's language."""
    return pick(texts, language())
