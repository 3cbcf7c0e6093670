"""Where the streams are served: outside Django's URL map, by ``streams.app`` in front of it (``config/asgi.py``)."""

import re

PREFIX = "/flujo/"
MESA = re.compile(r"^/flujo/mesa/(\d{1,12})/$")
CHAMPIONSHIP = re.compile(r"^/flujo/campeonato/(\d{1,12})/$")


def mesa_stream(mesa_id):
    """What the devices of one mesa follow: the seq of its log, as it moves."""
    return f"{PREFIX}mesa/{int(mesa_id)}/"


def championship_stream(championship_id):
    """What the public pages follow: the rows of the championship's mesas, as they change."""
    return f"{PREFIX}campeonato/{int(championship_id)}/"
