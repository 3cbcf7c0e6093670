"""The rating model: Weng–Lin's Bayesian approximation, as openskill's Plackett–Luce computes it.

The one place a rating is computed; its parameters are stated in
``docs/ratings.md`` and are the library's own defaults, so that its
documented examples are this module's figures (``tests/tournament/ratings``).

Terms
-----
team
    A pair's players (one in 1 vs 1), each a ``(mu, sigma)``.
strength
    The conservative estimate ``mu - K·sigma``: with K = 3 (openskill's
    ``ordinal``), the true skill is above it with a probability of 99.7 %.
    A newcomer's is 0.
pair
    A pair's rating on the players' scale: the mean of its players' ``mu``
    and the uncertainty of that mean (``sqrt(Σ sigma²) / n``), so that a
    pair of one player is that player.
"""

import math
from collections.abc import Sequence

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
KAPPA = 0.0001
TAU = MU / 300
K = 3

# No margin, no weights, sigma free to grow (limit_sigma off), no balance: the library's defaults.
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=TAU)

NEW = (MU, SIGMA)


MuSigma = tuple[float, float]


def rate(winners: Sequence[MuSigma], losers: Sequence[MuSigma]) -> list[list[MuSigma]]:
    """The teams' ratings after ``winners`` beat ``losers``: two lists of ``(mu, sigma)``, in their order."""
    teams = [[MODEL.create_rating([mu, sigma]) for mu, sigma in team] for team in (winners, losers)]
    after = MODEL.rate(teams, ranks=[1, 2])
    return [[(r.mu, r.sigma) for r in team] for team in after]


def strength(mu: float, sigma: float) -> float:
    return mu - K * sigma


def pair(ratings: Sequence[MuSigma]) -> MuSigma:
    """A pair's ``(mu, sigma)`` from its players' (see *pair* above)."""
    n = len(ratings)
    return sum(mu for mu, _sigma in ratings) / n, math.sqrt(sum(sigma**2 for _mu, sigma in ratings)) / n


# How sure a rating is: its uncertainty against a newcomer's (of a team as large), below each limit.
CERTAINTY = ((0.7, "sure"), (0.9, "fair"))


def certainty(sigma: float, players: int = 1) -> str:
    """``"sure"``, ``"fair"`` or ``"unsure"``: ``sigma`` (of a team of ``players``, as :func:`pair` gives it)
    as a share of a newcomer's; a player's shrinks to 0.9 of it in about seven mesas against newcomers,
    faster against surer opponents."""
    share = sigma / (SIGMA / math.sqrt(players))
    return next((word for limit, word in CERTAINTY if share < limit), "unsure")
