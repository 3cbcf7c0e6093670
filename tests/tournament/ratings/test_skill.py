"""The rating model is openskill's, with the library's own defaults: its documented examples are our figures."""

import math
from pathlib import Path

import pytest
from django.conf import settings
from openskill.models import PlackettLuce

from tournament.ratings import skill


def test_two_newcomer_pairs_rate_as_the_librarys_documented_example():
    """openskill.py's README and user manual ("Limited Example", "Ranks"): two teams of two new players, the first
    team the winner."""
    winners, losers = skill.rate([skill.NEW, skill.NEW], [skill.NEW, skill.NEW])
    assert winners == [(26.964294621803063, 8.177962604389991)] * 2
    assert losers == [(23.035705378196937, 8.177962604389991)] * 2
    # The manual's ordinals, mu - 3 sigma: our strength.
    assert skill.strength(*winners[0]) == pytest.approx(2.4304068086330872, abs=1e-12)
    assert skill.strength(*losers[0]) == pytest.approx(-1.4981824349730388, abs=1e-12)


def test_the_teams_go_in_the_order_given_winners_first(monkeypatch):
    """openskill.py 3's documented example of four different ratings (a1, a2 beat b1, b2), from before the
    library added the dynamics factor tau: with tau 0 our wrapper gives its figures, each player's own."""
    monkeypatch.setattr(skill, "MODEL", PlackettLuce(tau=0))
    winners, losers = skill.rate([(25.0, 8.333333333333334), (32.444, 5.123)], [(43.381, 2.421), (25.188, 6.211)])
    assert winners == [
        pytest.approx((28.669648436582808, 8.071520788025197), abs=1e-9),
        pytest.approx((33.83086971107981, 5.062772998705765), abs=1e-9),
    ]
    assert losers == [
        pytest.approx((43.071274808241974, 2.4166900452721256), abs=1e-9),
        pytest.approx((23.149503312339064, 6.1378606973362135), abs=1e-9),
    ]


def test_one_player_a_side_is_rated_as_a_team_of_one():
    (winner,), (loser,) = skill.rate([skill.NEW], [skill.NEW])
    model = PlackettLuce()
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]])
    assert (winner, loser) == ((a.mu, a.sigma), (b.mu, b.sigma))
    assert winner[0] > skill.MU > loser[0]


def test_the_parameters_are_the_librarys_defaults_and_stated_in_the_docs():
    default = PlackettLuce()
    model = skill.MODEL
    assert (model.mu, model.sigma, model.beta, model.kappa, model.tau) == (
        default.mu,
        default.sigma,
        default.beta,
        default.kappa,
        default.tau,
    )
    assert (model.margin, model.limit_sigma, model.balance) == (0.0, False, False)
    assert skill.K == 3 and skill.NEW == (25.0, 25.0 / 3)
    stated = (Path(settings.BASE_DIR) / "docs" / "ratings.md").read_text(encoding="utf-8")
    for row in ("| μ₀ (`mu`) | 25 |", "| σ₀ (`sigma`) | 25/3", "| β (`beta`) | 25/6", "| κ (`kappa`) | 0.0001 |"):
        assert row in stated
    assert (
        "| τ (`tau`) | 25/300" in stated and "| K | 3 |" in stated and "openskill](https://openskill.me) 6.2" in stated
    )


def test_a_pairs_rating_is_its_players_mean_and_the_uncertainty_of_that_mean():
    assert skill.pair([(30.0, 2.0)]) == (30.0, 2.0)
    mu, sigma = skill.pair([(30.0, 3.0), (20.0, 4.0)])
    assert (mu, sigma) == (25.0, 2.5)
    newcomers = skill.pair([skill.NEW, skill.NEW])
    assert newcomers[1] == pytest.approx(skill.SIGMA / math.sqrt(2))
    assert skill.certainty(newcomers[1], 2) == skill.certainty(skill.SIGMA) == "unsure"
    # Against a newcomer's uncertainty: below 0.7 of it sure, below 0.9 fairly sure.
    assert [skill.certainty(skill.SIGMA * share) for share in (0.69, 0.7, 0.89, 0.9)] == [
        "sure",
        "fair",
        "fair",
        "unsure",
    ]
    assert skill.certainty(newcomers[1] * 0.69, 2) == "sure"
