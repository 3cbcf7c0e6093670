"""The connection pool under more requests than it holds (PostgreSQL only: SQLite has no pool).

A request that waits past the pool's timeout leaves that pool for a new
one (``config/postgresql``); the pool left behind fails every request still
waiting on it. Those must take the new pool, not fail: under CI's load the
table PIN's race test lost four guesses to "the pool 'pool-1' is closed".
"""

import threading
import time

import pytest
from django.db import connection

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the pool is PostgreSQL's"),
    pytest.mark.django_db(transaction=True),
]


def one_value():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone()[0]


def test_requests_waiting_on_a_pool_left_behind_take_the_new_one():
    held, release = threading.Barrier(connection.settings_dict["OPTIONS"]["pool"]["max_size"] + 1), threading.Event()
    answers, errors = [], []

    def hold():
        one_value()
        held.wait()
        release.wait(30)
        connection.close()

    def wait_for_a_connection():
        try:
            answers.append(one_value())
        except Exception as error:  # noqa: BLE001 — reported by the test below
            errors.append(error)
        finally:
            connection.close()

    connection.close()  # the test's own connection goes back: the holders take every one the pool has
    holders = [threading.Thread(target=hold) for _ in range(held.parties - 1)]
    for thread in holders:
        thread.start()
    held.wait(30)  # every connection of the pool is lent
    first = threading.Thread(target=wait_for_a_connection)
    first.start()
    time.sleep(0.5)  # the others wait on the same pool, and are still waiting when the first leaves it
    later = [threading.Thread(target=wait_for_a_connection) for _ in range(3)]
    for thread in later:
        thread.start()
    for thread in [first, *later]:
        thread.join(30)
    release.set()
    for thread in holders:
        thread.join(30)
    assert errors == []
    assert answers == [1] * 4
