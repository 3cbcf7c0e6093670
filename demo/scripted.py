"""Scripted claim logs: plausible mesas for the demo and the tests.

A script is an endless stream of claims in the engine's format, one data
after another (two manos with four players, four with two, then the
conteo, Art. 3g), in which the chosen pair takes more cards and most
caídas, so it wins the mesa in two chicas or by zapatería (Art. 3g.6–7).
The caller logs claims until the engine says the mesa is finished (or
stops earlier to leave a mesa in play). Claims the engine refuses are
logged as refused, as a juez's would be.
"""

import random


def claims(winner, seed, players=4):
    rng = random.Random(seed)
    loser = "B" if winner == "A" else "A"
    manos = 2 if players == 4 else 4
    while True:
        for _mano in range(manos):
            yield {"kind": "mano"}
            for _ in range(rng.choice((0, 1, 2, 2))):
                pair = winner if rng.random() < 0.6 else loser
                yield {"kind": "caida", "pair": pair, "player": rng.choice((1, 2)) if players == 4 else 1}
        taken = rng.randint(20, 30)
        yield {"kind": "conteo", "cards": {winner: taken, loser: rng.randint(4, 40 - taken)}}
