"""What the public pages show: the live scoreboard of a championship and each pair's own page.

Rules
-----
- No sign-in. Nothing here shows a cédula, a phone number or another
  pair's private link: a pair is its name and club, a player their name.
- The scoreboard lists the mesas whose pairs are known: its table, its pairs,
  the score (as tantos and perros, Art. 14, and as points, and the chicas)
  from the mesa's stored engine state, its
  status (waiting, in play, suspended, under appeal, finished), the winner
  marked, and its latest claim, as the juez's log labels it.
- Their order (``board``): the mesas in play (suspended and under appeal
  too) by table, then the calls by table, then the mesas waiting for a
  table, then the decided ones, latest round first. A mesa whose pairs are
  not known yet has no row of its own: the scoreboard counts them in one
  line, the projector leaves them out.
- Each table once: a decided mesa whose table another mesa now holds shows
  no table on the scoreboard (the table is the new mesa's); the projector
  names the table every mesa was played at.
- The projector shows the same rows in large type, and above them the
  calls to tables: every mesa that has its table and both pairs but no
  claim yet ("Pareja X y Pareja Y → mesa física 7"), as soon as the
  organiser assigns it.
- A pair's page, opened by its private link (``Pair.token``), shows where
  the pair plays now and next (its undecided mesas, in bracket order, with
  the table as soon as it has one), its mesas with their result and the
  public verification link of each decided one's planilla, and the appeals
  it filed with their status and ruling, and what it waits for: the
  draw, its opponent (the result of the mesa that gives it), a table and a
  juez, or its call. A pair the bracket was drawn without is told so: the
  desk can still add it until the first mesa starts; after that, it did not
  enter the draw (and it cannot check itself in: ``checkin``).
"""

from django.db.models import Q
from django.utils.translation import gettext as _

from engines.rules.messages import kind_labels
from refereeing.models import Appeal, ClaimEntry
from refereeing.planilla import sheet as planilla
from refereeing.planilla import verification
from tournament.draws import draws
from tournament.language import language
from tournament.models import Mesa
from tournament.pairs import checkin
from tournament.seating.seating import bracket_order


def _status(mesa, appealed):
    if mesa.pk in appealed:
        return "appeal", _("Under appeal")
    if mesa.status in Mesa.DECIDED:
        return "finished", mesa.get_status_display()
    if mesa.status in (Mesa.Status.IN_PLAY, Mesa.Status.SUSPENDED):
        return mesa.status, mesa.get_status_display()
    return "waiting", Mesa.Status.WAITING.label


def _chips(points):
    """The chips a score is shown as, largest first (``planilla.chips``, Art. 14)."""
    chips = planilla.chips(points)
    return ["perro"] * chips["perros"] + ["tanto"] * chips["tantos"]


def _latest_claims(mesas):
    """{mesa id: the label of its latest claim}, in one query."""
    played = [m for m in mesas if m.last_seq]
    if not played:
        return {}
    wanted = Q()
    for mesa in played:
        wanted |= Q(mesa_id=mesa.pk, seq=mesa.last_seq)
    labels = kind_labels(language())
    latest = {}
    for mesa_id, claim in ClaimEntry.objects.filter(wanted).values_list("mesa_id", "claim"):
        kind = claim.get("kind", "")
        latest[mesa_id] = labels.get(kind, kind) + (f" · {claim['pair']}" if claim.get("pair") in ("A", "B") else "")
    return latest


def scoreboard(championship, mesa_ids=None):
    """One row per mesa (see the rules above); only those of ``mesa_ids`` when given."""
    mesas = championship.mesas.select_related("pair_a", "pair_b", "winner")
    appeals = Appeal.objects.waiting().filter(mesa__championship=championship)
    if mesa_ids is not None:
        mesas, appeals = mesas.filter(pk__in=mesa_ids), appeals.filter(mesa__in=mesa_ids)
    mesas = sorted(mesas, key=bracket_order)
    appealed = set(appeals.values_list("mesa_id", flat=True))
    latest = _latest_claims(mesas)
    held = set(
        championship.mesas.filter(status__in=Mesa.UNDECIDED, table_number__isnull=False).values_list(
            "table_number", flat=True
        )
    )
    rows = []
    for mesa in mesas:
        state = mesa.state or {}
        status, status_label = _status(mesa, appealed)
        decided = mesa.status in Mesa.DECIDED
        scores = state.get("scores") if mesa.last_seq and not decided else None
        rows.append(
            {
                "mesa": mesa,
                "table": None if decided and mesa.table_number in held else mesa.table_number,
                "winner": {mesa.pair_a_id: "A", mesa.pair_b_id: "B"}.get(mesa.winner_id) if decided else None,
                "pairs": (mesa.pair_a, mesa.pair_b),
                # A mesa with no claim yet shows no score; a decided one its chicas.
                "scores": scores,
                "chips": {side: _chips(points) for side, points in scores.items()} if scores else None,
                "chicas": {"A": mesa.chicas_a, "B": mesa.chicas_b} if decided else state.get("chicas"),
                "status": status,
                "status_label": status_label,
                "latest": latest.get(mesa.pk, ""),
            }
        )
    return rows


