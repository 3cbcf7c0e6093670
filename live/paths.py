"""Where the streams are served: outside Django's URL map, by ``live.streams.app`` in front of it (``config/asgi.py``), on
the pages' own server or on the one ``STREAMS_URL`` names."""

import re
from urllib.parse import urlencode

from django.conf import settings

PREFIX = "/flujo/"
MESA = re.compile(r"^/flujo/mesa/(\d{1,12})/$")
CHAMPIONSHIP = re.compile(r"^/flujo/campeonato/(\d{1,12})/$")


def mesa_stream(mesa_id):
    """What the devices of one mesa follow: the seq of its log, as it moves."""
    return f"{settings.STREAMS_URL}{PREFIX}mesa/{int(mesa_id)}/"


def championship_stream(championship_id, view, language, mesa_ids=None):
    """What the public pages follow: the rows of the championship's mesas in one view and language, as they change.

    ``mesa_ids``: only those mesas' rows (a pair's page).
    """
    query = {"vista": view, "lang": language}
    if mesa_ids is not None:
        query["mesas"] = ",".join(str(int(pk)) for pk in mesa_ids)
    return f"{settings.STREAMS_URL}{PREFIX}campeonato/{int(championship_id)}/?{urlencode(query)}"
