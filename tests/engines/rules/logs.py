"""Concise claim logs for the engine tests.

``play("mano", "ronda A2", "caida B", "conteo 22 15")`` replays a log
written one claim per string:

- ``"mano"``, ``"mal_repartidas"``, ``"suspender"``, ``"reanudar"``
- ``"<kind> A1"`` (pair A, player 1) or ``"<kind> A"`` (pair only) for
  ronda, doble_ronda, caida, limpia, caida_limpia, caida_en_ronda,
  cuatro_caidas, pedir_mal
- ``"conteo 22 15"`` (cards of A and B), ``"ajuste A -4"``, ``"void 3"``
- ``"jyv A si"`` / ``"jyv A no 7"``: pair A protests, upheld or not,
  optionally against claim 7

A dict is taken as it is.
"""

from engines.rules import Header, replay
from engines.rules.rules import build_ruleset

#: A whole data with 4 players that scores only the conteo's dos por darlas.
DATA = ["mano", "mano", "conteo 20 20"]


def claim(text):
    if isinstance(text, dict):
        return text
    kind, *args = text.split()
    if kind == "conteo":
        return {"kind": kind, "cards": {"A": int(args[0]), "B": int(args[1])}}
    if kind == "ajuste":
        return {"kind": kind, "pair": args[0], "points": int(args[1]), "reason": "prueba"}
    if kind == "void":
        return {"kind": kind, "target": int(args[0])}
    if kind == "jyv":
        out = {"kind": "juego_y_veo", "pair": args[0], "upheld": args[1] == "si"}
        if len(args) > 2:
            out["against"] = int(args[2])
        return out
    out = {"kind": kind}
    if args:
        out["pair"] = args[0][0]
        if len(args[0]) > 1:
            out["player"] = int(args[0][1])
    return out


def play(*claims, profile="riobamba", players=4, first_dealer="A1", **settings):
    """The :class:`Replay` of ``claims`` under ``profile`` plus ``settings``."""
    header = Header(build_ruleset(profile, settings), players, first_dealer)
    return replay(header, [claim(c) for c in claims])


def last(result):
    """The last decision of ``result``."""
    return result.decisions[-1]


def codes(result):
    """Each decision's code, or "ok" for an accepted claim without a note."""
    return [d.code or "ok" if d.accepted else d.code for d in result.decisions]


def scores(result):
    return (result.state.scores["A"], result.state.scores["B"])


def renumbered(state, seqs):
    """``state`` (as a dict) of a shortened log, its plays to protest named by their seqs in the full log.

    ``seqs``: the full log's seq of each claim kept, in order.
    """
    protestable = {pair: [seqs[seq - 1] for seq in kept] for pair, kept in state["protestable"].items()}
    return dict(state, protestable=protestable)
