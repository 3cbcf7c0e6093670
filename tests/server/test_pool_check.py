"""The look a pooled connection gets before it is lent (``config.postgresql``): no round trip, and a connection
the server has ended is never lent.

Each case opens a connection of its own to the suite's PostgreSQL database, as the pool would, and has the
server end it or leaves it alone.
"""

import time

import psycopg
import pytest
from django.db import connection

from config.postgresql.base import closed_by_server

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the pool serves PostgreSQL only"),
    pytest.mark.django_db,
]


@pytest.fixture
def pooled():
    """A connection as the pool keeps it: open, idle, in autocommit (Django's setting)."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as conn:
        yield conn


def test_an_idle_connection_is_lent_without_a_query(pooled):
    pooled.execute("SELECT 'last query'")
    assert closed_by_server(pooled) is False
    assert closed_by_server(pooled) is False
    with connection.cursor() as cursor:  # the server saw nothing after the last query (an empty one would show)
        cursor.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pooled.info.backend_pid])
        assert cursor.fetchone() == ("SELECT 'last query'",)
    assert pooled.execute("SELECT 1").fetchone() == (1,)  # still good for a query after being looked at


def test_a_connection_the_server_ended_is_found_dead_before_it_is_lent(pooled):
    pid = pooled.info.backend_pid
    with connection.cursor() as cursor:  # another session ends it, as a restart or an administrator does
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5
    while not closed_by_server(pooled) and time.monotonic() < deadline:
        time.sleep(0.01)  # the server's backend ends a moment after the call returns
    assert closed_by_server(pooled) is True
    with pytest.raises(psycopg.OperationalError):
        pooled.execute("SELECT 1")  # what the request would have got


def test_a_connection_closed_on_this_side_is_dead(pooled):
    pooled.close()
    assert closed_by_server(pooled) is True
