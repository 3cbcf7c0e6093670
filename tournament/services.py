"""What organisers do to a championship, as plain functions.

Terms
-----
draw
    Turning the registered pairs into the bracket's mesas, in one
    transaction. The random seed of the draw is kept on the championship, so
    the same pairs and seed give the same bracket again.
holding a table
    A mesa that is not decided and has a table number holds that table (and
    its juez) until it is decided; the other tables and jueces are free.
started
    A mesa has started once it is in play or suspended, has a claim in its
    log, or is decided. The result of a mesa that has not started is refused.
decided
    Finished (by the engine's state, Art. 3g.7) or walkover (a no-show).
advance
    The winner of a decided mesa goes on to ``winner_to`` (in
    ``winner_to_slot``); in double elimination the loser goes on to
    ``loser_to`` (Art. 12: a first defeat does not eliminate). The grand
    final's reset is played only when the pair from the losers' bracket wins
    the grand final (then both pairs have one defeat).
dependent mesas
    The mesas a mesa's winner and loser went on to. A result may be
    corrected only while none of them has started; the Director may
    override (Art. 18), and then only the dependents that have not started
    are reset with the corrected pairs.

Every function here either does all it says or raises ``ServiceError`` and
saves nothing.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from . import bracket
from .models import Mesa

JUECES_GROUP = "Jueces"
ORGANISERS_GROUP = "Organizadores"

BRACKET_ORDER = [b for b, _label in Mesa.Bracket.choices]
DECIDED = (Mesa.Status.FINISHED, Mesa.Status.WALKOVER)
UNDECIDED = (Mesa.Status.WAITING, Mesa.Status.READY, Mesa.Status.IN_PLAY, Mesa.Status.SUSPENDED)


class ServiceError(Exception):
    """A refused action; ``message`` says why, ``blocking`` lists the mesas in the way."""

    def __init__(self, message, blocking=()):
        super().__init__(message)
        self.message = message
        self.blocking = list(blocking)


def play_order(mesa):
    """Sort key for tables: by round, winners' before losers', then position."""
    return (mesa.round, BRACKET_ORDER.index(mesa.bracket), mesa.position)


def has_started(mesa):
    return mesa.status not in (Mesa.Status.WAITING, Mesa.Status.READY) or mesa.last_seq > 0


def person_name(user):
    """How people name a user: the full name, else the username ("" for nobody)."""
    return (user.get_full_name() or user.get_username()) if user else ""


def mesa_label(mesa):
    """How people name a mesa: its place in the bracket and its table."""
    label = _("%(bracket)s R%(round)d-%(position)d") % {
        "bracket": mesa.get_bracket_display(), "round": mesa.round, "position": mesa.position}
    if mesa.table_number:
        label += " " + _("(table %(table)d)") % {"table": mesa.table_number}
    return label


# --- the draw -------------------------------------------------------------

def draw_bracket(championship, seed=None):
    """Create every mesa of the championship's bracket from its pairs.

    The bracket engine (``tournament.bracket``) places seeded pairs by their
    seed and shuffles the rest with ``seed``, the random draw's seed (a new
    one when None), which is kept on the championship. Pairs with a bye go
    straight into their second mesa. Refused when the bracket is already
    drawn or the engine refuses the draw.
    """
    pairs = list(championship.pairs.order_by("seed", "name"))
    if championship.mesas.exists():
        raise ServiceError(_("The bracket is already drawn."))
    if len(pairs) < 2:
        raise ServiceError(_("At least two pairs are needed to draw the bracket."))
    try:
        result = bracket.draw(
            [p.pk for p in pairs], championship.bracket_format,
            seeds={p.pk: p.seed for p in pairs if p.seed is not None},
            random_seed=bracket.new_random_seed() if seed is None else seed,
            third_place=championship.third_place, group_size=championship.group_size,
        )
    except bracket.BracketError as error:
        raise ServiceError(_bracket_message(error)) from None
    with transaction.atomic():
        championship.draw_seed = result.random_seed
        championship.save(update_fields=["draw_seed"])
        return _create_mesas(championship, result.specs)


def draw_knockout(championship):
    """After round-robin groups, draw the single elimination of the best
    ``advance_per_group`` pairs of each group (ranked by the bracket engine:
    wins, chica difference, point difference, head-to-head)."""
    mesas = list(championship.mesas.all())
    groups = [m for m in mesas if m.bracket == Mesa.Bracket.GROUP]
    if not groups:
        raise ServiceError(_("The groups have not been drawn."))
    if any(m.bracket != Mesa.Bracket.GROUP for m in mesas):
        raise ServiceError(_("The knockout is already drawn."))
    pending = [m for m in groups if m.status not in DECIDED]
    if pending:
        raise ServiceError(ngettext(
            "%(n)d group mesa has no result yet.", "%(n)d group mesas have no result yet.", len(pending),
        ) % {"n": len(pending)})
    ranked = {group: [row.entrant for row in rows] for group, rows in group_standings(groups).items()}
    try:
        result = bracket.knockout_after_groups(ranked, championship.advance_per_group, championship.third_place)
    except bracket.BracketError as error:
        raise ServiceError(_bracket_message(error)) from None
    with transaction.atomic():
        return _create_mesas(championship, result.specs)


def group_standings(mesas):
    """{group: [bracket.Standing]} from the decided group mesas among ``mesas``."""
    results, entrants = {}, {}
    for mesa in mesas:
        if mesa.group is None:
            continue
        entrants.setdefault(mesa.group, []).extend(p for p in (mesa.pair_a_id, mesa.pair_b_id) if p)
        if mesa.winner_id is None:
            continue
        points = {"A": 0, "B": 0}
        for chica in (mesa.state or {}).get("chica_results", []):
            for side in points:
                points[side] += chica["scores"][side]
        results.setdefault(mesa.group, []).append(bracket.GroupResult(
            a=mesa.pair_a_id, b=mesa.pair_b_id, winner="A" if mesa.winner_id == mesa.pair_a_id else "B",
            chicas_a=mesa.chicas_a, chicas_b=mesa.chicas_b, points_a=points["A"], points_b=points["B"],
        ))
    return {group: bracket.standings(results.get(group, []), members) for group, members in sorted(entrants.items())}


def _bracket_message(error):
    return error.message_en if (get_language() or "es").startswith("en") else error.message


def _create_mesas(championship, specs):
    """One Mesa row per spec, then the routes between them."""
    mesas = Mesa.objects.bulk_create([
        Mesa(championship=championship, bracket=spec.key.bracket, round=spec.key.round,
             position=spec.key.position, group=spec.group, pair_a_id=spec.a, pair_b_id=spec.b)
        for spec in specs
    ])
    by_key = {(m.bracket, m.round, m.position): m for m in mesas}
    for spec, mesa in zip(specs, mesas):
        for name in ("winner_to", "loser_to"):
            route = getattr(spec, name)
            if route is not None:
                setattr(mesa, name, by_key[tuple(route.key)])
                setattr(mesa, name + "_slot", route.slot)
    Mesa.objects.bulk_update(mesas, ["winner_to", "winner_to_slot", "loser_to", "loser_to_slot"], batch_size=500)
    return mesas


# --- tables and jueces ----------------------------------------------------

def jueces():
    """The active jueces: the pool the tables get their referee from."""
    return get_user_model().objects.filter(groups__name=JUECES_GROUP, is_active=True).order_by("pk")


def juez_accounts():
    """The accounts an organiser may manage: jueces who are neither staff nor
    administrators, so that no organiser can set another organiser's password."""
    return (
        get_user_model().objects.filter(groups__name=JUECES_GROUP, is_staff=False, is_superuser=False)
        .order_by("first_name", "last_name", "username")
    )


