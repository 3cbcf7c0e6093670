"""``{{ text|shown:"name" }}``: a stored text as a printed page shows it.

Cut at the limit of its kind of text (``refereeing.engine.text``: a name
120 characters, a reason 500, a ruling 2000) and with U+FFFD for what
cannot be printed, however the row got into the database (see
``refereeing.planilla.shown``).
"""

from django import template

from refereeing.engine.text import KINDS, printable

register = template.Library()


@register.filter
def shown(text, kind="line"):
    return printable(text, KINDS[kind].max_length)
