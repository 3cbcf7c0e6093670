"""Suspending and resuming the mesa (Art. 16, 17)."""

import pytest

from engines.rules.claims import ClaimError

from .logs import codes, last, play


def test_while_suspended_only_reanudar_void_and_ajuste_pass_art_16():
    result = play("mano", "suspender", "caida A", "mano", "ronda B1", "ajuste B 4", "reanudar", "caida A")
    assert codes(result)[2:] == ["mesa_suspendida"] * 3 + ["ok", "ok", "ok"]
    assert result.decisions[2].article == "Art. 16"
    assert result.state.scores == {"A": 2, "B": 4} and not result.state.suspended


def test_suspending_twice_or_resuming_a_running_mesa_is_refused_art_16():
    result = play("suspender", "suspender", "reanudar", "reanudar")
    assert codes(result) == ["ok", "ya_suspendida", "ok", "no_suspendida"]


def test_the_state_says_the_mesa_is_suspended_art_17():
    """An admitted appeal suspends the mesa until the Director's ruling (Art. 17)."""
    assert play("mano", "suspender").state.suspended
    assert last(play("suspender", "mano")).code == "mesa_suspendida"


def test_the_directors_void_suspension_and_resumption_cite_art_17_the_juezs_art_16():
    """The Director voids, suspends and resumes only in an appeal's ruling (Art. 17); the juez's own are Art. 16."""
    by_director = [{"kind": "suspender", "director": True}, {"kind": "void", "target": 2, "director": True}]
    result = play("mano", "caida A", *by_director, {"kind": "reanudar", "director": True}, "suspender", "void 2")
    assert [d.article for d in result.decisions[2:]] == ["Art. 17", "Art. 17", "Art. 17", "Art. 16", "Art. 16"]
    assert result.decisions[1].code == "anulada" and result.state.scores == {"A": 0, "B": 0}
    with pytest.raises(ClaimError):  # the mark is there or not: never false, never on a kind of play
        play("mano", {"kind": "void", "target": 1, "director": False})
    with pytest.raises(ClaimError):
        play({"kind": "mano", "director": True})
