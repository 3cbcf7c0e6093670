"""A championship in full, for the tests that read every page of it: its sede and hall plan, its Director, pairs
with their players and club, jueces, a mesa in play with claims, a mesa finished, an appeal ruled and one waiting, a
resolution. Each stored text goes through ``text``, so a test can put markup in all of them at once."""

import uuid
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils import timezone

from mirror import links
from refereeing.appeals import procedure as appeals
from refereeing.claimlog.log import record_claim
from refereeing.planilla import verification
from resolutions import register
from tests.support import factories
from tests.support.claims import CAIDA_A, MANO, SIGNED
from tournament.accounts import accounts
from tournament.draws import draws
from tournament.models import Championship, Mesa, Pair, Player
from tournament.seating import seating, sedes


@dataclass
class World:
    championship: Championship
    director: User
    organiser: User
    juez: User  # the juez of ``mesa``
    other_juez: User  # the juez of another mesa
    mesa: Mesa  # in play, at its table, an appeal ruled and one waiting
    finished: Mesa
    pair: Pair
    appeal: object
    waiting: object
    resolution: object

    @property
    def table(self):
        return self.championship.sede.tables.get(number=self.mesa.table_number)

    def route_values(self, job):
        """Each kind of a route's parameter, filled from this world (``job``: a print job's id)."""
        return {
            "championship": self.championship.pk,
            "mesa": self.mesa.pk,
            "appeal": self.appeal.pk,
            "pair": self.pair.pk,
            "table": self.table.pk,
            "juez": self.juez.pk,
            "token": self.pair.token,
            "signed": links.signed(self.pair),
            "bracket": "W",
            "round": 1,
            "job": job,
            "code": verification.verification_code(self.finished),
            "slug": "director",
            # The world asks no question of identity: the persons' question page answers 404.
            "doubt": 0,
        }


def person(username, first, last, group, text):
    user = User.objects.create_user(username, password=None, first_name=text(first), last_name=text(last))
    user.groups.add(factories.group(group))
    return user


def build(text=lambda words: words, prefix="", day=None, sede=None, director=None):
    """The world, its every stored text ``text(words)``; ``prefix`` tells apart the usernames of two worlds.
    Played on ``day`` (today), at ``sede`` (a sede of its own), directed by ``director`` (a Director of its own)."""
    day = day or timezone.localdate()
    sede = sede or sedes.create_sede(text(f"{prefix}Sala Norte"), 8, text("Mesas junto a la ventana"), by=None)
    director = director or person(f"{prefix}directora", "Ana", "Pérez", accounts.DIRECTORS_GROUP, text)
    organiser = factories.organiser(f"{prefix}organizador")
    jueces = [person(f"{prefix}juez{n}", f"Rosa{n}", "Guamán", accounts.JUECES_GROUP, text) for n in (1, 2, 3, 4)]
    for juez in jueces:
        accounts.mark_available(juez, True, by=None, day=day)
    championship = Championship.objects.create(
        name=text(f"{prefix}Copa Chimborazo"),
        edition=text("2026"),
        sede=sede,
        start_date=day,
        end_date=day,
        director=director,
    )
    for n, words in enumerate(("Los Ases", "Las Sotas", "Los Reyes", "Los Sietes"), start=1):
        pair = Pair.objects.create(
            championship=championship,
            name=text(words),
            club=text("Club Riobamba"),
            seed=n,
            arrival=Pair.Arrival.PRESENT,
        )
        Player.objects.create(pair=pair, number=1, full_name=text(f"Jugador {n}A"), is_representative=True)
        Player.objects.create(pair=pair, number=2, full_name=text(f"Jugador {n}B"))
    draws.draw_bracket(championship, seed=1, by=None)
    seating.assign_tables(championship, by=None)
    seating.start_round(championship, "W", 1, by=None)
    first, second = championship.mesas.filter(bracket="W", round=1).order_by("position")
    factories.play(second)
    for claim in (MANO, CAIDA_A):
        record_claim(first, claim, uuid.uuid4(), user=first.juez)
    first.refresh_from_db()
    appeal = appeals.file_appeal(
        first, "B", 2, text("La caída no fue limpia"), text("Jugador 2A"), SIGNED, uuid.uuid4(), by=first.juez
    )
    appeals.dismiss(appeal, text("La caída fue limpia"), by=director)
    waiting = appeals.file_appeal(
        first, "A", 2, text("Otra objeción"), text("Jugador 1A"), SIGNED, uuid.uuid4(), by=first.juez
    )
    resolution = register.resolve(
        championship, text("Se apagó la luz"), text("Se repite la mano"), text("Art. 18"), [first], by=director
    )
    first.refresh_from_db()
    second.refresh_from_db()
    return World(
        championship=championship,
        director=director,
        organiser=organiser,
        juez=first.juez,
        other_juez=second.juez or next(j for j in jueces if j != first.juez),
        mesa=first,
        finished=second,
        pair=first.pair_a,
        appeal=appeal,
        waiting=waiting,
        resolution=resolution,
    )