def make_juez(user):
    """Put ``user`` in the jueces' pool."""
    group, _created = Group.objects.get_or_create(name=JUECES_GROUP)
    user.groups.add(group)


def set_juez_active(juez, active):
    """Let a juez sign in again, or no longer (a juez who leaves the championship).

    Refused while the juez still has a mesa that is not decided: the
    organiser gives it to another juez first, so that no table is left with
    a juez who cannot sign in.
    """
    if not active:
        held = Mesa.objects.filter(juez=juez, status__in=UNDECIDED).order_by("championship", "round", "position")
        if held:
            raise ServiceError(
                _("%(name)s is still the juez of %(mesas)s; give it to another juez first.")
                % {"name": person_name(juez),
                   "mesas": ", ".join(mesa_label(m) for m in held)},
                held,
            )
    juez.is_active = active
    juez.save(update_fields=["is_active"])


def _held(championship):
    held = Mesa.objects.filter(championship=championship, status__in=UNDECIDED)
    tables = set(held.exclude(table_number=None).values_list("table_number", flat=True))
    busy = set(held.exclude(juez=None).values_list("juez_id", flat=True))
    return tables, busy


def assign_tables(championship):
    """Give every playable mesa without a table a free table, and a free juez.

    Playable: both pairs known and not decided. Mesas go out in bracket
    order (round, then winners' before losers', then position); those left
    over wait for a table to free up. Returns how many mesas got a table.
    """
    with transaction.atomic():
        tables, busy = _held(championship)
        free_tables = [t for t in range(1, championship.tables + 1) if t not in tables]
        free_jueces = [j for j in jueces() if j.pk not in busy]
        mesas = (
            Mesa.objects.select_for_update()
            .filter(championship=championship, status__in=(Mesa.Status.WAITING, Mesa.Status.READY),
                    pair_a__isnull=False, pair_b__isnull=False)
            .filter(Q(table_number=None) | Q(juez=None))
        )
        assigned = 0
        for mesa in sorted(mesas, key=play_order):
            fields = []
            if mesa.table_number is None and free_tables:
                mesa.table_number = free_tables.pop(0)
                fields.append("table_number")
                assigned += 1
            if mesa.juez_id is None and mesa.table_number is not None and free_jueces:
                mesa.juez = free_jueces.pop(0)
                fields.append("juez")
            if fields:
                mesa.save(update_fields=fields)
    return assigned