def _called(mesa):
    return (
        mesa.table_number is not None and not mesa.last_seq and mesa.status in (Mesa.Status.WAITING, Mesa.Status.READY)
    )


def _board_order(row):
    mesa = row["mesa"]
    if mesa.status in Mesa.DECIDED and row["status"] != "appeal":
        # Latest round first: the results people look for are the newest.
        return (3, 0, tuple(-n for n in bracket_order(mesa)))
    if row["status"] != "waiting":
        return (0, mesa.table_number or 0, bracket_order(mesa))
    if _called(mesa):
        return (1, mesa.table_number, bracket_order(mesa))
    return (2, 0, bracket_order(mesa))


def board(championship):
    """The public boards' rows in their order, and how many mesas still wait for their pairs (see the rules above)."""
    rows = scoreboard(championship)
    known = [row for row in rows if row["mesa"].pair_a_id and row["mesa"].pair_b_id]
    return sorted(known, key=_board_order), len(rows) - len(known)


def calls(championship):
    """The calls to tables (see the rules above), in bracket order."""
    waiting = championship.mesas.filter(
        **Mesa.NOT_STARTED, table_number__isnull=False, pair_a__isnull=False, pair_b__isnull=False
    ).select_related("pair_a", "pair_b")
    return sorted(waiting, key=bracket_order)


def pair_page(pair):
    """What the pair's own page shows (see the rules above)."""
    mesas = sorted(
        planilla.mesas_for_print().filter(Q(pair_a=pair) | Q(pair_b=pair), championship=pair.championship_id),
        key=bracket_order,
    )
    for mesa in mesas:
        mesa.side = "A" if mesa.pair_a_id == pair.pk else "B"
        mesa.opponent = mesa.pair_b if mesa.side == "A" else mesa.pair_a
        mesa.code = verification.verification_code(mesa) if mesa.status in Mesa.DECIDED else ""
    ahead = [m for m in mesas if m.status not in Mesa.DECIDED]
    appeals = [
        appeal
        for appeal in Appeal.objects.filter(mesa__in=[m.pk for m in mesas]).select_related("mesa").order_by("filed_at")
        if appeal.pair == ("A" if appeal.mesa.pair_a_id == pair.pk else "B")
    ]
    championship = pair.championship
    drawn = bool(mesas) or championship.mesas.exists()
    now = ahead[0] if ahead else None
    return {
        "pair": pair,
        # Drawn without it: it can still be added until play starts (``draws``), else it did not enter.
        "left_out": drawn and not mesas,
        "may_check_in": checkin.may_check_in_itself(pair),
        "entry_closed": drawn and not mesas and draws.play_started(championship),
        "ahead": ahead,
        "live": scoreboard(pair.championship, [m.pk for m in ahead]) if ahead else [],
        "now": now,
        "next": ahead[1] if len(ahead) > 1 else None,
        "waiting_for": _waiting_for(pair, drawn, now),
        "mesas": mesas,
        "appeals": appeals,
    }


def _waiting_for(pair, drawn, now):
    """What the pair waits for now, in a sentence ("" when it waits for nothing: it plays, or it is out)."""
    if not drawn:
        if pair.arrival == pair.Arrival.PRESENT:
            return _("You are checked in: you wait for the draw.")
        if pair.arrival == pair.Arrival.EXPECTED:
            return _("The control desk expects you: check in when you arrive, then wait for the draw.")
        return ""
    if now is None or now.has_started:
        return ""
    if now.opponent is None:
        feeding = Mesa.objects.filter(Q(winner_to=now) | Q(loser_to=now), status__in=Mesa.UNDECIDED).first()
        if feeding is not None:
            return _("You wait for your opponent: the result of %(mesa)s.") % {"mesa": feeding}
        return _("You wait for your opponent.")
    if now.table_number is None or now.juez_id is None:
        return _("You wait for a free table and a juez: your mesa is called as soon as both are free.")
    return _("Your mesa is called: go to table %(table)s.") % {"table": now.table_number}
