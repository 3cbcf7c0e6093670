"""Small builders for the tournament's tests."""

import datetime
import uuid

from django.contrib.auth.models import Group, User

from refereeing.claimlog import record_claim
from tournament.models import Championship, Pair, Player
from tournament.services import JUECES_GROUP, ORGANISERS_GROUP


def championship(**fields):
    defaults = {"name": "Campeonato de prueba", "start_date": datetime.date(2026, 11, 21),
                "end_date": datetime.date(2026, 11, 22), "tables": 8}
    return Championship.objects.create(**{**defaults, **fields})


def pairs(champ, count):
    made = []
    for n in range(1, count + 1):
        pair = Pair.objects.create(championship=champ, name=f"Pareja {n:04d}", club="Riobamba")
        Player.objects.create(pair=pair, number=1, full_name=f"Jugador {n}A", is_representative=True)
        Player.objects.create(pair=pair, number=2, full_name=f"Jugador {n}B")
        made.append(pair)
    return made


def organiser(username="org"):
    user = User.objects.create_user(username, password="cuarenta", is_staff=True)
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    return user


def jueces(count):
    group = Group.objects.get(name=JUECES_GROUP)
    made = []
    for n in range(1, count + 1):
        user = User.objects.create_user(f"juez{n}", password="cuarenta")
        user.groups.add(group)
        made.append(user)
    return made


def finished_state(winner, chicas_winner=2, chicas_loser=0, zapateria=False):
    """The fields of the engine's finished state that the tournament reads."""
    loser = "B" if winner == "A" else "A"
    return {"finished": True, "winner": winner, "zapateria": zapateria,
            "chicas": {winner: chicas_winner, loser: chicas_loser}, "scores": {"A": 0, "B": 0}}


def start(mesa):
    """Put a ready mesa in play as a juez does: its first claim (a mano)."""
    record_claim(mesa, {"kind": "mano"}, uuid.uuid4(), user=mesa.juez)
    mesa.refresh_from_db()