def assign_table(mesa, table_number, juez):
    """Put one mesa on a given table with a given juez (either may be None)."""
    if mesa.status in DECIDED:
        raise ServiceError(_("%(mesa)s is already decided.") % {"mesa": mesa_label(mesa)})
    championship = mesa.championship
    if table_number is not None and not 1 <= table_number <= championship.tables:
        raise ServiceError(_("The table must be between 1 and %(n)d.") % {"n": championship.tables})
    others = Mesa.objects.filter(championship=championship, status__in=UNDECIDED).exclude(pk=mesa.pk)
    if table_number is not None:
        holder = others.filter(table_number=table_number).first()
        if holder:
            raise ServiceError(_("Table %(table)d is held by %(mesa)s.") % {"table": table_number, "mesa": mesa_label(holder)})
    if juez is not None:
        holder = others.filter(juez=juez).first()
        if holder:
            raise ServiceError(_("%(juez)s is the juez of %(mesa)s.") % {"juez": juez, "mesa": mesa_label(holder)})
    mesa.table_number = table_number
    mesa.juez = juez
    mesa.save(update_fields=["table_number", "juez"])


# --- rounds and mesas -----------------------------------------------------

def start_round(championship, bracket, round_number):
    """Make ready every waiting mesa of one round whose two pairs are known."""
    return Mesa.objects.filter(
        championship=championship, bracket=bracket, round=round_number, status=Mesa.Status.WAITING,
        pair_a__isnull=False, pair_b__isnull=False,
    ).update(status=Mesa.Status.READY)


# --- results --------------------------------------------------------------

def record_result(mesa):
    """Write the engine's finished state into the mesa, and advance its pairs.

    Called by the claim log inside its transaction once ``mesa.state`` says
    the mesa is finished (two chicas, or a zapatería: Art. 3g.6–7).
    """
    state = mesa.state or {}
    # The saved row, not the caller's copy, says whether a result is already
    # recorded: the claim log may have copied the engine's state into its copy.
    if Mesa.objects.filter(pk=mesa.pk, status__in=DECIDED).exists():
        raise ServiceError(_("%(mesa)s already has a result.") % {"mesa": mesa_label(mesa)})
    if not has_started(mesa):
        raise ServiceError(_("%(mesa)s has not started; it cannot have a result yet.") % {"mesa": mesa_label(mesa)})
    if not state.get("finished") or state.get("winner") not in ("A", "B"):
        raise ServiceError(_("%(mesa)s is not finished: no pair has won it yet.") % {"mesa": mesa_label(mesa)})
    chicas = state.get("chicas") or {}
    with transaction.atomic():
        _decide(mesa, Mesa.Status.FINISHED, state["winner"], chicas.get("A", 0), chicas.get("B", 0),
                bool(state.get("zapateria")))
        _advance(mesa)


def record_walkover(mesa, winner_side):
    """A no-show: the pair on ``winner_side`` wins the mesa without playing."""
    if mesa.status in DECIDED:
        raise ServiceError(_("%(mesa)s already has a result.") % {"mesa": mesa_label(mesa)})
    if mesa.pair_a_id is None or mesa.pair_b_id is None:
        raise ServiceError(_("%(mesa)s does not know both its pairs yet.") % {"mesa": mesa_label(mesa)})
    if winner_side not in ("A", "B"):
        raise ServiceError(_("The winner of a walkover must be a pair of the mesa."))
    to_win = mesa.ruleset.chicas_to_win
    with transaction.atomic():
        _decide(mesa, Mesa.Status.WALKOVER, winner_side,
                to_win if winner_side == "A" else 0, to_win if winner_side == "B" else 0, False)
        _advance(mesa)


