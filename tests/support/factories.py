"""Small builders for the tournament's tests, and mesas played to the end."""

import datetime
import uuid

from django.contrib.auth.models import Group, Permission, User
from django.utils import timezone

from refereeing.claimlog.log import record_claim
from tournament.accounts import accounts
from tournament.draws import draws
from tournament.models import Championship, Mesa, Pair, Player
from tournament.results import results
from tournament.seating import seating, sedes


def sede(tables=8, name=None):
    """A sede of its own (a name no other has) with ``tables`` physical tables."""
    return sedes.create_sede(name or f"Sede {uuid.uuid4().hex[:8]}", tables, by=None)


def championship(tables=8, **fields):
    """A championship at a sede of its own with ``tables`` tables, unless ``sede`` is given; played from today to
    tomorrow unless its dates are given (a Director reaches it only on its days, ``tournament.access``)."""
    today = timezone.localdate()
    defaults = {
        "name": "Campeonato de prueba",
        "start_date": today,
        "end_date": today + datetime.timedelta(days=1),
    }
    if "sede" not in fields:
        fields["sede"] = sede(tables)
    return Championship.objects.create(**{**defaults, **fields})


def pairs(champ, count, present=True):
    """``count`` pairs of two players; ``present``: checked in, as the draw needs them (else expected)."""
    made = []
    for n in range(1, count + 1):
        pair = Pair.objects.create(
            championship=champ, name=f"Pareja {n:04d}", club="Riobamba", arrival="present" if present else "expected"
        )
        Player.objects.create(pair=pair, number=1, full_name=f"Jugador {n}A", is_representative=True)
        Player.objects.create(pair=pair, number=2, full_name=f"Jugador {n}B")
        made.append(pair)
    return made


def group(name):
    """The group as the migration makes it; a transactional test elsewhere in
    the suite may have flushed it away."""
    made, _ = Group.objects.get_or_create(name=name)
    if name == accounts.ORGANISERS_GROUP:
        made.permissions.add(*Permission.objects.filter(content_type__app_label="tournament"))
    return made


def organiser(username="org"):
    user = User.objects.create_user(username, password="cuarenta", is_staff=True)
    user.groups.add(group(accounts.ORGANISERS_GROUP))
    return user


def director(username="directora"):
    """A Director and nothing else: in the Directors' group, neither staff nor an organiser nor a juez."""
    user = User.objects.create_user(username, password="cuarenta")
    user.groups.add(group(accounts.DIRECTORS_GROUP))
    return user


def comite(username="comite"):
    """The Comité's administrator: a superuser, in no group (the policy's ``comite``)."""
    return User.objects.create_superuser(username, password="cuarenta")


def jueces(count):
    group_ = group(accounts.JUECES_GROUP)
    made = []
    for n in range(1, count + 1):
        user = User.objects.create_user(f"juez{n}", password="cuarenta")
        user.groups.add(group_)
        accounts.mark_available(user, True, by=None)
        made.append(user)
    return made


def finished_state(winner, chicas_winner=2, chicas_loser=0, zapateria=False):
    """The fields of the engine's finished state that the tournament reads."""
    loser = "B" if winner == "A" else "A"
    return {
        "finished": True,
        "winner": winner,
        "zapateria": zapateria,
        "chicas": {winner: chicas_winner, loser: chicas_loser},
        "scores": {"A": 0, "B": 0},
    }


def start(mesa):
    """Put a ready mesa in play as a juez does: its first claim (a mano)."""
    record_claim(mesa, {"kind": "mano"}, uuid.uuid4(), user=mesa.juez)
    mesa.refresh_from_db()


def play(mesa, winner="A", chicas=(2, 1), zapateria=False):
    """Take a playable mesa through ready, in play, finished (by zapatería: one chica)."""
    mesa.refresh_from_db()
    if mesa.status == Mesa.Status.WAITING:
        seating.start_round(mesa.championship, mesa.bracket, mesa.round, by=None)
        mesa.refresh_from_db()
    if mesa.table_number is None:
        seating.assign_tables(mesa.championship, by=None)
        mesa.refresh_from_db()
    start(mesa)
    mesa.state = finished_state(winner, *((1, 0) if zapateria else chicas), zapateria=zapateria)
    mesa.save(update_fields=["state"])
    results.record_result(mesa)


def playable(champ):
    return list(
        champ.mesas.filter(status__in=Mesa.UNDECIDED, pair_a__isnull=False, pair_b__isnull=False).order_by(
            "round", "bracket", "position"
        )
    )


def play_to_the_end(champ, pick=lambda mesa: "A"):
    while True:
        champ.refresh_from_db(fields=["champion"])
        if champ.champion:
            return champ.champion
        mesas = playable(champ)
        assert mesas, "the bracket got stuck without a champion"
        for mesa in mesas:
            play(mesa, pick(mesa))


def mesa_in_play(name="Campeonato de prueba"):
    """A championship of four pairs, its first round at its tables and started, its first mesa in play (a mano)."""
    champ = championship(name=name)
    pairs(champ, 4)
    jueces(2)
    draws.draw_bracket(champ, seed=1, by=None)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    mesa = champ.mesas.filter(bracket="W", round=1).order_by("position").first()
    start(mesa)
    return mesa


def dependent_in_play(count=16, seed=5):
    """A double elimination of ``count`` pairs: W R1-1 and W R1-2 finished (slot A won), W R2-1,
    which their results reach, in play; a correction of either is blocked."""
    champ = championship()
    pairs(champ, count)
    jueces(4)
    draws.draw_bracket(champ, seed=seed, by=None)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    for position in (1, 2):
        mesa = champ.mesas.get(bracket="W", round=1, position=position)
        start(mesa)
        mesa.state = finished_state("A")
        results.record_result(mesa)
    seating.start_round(champ, "W", 2, by=None)
    seating.assign_tables(champ, by=None)
    start(champ.mesas.get(bracket="W", round=2, position=1))
    return champ
