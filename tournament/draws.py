"""Drawing a championship's mesas, and ranking its round-robin groups.

Terms
-----
present
    A pair checked in at the venue. The draw takes the present pairs only;
    the organiser confirms the absent ones first (the draw page lists them).
    A pair absent from a later mesa loses it by walkover.
draw
    Turning the present pairs into the bracket's mesas, in one
    transaction, with the bracket engine (``tournament.bracket.draw``). The
    random seed of the draw is kept on the championship, so the same pairs
    and seed give the same bracket again. Pairs with a bye go straight into
    their second mesa. The championship's row is locked first: of two draws
    at once, the second finds the bracket drawn and is refused.
knockout after groups
    Once every group mesa is decided, the single elimination of the best
    ``advance_per_group`` pairs of each group, ranked by the engine.
"""

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from live import notify

from . import bracket
from .errors import ActionRefused
from .language import speak
from .locking import reload_locked
from .models import Mesa


def absent_pairs(championship):
    """The registered pairs not checked in: the draw leaves them out."""
    return championship.pairs.filter(checked_in=False).order_by(F("seed").asc(nulls_last=True), "name")


def draw_bracket(championship, seed=None):
    """Create every mesa of the championship's bracket from its present pairs.

    The bracket engine (``tournament.bracket``) places seeded pairs by their
    seed and shuffles the rest with ``seed``, the random draw's seed (a new
    one when None), which is kept on the championship. Pairs with a bye go
    straight into their second mesa. Refused when the bracket is already
    drawn or the engine refuses the draw.
    """
    with transaction.atomic():
        reload_locked(championship)
        pairs = list(championship.pairs.filter(checked_in=True).order_by("seed", "name"))
        if championship.mesas.exists():
            raise ActionRefused(_("The bracket is already drawn."))
        if len(pairs) < 2:
            raise ActionRefused(_("At least two pairs must be present (checked in) to draw the bracket."))
        try:
            result = bracket.draw(
                [p.pk for p in pairs],
                championship.bracket_format,
                seeds={p.pk: p.seed for p in pairs if p.seed is not None},
                random_seed=bracket.new_random_seed() if seed is None else seed,
                third_place=championship.third_place,
                group_size=championship.group_size,
            )
        except bracket.BracketError as error:
            raise ActionRefused(speak(error)) from None
        championship.draw_seed = result.random_seed
        championship.save(update_fields=["draw_seed"])
        return _create_mesas(championship, result.specs)


def draw_knockout(championship):
    """After round-robin groups, draw the single elimination of the best
    ``advance_per_group`` pairs of each group (ranked by the bracket engine:
    wins, chica difference, point difference, head-to-head)."""
    with transaction.atomic():
        reload_locked(championship)
        mesas = list(championship.mesas.all())
        groups = [m for m in mesas if m.bracket == Mesa.Bracket.GROUP]
        if not groups:
            raise ActionRefused(_("The groups have not been drawn."))
        if any(m.bracket != Mesa.Bracket.GROUP for m in mesas):
            raise ActionRefused(_("The knockout is already drawn."))
        pending = [m for m in groups if m.status not in Mesa.DECIDED]
        if pending:
            raise ActionRefused(
                ngettext(
                    "%(n)d group mesa has no result yet.",
                    "%(n)d group mesas have no result yet.",
                    len(pending),
                )
                % {"n": len(pending)}
            )
        ranked = {group: [row.entrant for row in rows] for group, rows in group_standings(groups).items()}
        try:
            result = bracket.knockout_after_groups(ranked, championship.advance_per_group, championship.third_place)
        except bracket.BracketError as error:
            raise ActionRefused(speak(error)) from None
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
        results.setdefault(mesa.group, []).append(
            bracket.GroupResult(
                a=mesa.pair_a_id,
                b=mesa.pair_b_id,
                winner="A" if mesa.winner_id == mesa.pair_a_id else "B",
                chicas_a=mesa.chicas_a,
                chicas_b=mesa.chicas_b,
                points_a=points["A"],
                points_b=points["B"],
            )
        )
    return {group: bracket.standings(results.get(group, []), members) for group, members in sorted(entrants.items())}


def _create_mesas(championship, specs):
    """One Mesa row per spec, then the routes between them."""
    mesas = Mesa.objects.bulk_create(
        [
            Mesa(
                championship=championship,
                bracket=spec.key.bracket,
                round=spec.key.round,
                position=spec.key.position,
                group=spec.group,
                pair_a_id=spec.a,
                pair_b_id=spec.b,
            )
            for spec in specs
        ]
    )
    by_key = {(m.bracket, m.round, m.position): m for m in mesas}
    for spec, mesa in zip(specs, mesas):
        for name in ("winner_to", "loser_to"):
            route = getattr(spec, name)
            if route is not None:
                setattr(mesa, name, by_key[tuple(route.key)])
                setattr(mesa, name + "_slot", route.slot)
    Mesa.objects.bulk_update(mesas, ["winner_to", "winner_to_slot", "loser_to", "loser_to_slot"], batch_size=500)
    notify.changed(championship.pk)
    return mesas