def correct_result(mesa, winner_side, chicas_a, chicas_b, zapateria=False, user=None, override=False):
    """Correct a decided mesa's result.

    Refused, naming the blocking mesas, when a dependent mesa has started,
    unless ``override`` is asked by the championship's Director (Art. 18);
    then the dependents that have not started get the corrected pairs.
    """
    if mesa.status not in DECIDED:
        raise ServiceError(_("Only a decided mesa can be corrected; %(mesa)s has no result.") % {"mesa": mesa_label(mesa)})
    if winner_side not in ("A", "B") or mesa.pair(winner_side) is None:
        raise ServiceError(_("The winner must be a pair of the mesa."))
    to_win = mesa.ruleset.chicas_to_win
    won, lost = (chicas_a, chicas_b) if winner_side == "A" else (chicas_b, chicas_a)
    if not (0 <= lost < won <= to_win):
        raise ServiceError(_("The winner must have more chicas than the loser, and at most %(n)d.") % {"n": to_win})
    dependents = _dependents(mesa)
    blocking = [d for d in dependents if has_started(d)]
    if blocking:
        director = mesa.championship.director_id
        if not (override and user is not None and director is not None and user.pk == director):
            names = ", ".join(mesa_label(d) for d in blocking)
            raise ServiceError(
                ngettext(
                    "The result cannot be corrected: %(mesas)s has already started. Only the Director can override.",
                    "The result cannot be corrected: %(mesas)s have already started. Only the Director can override.",
                    len(blocking),
                ) % {"mesas": names},
                blocking,
            )
    with transaction.atomic():
        _retract(mesa, [d for d in dependents if not has_started(d)])
        _decide(mesa, mesa.status, winner_side, chicas_a, chicas_b, zapateria)
        _advance(mesa, skip={d.pk for d in blocking})


def _decide(mesa, status, winner_side, chicas_a, chicas_b, zapateria):
    mesa.status = status
    mesa.winner = mesa.pair(winner_side)
    mesa.chicas_a, mesa.chicas_b, mesa.zapateria = chicas_a, chicas_b, zapateria
    mesa.finished_at = mesa.finished_at or timezone.now()
    mesa.save(update_fields=["status", "winner", "chicas_a", "chicas_b", "zapateria", "finished_at"])


def _dependents(mesa):
    ids = [pk for pk in (mesa.winner_to_id, mesa.loser_to_id) if pk]
    return list(Mesa.objects.filter(pk__in=ids).order_by("pk"))


def _retract(mesa, dependents):
    """Take this mesa's pairs back out of dependents that have not started."""
    pairs = {mesa.pair_a_id, mesa.pair_b_id} - {None}
    for dependent in dependents:
        fields = [f for f in ("pair_a", "pair_b") if getattr(dependent, f + "_id") in pairs]
        for field in fields:
            setattr(dependent, field, None)
        if fields:
            if dependent.status == Mesa.Status.READY:
                dependent.status = Mesa.Status.WAITING
                fields.append("status")
            dependent.save(update_fields=fields)


def _advance(mesa, skip=()):
    """Send the winner and the loser of a decided mesa to their next mesas."""
    winner = mesa.winner
    loser = mesa.pair_b if winner == mesa.pair_a else mesa.pair_a
    moves = [(mesa.winner_to_id, mesa.winner_to_slot, winner), (mesa.loser_to_id, mesa.loser_to_slot, loser)]
    if mesa.bracket == Mesa.Bracket.GRAND_FINAL and winner == mesa.pair_a:
        # The winners' bracket champion (slot A) won: no reset is needed.
        moves = []
    for target, slot, pair in moves:
        if target is None or target in skip or pair is None:
            continue
        Mesa.objects.filter(pk=target).update(**{"pair_" + slot.lower(): pair})


def void_mesas(mesas):
    """The ids of mesas that will not be played: the reset once the grand
    final's slot A (the winners' bracket champion) has won it."""
    final = next((m for m in mesas if m.bracket == Mesa.Bracket.GRAND_FINAL), None)
    if final is None or final.winner_id is None or final.winner_id != final.pair_a_id:
        return set()
    return {m.pk for m in mesas if m.bracket == Mesa.Bracket.RESET}


def champion(championship, mesas=None):
    """The championship's winner once its last mesa is decided, else None."""
    mesas = list(mesas if mesas is not None else championship.mesas.all())
    by_bracket = {m.bracket: m for m in mesas if m.bracket in (Mesa.Bracket.GRAND_FINAL, Mesa.Bracket.RESET)}
    reset, final = by_bracket.get(Mesa.Bracket.RESET), by_bracket.get(Mesa.Bracket.GRAND_FINAL)
    if reset and reset.winner_id:
        return reset.winner
    if final and final.winner_id and (reset is None or final.winner_id == final.pair_a_id):
        return final.winner
    if final is None:
        winners = [m for m in mesas if m.bracket == Mesa.Bracket.WINNERS]
        last = max(winners, key=lambda m: m.round, default=None)
        if last and last.winner_to_id is None and last.winner_id:
            return last.winner
    return None

