"""``{{ text|shown:"name" }}``, ``{{ moment|shown_moment }}``: a stored value as a printed page shows it.

A text is cut at the limit of its kind of text (``refereeing.engine.text``:
a name 120 characters, a reason 500, a ruling 2000) and with U+FFFD for
what cannot be printed, however the row got into the database (see
``refereeing.planilla.labels.shown``). A date and time is shown in the current
time zone, or as stored (UTC) when that zone's time is past the calendar's
ends (the year 1 in Guayaquil is the year 0, which Python cannot hold).
"""

import datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format

from refereeing.engine.text import KINDS, printable

register = template.Library()


@register.filter
def shown(text, kind="line"):
    return printable(text, KINDS[kind].max_length)


@register.filter(expects_localtime=False)
def shown_moment(moment, format_name="SHORT_DATETIME_FORMAT"):
    try:
        moment = timezone.localtime(moment)
    except (OverflowError, ValueError):
        moment = moment.astimezone(datetime.UTC)
        format_name = r"Y-m-d H:i \U\T\C"
    return date_format(moment, format_name)
