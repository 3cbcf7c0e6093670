"""Fixtures: a championship with one mesa ready to play, and the people around it.

The tests of the claim log, access, appeals, input, audit and server packages
import them into their conftest (``from tests.support.one_mesa import ...``).
"""

import datetime
import uuid

import pytest
from django.utils import timezone, translation

from refereeing.claimlog.log import record_claim
from tests.support import factories
from tests.support.claims import CAIDA_A, MANO, make_pair, make_user
from tests.support.factories import organiser
from tournament.models import Championship, Mesa, Table

# What ``from tests.support.one_mesa import *`` gives a conftest: every fixture below.
__all__ = ["championship", "english", "mesa", "other_mesa", "other_table", "people", "played", "table"]


@pytest.fixture
def people(db):
    return {
        "juez": make_user("juez", first_name="Rosa", last_name="Guamán"),
        "other_juez": make_user("otro_juez"),
        "inspector": make_user("inspector"),
        "staff": organiser("organizador"),
        "director": make_user("director"),
        "stranger": make_user("curioso"),
    }


@pytest.fixture
def championship(people):
    return Championship.objects.create(
        name="Campeonato de Cuarenta",
        edition="2026",
        sede=factories.sede(),
        # Played today: its Director's reach is today's (``tournament.access``).
        start_date=timezone.localdate(),
        end_date=timezone.localdate() + datetime.timedelta(days=1),
        director=people["director"],
    )


@pytest.fixture
def mesa(championship, people):
    """A ready mesa at table 3, judged by ``people["juez"]``."""
    return Mesa.objects.create(
        championship=championship,
        round=1,
        position=1,
        table_number=3,
        pair_a=make_pair(championship, "Los Ases", 1),
        pair_b=make_pair(championship, "Las Sotas", 2),
        juez=people["juez"],
        inspector=people["inspector"],
        status=Mesa.Status.READY,
    )


@pytest.fixture
def other_mesa(championship, people):
    """A second ready mesa at table 4, judged by ``people["other_juez"]``."""
    return Mesa.objects.create(
        championship=championship,
        round=1,
        position=2,
        table_number=4,
        pair_a=make_pair(championship, "Los Reyes", 3),
        pair_b=make_pair(championship, "Los Sietes", 4),
        juez=people["other_juez"],
        status=Mesa.Status.READY,
    )


@pytest.fixture
def table(mesa):
    """The physical table ``mesa`` is seated at (3), with the PIN its card prints."""
    seated = Table.objects.get(sede=mesa.championship.sede, number=mesa.table_number)
    seated.pin = "482913"
    seated.save(update_fields=["pin"])
    return seated


@pytest.fixture
def other_table(other_mesa):
    """The physical table ``other_mesa`` is seated at (4)."""
    seated = Table.objects.get(sede=other_mesa.championship.sede, number=other_mesa.table_number)
    seated.pin = "105577"
    seated.save(update_fields=["pin"])
    return seated


@pytest.fixture
def english():
    """Messages in English, for the tests that read them."""
    with translation.override("en"):
        yield


@pytest.fixture
def played(mesa, people):
    """A mesa in play where pair A's caída was just accepted (seq 2)."""
    record_claim(mesa, MANO, uuid.uuid4(), user=people["juez"])
    record_claim(mesa, CAIDA_A, uuid.uuid4(), user=people["juez"])
    mesa.refresh_from_db()
    return mesa
