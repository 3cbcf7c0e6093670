"""``{{ text|shown:"name" }}``, ``{{ moment|shown_moment }}``: a stored value as a printed page shows it.

A text is cut at the limit of its kind of text (``engines.text``:
a name 120 characters, a reason 500, a ruling 2000) and with U+FFFD for
what cannot be printed, however the row got into the database (see
``refereeing.planilla.labels.shown``). A date and time is shown in the
championship's time zone (the venue's: ``TIME_ZONE``, the current zone of
every request), or as stored (UTC) when that zone's time is past the
calendar's ends (the year 1 in Guayaquil is the year 0, which Python cannot
hold).

One clock: every moment a page prints goes through ``shown_moment``; the
times a page prints by itself (when it last heard from the server) are
``static/js/clock.js``'s, in the zone ``{% zone %}`` names on the page's
``<html data-zone>``, labelled ``{% zone_label %}`` wherever the device's own
zone gives another hour.
"""

import datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from engines.text import KINDS, printable

register = template.Library()


@register.filter
def shown(text, kind="line"):
    return printable(text, KINDS[kind].max_length)


@register.simple_tag
def zone():
    """The championship's time zone by its name (``America/Guayaquil``)."""
    return timezone.get_current_timezone_name()


@register.simple_tag
def zone_label():
    """The championship's time zone as people read it: its city and its offset now ("Guayaquil time, −05:00")."""
    city = zone().rsplit("/", 1)[-1].replace("_", " ")
    offset = timezone.localtime().strftime("%z")
    return _("%(city)s time, %(offset)s") % {"city": city, "offset": f"{offset[:3]}:{offset[3:]}".replace("-", "−")}


@register.filter(expects_localtime=False)
def shown_moment(moment, format_name="SHORT_DATETIME_FORMAT"):
    try:
        moment = timezone.localtime(moment)
    except (OverflowError, ValueError):
        moment = moment.astimezone(datetime.UTC)
        format_name = r"Y-m-d H:i \U\T\C"
    return date_format(moment, format_name)
