"""The preview: what each claim would do if the juez logged it now.

The tablet shows, before the juez taps, what each claim would score and
which would be refused; it must never compute a rule itself. So the referee
decides each possible next claim on a copy of itself (``Referee.trial``):
the preview is the engine's own decision, by the same code, and equals what
the log decides when that claim is appended.

Terms
-----
entry
    One claim's outcome. Accepted: ``{"points": {"A": a, "B": b}}``, the
    deltas the referee would apply (after the score's floor at 0, 38 que no
    juega and the end of the chica), with ``"ends": "chica"`` or ``"mesa"``
    when it would end it, and ``"note"`` and ``"article"`` when it is
    accepted with a note (``treinta_y_ocho``). Refused:
    ``{"refused": code, "article": article}`` and, when the message needs
    them, ``"detail"``. Only the next claim is previewed: a tablet offline
    shows the first claim it keeps waiting as the engine's answer, and the
    ones after it as pending, never a guess.
preview
    ``{"claims": {"A": {kind: entry}, "B": {...}, "-": {"mal_repartidas":
    entry, "mano": entry, "suspender": entry, "reanudar": entry}},
    "juego_y_veo": {"A": {"none": {"upheld": entry, "rejected": entry},
    "<seq>": {...}}, "B": {...}}, "conteo": {"A": [entry, ...41], "B":
    [...]}, "cards": 40, "undo": {"target": seq}}``: every claim a pair asks
    for under the rule set (``RuleSet.pair_claims``), by each pair, without
    naming a player (the referee places it at the pair's earliest possible
    turn); the claims that name no pair (mal repartidas, the mano, the
    suspension and the resumption); each pair's juego y veo, upheld and
    rejected, naming no play (``"none"``: a capture that claimed nothing;
    its refusal says why no juego y veo is taken now, such as the appeal to
    the Director once the mesa is over, Art. 17) and naming each play the
    pair may protest now (``State.protestable``, keyed by its seq as text):
    the screen offers exactly those; the conteo
    where a pair counted ``n`` cards (``n`` = 0..``cards``) and the other
    ``cards - n``, or one entry alone when the conteo is not due (its
    refusal, whatever the cards: the mesa keeps and sends its state after
    every claim, and 41 copies of that refusal were three quarters of it);
    and the juez's "void the last claim" (``Referee.undo``):
    the claim it would void (``null``: none), and ``refused`` and
    ``article`` when the engine would refuse that void.
localised
    ``localise`` adds each entry's ``message`` in one language and, through
    the caller's ``link``, its ``article_url``: what the API sends
    (contract 1 and 3 of the helpers' CONTRACTS.md).

This module imports nothing from Django: the engine is plain Python.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conteo import MAX_CARDS
from .messages import note
from .state import Decision, Replay

# The claims that name no pair, previewed as the next claim.
UNPAIRED = ("mal_repartidas", "mano", "suspender", "reanudar")


def _entry(decision: Decision, ends: str | None) -> dict[str, Any]:
    if not decision.accepted:
        entry: dict[str, Any] = {"refused": decision.code, "article": decision.article}
        if decision.detail:
            entry["detail"] = decision.detail
        return entry
    entry = {"points": {"A": decision.points["A"], "B": decision.points["B"]}}
    if ends:
        entry["ends"] = ends
    if decision.code:
        entry["note"] = decision.code
        entry["article"] = decision.article
    return entry


def preview(result: Replay) -> dict[str, Any]:
    """The preview of the mesa as ``result`` (a replay) leaves it."""
    referee = result.referee
    seq = len(result.decisions) + 1

    def trial(claim: dict[str, Any]) -> dict[str, Any]:
        return _entry(*referee.trial(seq, claim))

    claims: dict[str, dict[str, Any]] = {
        pair: {kind: trial({"kind": kind, "pair": pair}) for kind in referee.rules.pair_claims} for pair in ("A", "B")
    }
    claims["-"] = {kind: trial({"kind": kind}) for kind in UNPAIRED}

    def protests(pair: str) -> dict[str, dict[str, Any]]:
        # What Referee.protestable gives, from the same trials.
        claim = {"kind": "juego_y_veo", "pair": pair}
        shown = {"none": {"upheld": trial(dict(claim, upheld=True)), "rejected": trial(dict(claim, upheld=False))}}
        for seq in referee.candidates():
            upheld = trial(dict(claim, against=seq, upheld=True))
            if "refused" not in upheld:
                shown[str(seq)] = {"upheld": upheld, "rejected": trial(dict(claim, against=seq, upheld=False))}
        return shown

    # Pair A counting n is the conteo {A: n, B: 40 - n}; pair B counting n
    # is the same conteo as A counting 40 - n.
    if referee.gate("conteo"):
        # Refused whatever the cards: one refusal answers every count.
        counted = [trial({"kind": "conteo", "cards": {"A": 0, "B": MAX_CARDS}})]
    else:
        counted = [trial({"kind": "conteo", "cards": {"A": n, "B": MAX_CARDS - n}}) for n in range(MAX_CARDS + 1)]
    target, code = referee.undo(result.decisions)
    undo: dict[str, Any] = {"target": target}
    if code:
        undo.update(refused=code, article=referee.cite("void", code, {}))
    return {
        "claims": claims,
        "juego_y_veo": {pair: protests(pair) for pair in ("A", "B")},
        "conteo": {"A": counted, "B": counted[::-1]},
        "cards": MAX_CARDS,
        "undo": undo,
    }


def protestable(shown: dict[str, Any]) -> dict[str, list[int]]:
    """By protesting pair, the seqs its juego y veo may name now, read from ``shown`` (a preview): what
    ``State.protestable`` gives, from the trials the preview made already."""
    return {
        pair: sorted(int(key) for key in protests if key != "none") for pair, protests in shown["juego_y_veo"].items()
    }


def next_claim(result: Replay, claim: dict[str, Any]) -> dict[str, Any]:
    """The entry of ``claim`` (checked by ``parse_claim``) as the next claim of the mesa ``result`` leaves: what
    the preview holds for it, for a claim it does not hold (a conteo whose counts leave cards out)."""
    return _entry(*result.referee.trial(len(result.decisions) + 1, claim))


def counted(shown: dict[str, Any], pair: str, n: int) -> dict[str, Any]:
    """The entry of ``shown`` (a preview) for the conteo where ``pair`` counted ``n`` cards: a list of one answers
    every count (the tablet reads it so too: ``static/refereeing/mesa/preview.js``)."""
    counts: list[dict[str, Any]] = shown["conteo"][pair]
    return counts[0] if len(counts) == 1 else counts[n]


Link = Callable[[str], str | None]


def localise_entry(entry: dict[str, Any], language: str, link: Link | None = None) -> dict[str, Any]:
    """One entry with its ``message`` in ``language`` and its ``article_url`` (see :func:`localise`)."""
    out = dict(entry)
    code = entry.get("refused") or entry.get("note")
    if code:
        out["message"] = note(code, language, detail=entry.get("detail"))
    article = entry.get("article")
    out["article_url"] = link(article) if link and article else None
    return out


def localise(preview: dict[str, Any], language: str, link: Link | None = None) -> dict[str, Any]:
    """``preview`` with each entry's ``message`` in ``language`` and ``article_url``.

    ``link(article)`` gives the address of an article (None for none);
    without ``link`` every ``article_url`` is None.
    """
    made: dict[object, dict[str, Any]] = {}

    def local(entry: dict[str, Any]) -> dict[str, Any]:
        # Many entries are equal (the same refusal, 41 times over before the
        # conteo is due): each is worded once, also when read back from JSON.
        plain = "points" not in entry and "detail" not in entry
        key = (entry["refused"], entry["article"]) if plain else id(entry)
        if key not in made:
            made[key] = localise_entry(entry, language, link)
        return made[key]

    undo = preview.get("undo") or {"target": None}
    if "refused" in undo:
        # Worded apart from the claims' refusals, which have no target.
        undo = {**local({"refused": undo["refused"], "article": undo["article"]}), "target": undo["target"]}
    protests = preview.get("juego_y_veo") or {}
    return {
        "claims": {pair: {kind: local(e) for kind, e in kinds.items()} for pair, kinds in preview["claims"].items()},
        "juego_y_veo": {
            pair: {seq: {outcome: local(e) for outcome, e in outcomes.items()} for seq, outcomes in against.items()}
            for pair, against in protests.items()
        },
        "conteo": {pair: [local(e) for e in entries] for pair, entries in preview["conteo"].items()},
        "cards": preview.get("cards", MAX_CARDS),
        "undo": undo,
    }
