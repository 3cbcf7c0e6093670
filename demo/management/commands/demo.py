"""``manage.py demo``: a realistic championship to look around in.

It makes the accounts (password ``cuarenta``): ``comite`` (the Comité's
administrator, a superuser: makes organisers and Directors),
``organizador`` (organiser, staff), ``director`` (a Director and nothing
else: neither staff nor an organiser; the championship's Director),
``juez1``..``juez16`` (jueces); 32 pairs with Ecuadorian names on the
Riobamba rule set, double elimination on 16 tables; the draw; the first
round of the winners' bracket played to the end and the next round in
play, every claim through the claim log (``refereeing.claimlog``), as a
juez's tablet would send it; and one appeal waiting for the Director
(``refereeing.appeals``). ``--if-empty`` does nothing when a championship
exists (``make run`` uses it).
"""

import base64
import datetime
import io
import math
import random
import uuid

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction
from PIL import Image, ImageDraw

from audit.context import acting
from demo import scripted
from engines import bracket as bracket_engine
from refereeing.appeals import procedure as appeals
from refereeing.claimlog import log as claimlog
from refereeing.models import ClaimEntry
from tournament.accounts import accounts
from tournament.championships import championships
from tournament.draws import draws
from tournament.models import Championship, Mesa, Sede
from tournament.pairs import checkin, pairs_csv
from tournament.ratings import history, seeding
from tournament.seating import seating, sedes

PASSWORD = "cuarenta"
DRAW_SEED = 2026
FIRST_NAMES = [
    "Luis",
    "José",
    "Carlos",
    "Jorge",
    "Segundo",
    "Manuel",
    "Juan",
    "Miguel",
    "Fausto",
    "Patricio",
    "Washington",
    "Galo",
    "Marco",
    "Édgar",
    "Hólger",
    "Wilson",
    "Rosa",
    "María",
    "Carmen",
    "Blanca",
    "Mercedes",
    "Gloria",
    "Fanny",
    "Inés",
    "Lucía",
    "Narcisa",
    "Teresa",
    "Marlene",
    "Pilar",
    "Janeth",
]
SURNAMES = [
    "Guamán",
    "Pilco",
    "Yépez",
    "Tene",
    "Cando",
    "Chicaiza",
    "Paucar",
    "Quishpe",
    "Naranjo",
    "Andrade",
    "Vallejo",
    "Cevallos",
    "Moreno",
    "Zambrano",
    "Villacrés",
    "Bonilla",
    "Lema",
    "Guevara",
    "Orozco",
    "Salazar",
    "Samaniego",
    "Morocho",
    "Hidalgo",
    "Tapia",
    "Arellano",
    "Haro",
    "Chávez",
    "Basantes",
    "Espinoza",
    "Carrillo",
]
PAIR_NAMES = [
    "Los Ases de Riobamba",
    "Sota y Caballo",
    "Los Perros del Chimborazo",
    "Caída y Limpia",
    "Las Reinas de Guano",
    "Los del Barrio La Condamine",
    "Doble Ronda",
    "Los Zapateros",
    "Los Tantos",
    "Los de la Estación",
    "Escalera Real",
    "Los Compadres de Ambato",
    "Las Comadres",
    "Los Chagras",
    "Los Panas de Quito",
    "Los Ilustres de Alausí",
    "Los del Mercado Oriental",
    "La Data",
    "Los Cuarentones",
    "Los de Chambo",
    "Los Runas",
    "Los Guaguas",
    "Los de Latacunga",
    "La Mano Santa",
    "Los Morlacos",
    "Los Lojanos",
    "Los de Penipe",
    "Los Guayacos",
    "Los del Parque Sucre",
    "Los Cholos de Cajabamba",
    "Los de Colta",
    "Los de Guamote",
]
CITIES = ["Riobamba", "Guano", "Ambato", "Quito", "Cuenca", "Guayaquil", "Latacunga", "Alausí", "Chambo", "Loja"]


# Last year's pairs that do not come back this year.
PAST_PAIR_NAMES = [
    "Los Veteranos de Guano",
    "Los del Barrio Santa Rosa",
    "Las Damas de Chambo",
    "Los Taitas",
    "Los de San Andrés",
    "Los Sargentos",
    "Los de Yaruquíes",
    "Los de Calpi",
]
SEDE = "Coliseo Cubierto de Riobamba"


