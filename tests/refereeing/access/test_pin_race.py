"""The table PIN's counts stay exact when guesses arrive at once (issue 22).

Each limit was counted, then the guess checked and recorded, with nothing
held in between: guesses that arrived together all saw the count below the
limit, and a PIN took 11 guesses instead of 10. These tests commit for real
and guess from several threads, each with its own database connection, as
gunicorn's workers do; the count is made slow, so that every guess reads it
before any records its failure unless the check is serialized.
"""

import time

import pytest

from refereeing.access import permissions
from refereeing.access.permissions import PIN_MAX_FAILURES, PIN_TABLE_MAX_FAILURES
from refereeing.models import PinFailure
from tests.support.factories import sede
from tests.support.threads import run_at_once

from .test_pin_limits import BLOCKED_ES, type_pin

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

GUESSES = 6
WRONG_ES = "PIN equivocado para esta mesa."


@pytest.fixture(autouse=True)
def slow_counts(monkeypatch):
    """Each count takes a while after it is read, as under load."""
    for name in ("pin_blocked", "pin_throttled"):
        counted = getattr(permissions, name)

        def slow(*args, counted=counted):
            answer = counted(*args)
            time.sleep(0.3)
            return answer

        monkeypatch.setattr(permissions, name, slow)


def test_guesses_at_once_never_pass_the_table_s_limit(mesa, table):
    """Issue 22 repro: a race let an 11th guess be checked against a PIN."""
    for n in range(PIN_TABLE_MAX_FAILURES - 1):
        PinFailure.objects.create(address=f"10.1.0.{n + 1}", table=table)
    url = f"/acceso/mesa-fisica/{table.pk}/"
    answers = run_at_once(
        [lambda n=n: type_pin("000000", f"10.2.0.{n + 1}", url=url)[1].content.decode() for n in range(GUESSES)]
    )
    assert sum(WRONG_ES in page for page in answers) == 1
    assert sum(BLOCKED_ES in page for page in answers) == GUESSES - 1
    assert PinFailure.objects.filter(table=table).count() == PIN_TABLE_MAX_FAILURES


def test_guesses_at_once_never_pass_the_address_s_limit(db):
    """The same race per address: the earlier guesses were spread over the other tables, under their own limit."""
    address = "10.3.0.1"
    tables = list(sede(8).tables.order_by("number"))
    for n in range(PIN_MAX_FAILURES - 1):
        PinFailure.objects.create(address=address, table=tables[1 + n % 7])
    url = f"/acceso/mesa-fisica/{tables[0].pk}/"
    answers = run_at_once([lambda: type_pin("000000", address, url=url)[1] for _ in range(GUESSES)])
    assert sorted(response.status_code for response in answers) == [403] + [429] * (GUESSES - 1)
    assert PinFailure.objects.filter(address=address).count() == PIN_MAX_FAILURES
