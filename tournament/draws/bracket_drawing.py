"""The bracket as brackets-viewer draws it (``static/vendor/brackets-viewer``): its data model from the mesas.

Terms (brackets-viewer's, from brackets-manager)
-----
stage
    One drawing: the elimination (``single_elimination``, or
    ``double_elimination`` when there is a losers' bracket; its grand final
    ``double`` when the championship has the reset) and, for a group phase,
    a ``round_robin`` stage.
group
    A part of a stage: in elimination 1 is the winners' bracket (the only
    one in single elimination), 2 the losers' bracket or the third-place
    mesa, 3 the grand final and its reset; in a group phase, one per group.
match
    One mesa: its id is the mesa's, its opponents the pairs (``id`` None
    while not known), its status and scores what the mesa shows now.

Rules
-----
- A match is made from its mesa alone (``match``), so a stream can push one
  changed mesa and the page redraws it in place: its group and round are
  fixed by the mesa's bracket, group and round.
- Score: a decided mesa shows the chicas each pair won, and which won; a
  mesa in play (or suspended) shows the points of the chica being played;
  any other shows none.
- A mesa that will not be played (the reset, once the winners' bracket's
  finalist won the grand final) is drawn without pairs and archived.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import NotRequired, TypedDict

from django.utils.translation import gettext as _

from tournament.models import Championship, Mesa, Pair

ELIMINATION, GROUPS = 0, 1
GROUP_OF = {"W": 1, "L": 2, "3P": 2, "GF": 3, "GR": 3}
# brackets-model's Status: Locked, Waiting, Ready, Running, Completed, Archived.
LOCKED, WAITING, READY, RUNNING, COMPLETED, ARCHIVED = range(6)


class Opponent(TypedDict):
    """A side of a brackets-viewer match: its pair, and once known its score and result."""

    id: int | None
    score: NotRequired[int]
    result: NotRequired[str]


class Match(TypedDict):
    """A brackets-viewer match (brackets-model's ``Match``)."""

    id: int
    stage_id: int
    group_id: int
    round_id: int
    number: int
    child_count: int
    status: int
    opponent1: Opponent
    opponent2: Opponent


class Stage(TypedDict):
    """A brackets-viewer stage: the elimination or the groups."""

    id: int
    tournament_id: int
    name: str
    type: str
    number: int
    settings: dict[str, object]


class Drawing(TypedDict):
    """What brackets-viewer's ``render`` takes."""

    stages: list[Stage]
    matches: list[Match]
    matchGames: list[object]
    participants: list[dict[str, object]]


def _group(mesa: Mesa) -> int:
    # A group's mesa has its group.
    return 10 + (mesa.group or 0) if mesa.bracket == Mesa.Bracket.GROUP else GROUP_OF[mesa.bracket]


def _round(mesa: Mesa) -> int:
    # The reset is the grand final group's second round.
    return 2 if mesa.bracket == Mesa.Bracket.RESET else mesa.round


def match(mesa: Mesa, void: bool = False) -> Match:
    """The brackets-viewer match of ``mesa`` (see the rules above)."""
    group = _group(mesa)
    opponents: list[Opponent] = [{"id": None}, {"id": None}]
    if not void:
        opponents = [{"id": mesa.pair_a_id}, {"id": mesa.pair_b_id}]
    decided = mesa.status in Mesa.DECIDED and not void
    playing = mesa.status in (Mesa.Status.IN_PLAY, Mesa.Status.SUSPENDED)
    if decided:
        for opponent, chicas in ((opponents[0], mesa.chicas_a), (opponents[1], mesa.chicas_b)):
            opponent["score"] = chicas or 0
            opponent["result"] = "win" if mesa.winner_id and mesa.winner_id == opponent["id"] else "loss"
    elif playing and mesa.last_seq:
        scores = (mesa.state or {}).get("scores") or {}
        opponents[0]["score"], opponents[1]["score"] = scores.get("A", 0), scores.get("B", 0)
    known = sum(o["id"] is not None for o in opponents)
    if void:
        status = ARCHIVED
    elif decided:
        status = COMPLETED
    elif playing:
        status = RUNNING
    else:
        status = READY if known == 2 else WAITING if known == 1 else LOCKED
    return {
        "id": mesa.pk,
        "stage_id": GROUPS if mesa.bracket == Mesa.Bracket.GROUP else ELIMINATION,
        "group_id": group,
        "round_id": group * 1000 + _round(mesa),
        "number": mesa.position,
        "child_count": 0,
        "status": status,
        "opponent1": opponents[0],
        "opponent2": opponents[1],
    }


def drawing(
    championship: Championship,
    mesas: Iterable[Mesa],
    pairs: Iterable[Pair],
    void_ids: Collection[int],
    names: Mapping[str, str],
) -> Drawing:
    """Everything brackets-viewer's ``render`` takes: stages, matches, participants.

    ``mesas``: every mesa of the championship; ``void_ids``: those that will
    not be played (``advancement.void_ids``); ``names``: {"elimination",
    "groups"}, the stages' names in the page's language.
    """
    brackets = {m.bracket for m in mesas}
    stages: list[Stage] = []
    if brackets - {Mesa.Bracket.GROUP}:
        double = Mesa.Bracket.LOSERS in brackets
        stages.append(
            {
                "id": ELIMINATION,
                "tournament_id": championship.pk,
                "name": names["elimination"],
                "type": "double_elimination" if double else "single_elimination",
                "number": 2 if Mesa.Bracket.GROUP in brackets else 1,
                "settings": {
                    "grandFinal": ("double" if Mesa.Bracket.RESET in brackets else "simple") if double else "none",
                    "consolationFinal": Mesa.Bracket.THIRD in brackets,
                },
            }
        )
    if Mesa.Bracket.GROUP in brackets:
        stages.append(
            {
                "id": GROUPS,
                "tournament_id": championship.pk,
                "name": names["groups"],
                "type": "round_robin",
                "number": 1,
                "settings": {},
            }
        )
    return {
        "stages": sorted(stages, key=lambda stage: stage["number"]),
        "matches": [match(mesa, mesa.pk in void_ids) for mesa in mesas],
        "matchGames": [],
        "participants": [{"id": pair.pk, "tournament_id": championship.pk, "name": pair.name} for pair in pairs],
    }


def viewer_words() -> dict[str, dict[str, str]]:
    """brackets-viewer's words in the request's language (its ``addLocale``); ``{{...}}`` are its placeholders."""
    return {
        "origin-hint": {
            "seed": _("Seed {{position}}"),
            "winner-bracket": _("Loser of $t(abbreviations.winner-bracket) {{round}}.{{position}}"),
            "winner-bracket-semi-final": _("Loser of $t(abbreviations.winner-bracket) semi-final {{position}}"),
            "winner-bracket-final": _("Loser of the $t(abbreviations.winner-bracket) final"),
            "consolation-final": _("Loser of semi-final {{position}}"),
            "grand-final": _("Winner of the $t(abbreviations.loser-bracket) final"),
        },
        "match-label": {
            "default": _("Mesa {{matchNumber}}"),
            "standard-bracket": _("M"),
            "standard-bracket-semi-final": _("Semi-final {{matchNumber}}"),
            "standard-bracket-final": _("Final"),
            "double-elimination": "{{matchPrefix}} {{roundNumber}}.{{matchNumber}}",
            "double-elimination-semi-final": _("{{matchPrefix}} semi-final {{matchNumber}}"),
            "double-elimination-final": _("{{matchPrefix}} final"),
            "consolation-final": _("Third place"),
            "grand-final-single": _("Grand final"),
            "grand-final": _("Grand final, round {{roundNumber}}"),
        },
        "match-status": {
            "locked": _("Pairs not known yet"),
            "waiting": _("Waiting"),
            "ready": _("Ready"),
            "running": _("In play"),
            "completed": _("Finished"),
            "archived": _("Not played"),
        },
        "abbreviations": {
            "win": _("W"),
            "loss": _("L"),
            "winner-bracket": _("WB"),
            "loser-bracket": _("LB"),
            "match": _("M"),
            "grand-final": _("GF"),
        },
        "common": {
            "bye": _("Bye"),
            "consolation": _("Third place"),
            "group-name": _("Group {{groupNumber}}"),
            "group-name-winner-bracket": _("Winners' bracket"),
            "group-name-loser-bracket": _("Losers' bracket"),
            "round-name": _("Round {{roundNumber}}"),
            "round-name-final": _("Final"),
            "round-name-winner-bracket": _("WB round {{roundNumber}}"),
            "round-name-winner-bracket-final": _("WB final"),
            "round-name-loser-bracket": _("LB round {{roundNumber}}"),
            "round-name-loser-bracket-final": _("LB final"),
        },
    }