class Command(BaseCommand):
    help = "Create a demo championship: accounts, 32 pairs, the draw, one round played and one in play."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="Do nothing if a championship exists.")

    def handle(self, *args, if_empty=False, **options):
        if if_empty and Championship.objects.exists():
            self.stdout.write("A championship exists; the demo is not created again.")
            return
        rng = random.Random(DRAW_SEED)
        with transaction.atomic():
            # The Comité's administrator is the command's own (as createsuperuser's); the trail names it so.
            # The others are named as made by whoever makes them on their pages: the Comité the organisers'
            # and the Director's, the organiser the jueces'.
            comite = self._user("comite", "Comité Permanente", "manage.py demo", "organiser", superuser=True)
            self.organiser = self._user("organizador", "Organización del Campeonato", comite, "organiser")
            director = self._user("director", "Director del Campeonato", comite, "director")
            jueces = [self._user(f"juez{n}", f"Juez {n}", self.organiser, "juez") for n in range(1, 17)]
            today = datetime.date.today()
            sede = Sede.objects.filter(name=SEDE).first() or sedes.create_sede(SEDE, 16, by=comite)
            pairs = self._pairs_file(rng)
            self._last_year(pairs, sede, director, today)
            championship = championships.save_championship(
                Championship(
                    name="Campeonato Nacional de Cuarenta",
                    edition=str(today.year),
                    sede=sede,
                    start_date=today,
                    end_date=today + datetime.timedelta(days=1),
                    director=director,
                    ruleset_profile="riobamba",
                ),
                by=self.organiser,
            )
            pairs_csv.save(championship, pairs, by=self.organiser)
            checkin.mark_all_present(championship, by=self.organiser)
            # The seeds are last year's results: the organiser accepts the seeds by strength.
            seeding.accept(championship, by=self.organiser)
            draws.draw_bracket(championship, seed=DRAW_SEED, by=self.organiser)
        # The mesas are played one claim at a time, as the tablets would.
        first = self._round(championship, "W", 1)
        for mesa in first:
            self._play(mesa, rng, finish=True)
        for bracket, number in (("W", 2), ("L", 1)):
            for mesa in self._round(championship, bracket, number):
                self._play(mesa, rng, finish=False)
        self._appeal(
            ClaimEntry.objects.filter(
                mesa__championship=championship,
                mesa__status=Mesa.Status.IN_PLAY,
                kind="caida",
                accepted=True,
            )
            .order_by("mesa__table_number", "-seq")
            .first()
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo ready: {championship} with {championship.pairs.count()} pairs, "
                f"{championship.mesas.count()} mesas; log in as organizador / director / juez1..juez16 "
                f"(password {PASSWORD}). Judges: {len(jueces)}."
            )
        )

    def _user(self, username, full_name, by, *roles, superuser=False):
        """The account of ``username`` with ``roles`` (``accounts.give_role``'s, or "juez"), made by ``by``."""
        first, _, last = full_name.partition(" ")
        with transaction.atomic(), acting(by):
            user, _ = User.objects.get_or_create(
                username=username, defaults={"first_name": first, "last_name": last, "is_superuser": superuser}
            )
            user.set_password(PASSWORD)
            user.save()
            for role in roles:
                if role == "juez":
                    accounts.make_juez(user)
                else:
                    accounts.give_role(user, role)
        return user

    def _pairs_file(self, rng):
        """The pairs as the organiser would import them: unseeded (the seeds come from last year's results),
        the first player representing each pair."""
        lines = ["pareja,club,cabeza_de_serie,jugador_1,cedula_1,telefono_1,jugador_2,cedula_2,telefono_2"]
        for name in PAIR_NAMES:
            cells = [name, rng.choice(CITIES), ""]
            for _number in (1, 2):
                cells += [
                    f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAMES)} {rng.choice(SURNAMES)}",
                    f"06{rng.randrange(10**8):08d}",
                    f"09{rng.randrange(10**8):08d}",
                ]
            lines.append(",".join(cells))
        return "\n".join(lines)

    def _last_year(self, pairs, sede, director, today):
        """Last year's edition, brought in from the CSV of its results (``tournament.ratings.history``):
        the first 24 of this year's pairs played it as they are, with no cédula on the paper record, and 8
        pairs of last year's own; one of those has a player named as one of this year's newcomers, of
        another club: the uncertain match this year's import leaves to the desk."""
        rng = random.Random(DRAW_SEED - 1)
        rows = [line.split(",") for line in pairs.splitlines()[1:]]
        entrants = {row[0]: (row[1], [row[3], row[6]]) for row in rows[:24]}
        for name in PAST_PAIR_NAMES:
            players = [f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAMES)} {rng.choice(SURNAMES)}" for _ in (1, 2)]
            entrants[name] = (rng.choice(CITIES), players)
        namesake, club, last = rows[24][3], rows[24][1], PAST_PAIR_NAMES[-1]
        entrants[last] = (next(c for c in CITIES if c != club), [entrants[last][1][0], namesake])
        strength = {name: rng.gauss(0, 1.5) for name in entrants}
        history.save(
            Championship(
                name="Campeonato Nacional de Cuarenta",
                edition=str(today.year - 1),
                sede=sede,
                start_date=today - datetime.timedelta(days=364),
                end_date=today - datetime.timedelta(days=363),
                director=director,
                ruleset_profile="riobamba",
            ),
            self._results_file(entrants, strength, rng),
            by=self.organiser,
        )

    def _results_file(self, entrants, strength, rng):
        """A double elimination of ``entrants`` played out by the bracket engine, the stronger pair winning
        more often, as the CSV of its results: round by round, each pair's club and players on its first row."""
        specs = bracket_engine.draw(list(entrants), bracket_engine.DOUBLE, random_seed=DRAW_SEED - 1).specs
        results, seen, round_ = {}, set(), 0
        lines = [
            "ronda,pareja_a,club_a,jugador_a1,jugador_a2,pareja_b,club_b,jugador_b1,jugador_b2,ganadora,chicas_a,chicas_b,zapateria"
        ]
        while (progress := bracket_engine.advance(specs, results)).champion is None:
            round_ += 1
            for key in progress.ready:
                a, b = progress.occupants[key]
                cells = [str(round_)]
                for name in (a, b):
                    club, players = entrants[name]
                    cells += [name, club, *players] if name not in seen else [name, "", "", ""]
                    seen.add(name)
                won = "A" if rng.random() < 1 / (1 + math.exp(strength[b] - strength[a])) else "B"
                zapateria = rng.random() < 0.1
                chicas = (1, 0) if zapateria else (2, rng.choice((0, 1)))
                cells += [won, *map(str, chicas if won == "A" else chicas[::-1]), "sí" if zapateria else ""]
                lines.append(",".join(cells))
                results[key] = won
        return "\n".join(lines)

    def _round(self, championship, bracket, number):
        seating.start_round(championship, bracket, number, by=self.organiser)
        seating.assign_tables(championship, by=self.organiser)
        return list(
            championship.mesas.filter(bracket=bracket, round=number, status=Mesa.Status.READY)
            .exclude(table_number=None)
            .select_related("juez")
            .order_by("position")
        )

    def _appeal(self, caida):
        """The other pair appeals an accepted caída, signed by its representative."""
        mesa, side = caida.mesa, "B" if caida.claim["pair"] == "A" else "A"
        image = Image.new("RGB", (300, 110), "white")
        ImageDraw.Draw(image).line([(20, 70), (80, 30), (140, 80), (200, 35), (270, 60)], fill="#0b1f4a", width=4)
        png = io.BytesIO()
        image.save(png, "PNG")
        appeals.file_appeal(
            mesa,
            side,
            caida.seq,
            "La caída se hizo con una carta que ya se había jugado.",
            mesa.pair(side).representative.full_name,
            "data:image/png;base64," + base64.b64encode(png.getvalue()).decode(),
            uuid.uuid4(),
            by=mesa.juez,
        )

    def _play(self, mesa, rng, finish):
        """Log a scripted mesa; stop at the end, or a few datas in."""
        stop = None if finish else rng.randint(4, 14)
        for count, claim in enumerate(scripted.claims(rng.choice("AB"), rng.random()), start=1):
            # What the claim sets off on other records (the result, the next mesa) names the juez, as the log does.
            with acting(mesa.juez):
                answer = claimlog.record_claim(mesa, claim, uuid.uuid4(), user=mesa.juez)
            if answer.state["finished"] or count == stop:
                return
