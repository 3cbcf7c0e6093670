"""One act, once (#22.6): organisers who submit the same act at the same moment
(two walkovers, a double submit of a correction, draws, round starts) get one
result and clear refusals, never a 500 and never two audit entries for one
act; the round start's backup runs after the commit, outside the request,
once per round start (#22.5).

These tests commit for real (``transaction=True``) and post from several
threads, each with its own database connection, as gunicorn's workers do:
SQLite serialises them by its write lock, PostgreSQL by the rows' locks.
"""

import threading

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from audit.models import AuditEntry
from backup import auto
from tests.support.factories import championship, organiser, pairs
from tests.support.threads import backups_done, run_at_once
from tournament.draws import draws
from tournament.models import Championship, Mesa
from tournament.results import results

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

AT_ONCE = 4


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def clients():
    """``AT_ONCE`` organisers' browsers, each signed in."""
    made = []
    for n in range(AT_ONCE):
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(organiser(f"org{n}"))
        made.append(client)
    return made


@pytest.fixture
def drawn():
    champ = championship()
    pairs(champ, 8)
    draws.draw_bracket(champ, seed=1, by=None)
    return champ


def posting(client, url, data=None, follow=False):
    """A job posting ``data`` to ``url``: (status, the page's text). The page, not the test
    client's ``context``: that is filled from a signal every thread's rendering sends."""

    def job():
        response = client.post(url, data or {}, follow=follow)
        return response.status_code, response.content.decode()

    return job


def entries(**filters):
    return AuditEntry.objects.filter(**filters)


def test_two_walkovers_at_once_save_one_winner_and_refuse_the_other(clients, drawn):
    """Repro: both were saved with opposite winners, "Result saved" twice, both in the trail."""
    mesa = drawn.mesas.get(bracket="W", round=1, position=1)
    url = reverse("tournament:mesa_result", args=[drawn.pk, mesa.pk])
    answers = run_at_once(
        [posting(clients[i], url, {"winner": "AB"[i % 2], "reason": "No se presentó"}) for i in range(AT_ONCE)]
    )
    assert all(status in (200, 302) for status, _ in answers), [s for s, _ in answers]
    assert sum(status == 302 for status, _ in answers) == 1
    refused = [page for status, page in answers if status == 200]
    assert len(refused) == AT_ONCE - 1 and all("already has a result" in page for page in refused)
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.WALKOVER
    [entry] = entries(mesa_id=mesa.pk, changes__has_key="winner")
    assert entry.changes["winner"][1] == str(mesa.winner)


def test_a_correction_submitted_twice_is_one_act(clients, drawn):
    mesa = drawn.mesas.get(bracket="W", round=1, position=1)
    results.record_walkover(mesa, "A", by=organiser())
    url = reverse("tournament:mesa_result", args=[drawn.pk, mesa.pk])
    data = {"winner": "B", "chicas_a": 0, "chicas_b": 2, "reason": "Se leyó mal la planilla"}
    answers = run_at_once([posting(client, url, data) for client in clients])
    assert all(status == 302 for status, _ in answers)  # each sees the same result saved
    mesa.refresh_from_db()
    assert mesa.winner == mesa.pair_b
    assert entries(mesa_id=mesa.pk, reason="Se leyó mal la planilla").count() == 1


def test_draws_at_once_make_one_bracket_and_refuse_the_others(clients):
    """Repro: simultaneous draws gave 500s."""
    champ = championship()
    pairs(champ, 8)
    url = reverse("tournament:draw", args=[champ.pk])
    answers = run_at_once(
        [posting(client, url, {"seed": 10 + n, "confirm": "1"}, follow=True) for n, client in enumerate(clients)]
    )
    assert all(status == 200 for status, _ in answers), [status for status, _ in answers]
    seed = Championship.objects.get(pk=champ.pk).draw_seed
    assert [f"Bracket drawn with seed {seed}." in page for _, page in answers].count(True) == 1
    assert ["The bracket is already drawn." in page for _, page in answers].count(True) == AT_ONCE - 1
    assert champ.mesas.count() == 7 + 6 + 2  # 8 pairs, double elimination: W 7, L 6, grand final and reset
    assert entries(championship_id=champ.pk, changes__has_key="draw_seed").count() == 1


def test_round_starts_at_once_start_it_once_with_one_entry_and_one_backup(clients, drawn, tmp_path):
    """Repro: four simultaneous round starts wrote four audit entries and four backups."""
    url = reverse("tournament:start_round", args=[drawn.pk, "W", 1])
    with override_settings(BACKUP_DIR=str(tmp_path)):
        answers = run_at_once([posting(client, url, follow=True) for client in clients])
        backups_done()
    assert all(status == 200 for status, _ in answers), [status for status, _ in answers]
    assert ["4 mesas are ready." in page for _, page in answers].count(True) == 1
    assert ["No mesa of this round is waiting" in page for _, page in answers].count(True) == AT_ONCE - 1
    assert drawn.mesas.filter(bracket="W", round=1, status=Mesa.Status.READY).count() == 4
    assert entries(championship_id=drawn.pk, act="round_started").count() == 1
    assert len(list(tmp_path.iterdir())) == 1


def test_the_round_start_answers_before_its_backup_is_written(clients, drawn, tmp_path, monkeypatch):
    """Repro: the backup ran inside the request (8–19 s). Here it cannot finish until the answer is back."""
    answered = threading.Event()
    real_write = auto.write
    seen = {}

    def slow_write(path):
        seen["answered first"] = answered.wait(timeout=30)
        seen["thread"] = threading.current_thread().name
        return real_write(path)

    monkeypatch.setattr(auto, "write", slow_write)
    with override_settings(BACKUP_DIR=str(tmp_path)):
        response = clients[0].post(reverse("tournament:start_round", args=[drawn.pk, "W", 1]))
        answered.set()
        backups_done()
    assert response.status_code == 302
    assert seen == {"answered first": True, "thread": auto.THREAD_NAME}
    [made] = tmp_path.iterdir()
    assert made.name.startswith(f"campeonato-{drawn.pk}-W1-")


def test_a_refused_round_start_makes_no_backup(clients, drawn, tmp_path):
    url = reverse("tournament:start_round", args=[drawn.pk, "W", 3])  # its pairs are not known yet
    with override_settings(BACKUP_DIR=str(tmp_path)):
        response = clients[0].post(url, follow=True)
        backups_done()
    assert "No mesa of this round is waiting" in response.content.decode()
    assert not list(tmp_path.iterdir())
    assert not entries(act="round_started").exists()
