"""Mesas played through the real claim log, for the planilla's tests.

Every claim goes through ``claimlog.record_claim`` and the engine, and every
signature through ``signatures.sign``: the sheet is checked against what a
juez's tablet would really have produced.
"""

import base64
import io
import math
import uuid
from datetime import date

from django.contrib.auth import get_user_model
from PIL import Image, ImageDraw

from refereeing import signatures
from refereeing.claimlog.log import mesa_replay, record_claim
from tournament.models import Championship, Mesa, Pair, Player, Sede
from tournament.seating import sedes


def user(username, **extra):
    # No password: hashing one costs a second; the tests use force_login.
    return get_user_model().objects.create_user(username=username, password=None, **extra)


def championship(**extra):
    values = dict(
        name="Campeonato Nacional de Cuarenta",
        edition="XXIV",
        start_date=date(2026, 11, 21),
        end_date=date(2026, 11, 22),
    )
    values.update(extra)
    if "sede" not in values:
        values["sede"] = Sede.objects.filter(name="Coliseo de Riobamba").first() or sedes.create_sede(
            "Coliseo de Riobamba", 8, by=None
        )
    return Championship.objects.create(**values)


def pair(champ, name, club, players):
    p = Pair.objects.create(championship=champ, name=name, club=club)
    for number, full_name in enumerate(players, start=1):
        Player.objects.create(pair=p, number=number, full_name=full_name, is_representative=number == 1)
    return p


def mesa(champ=None, position=3, **extra):
    """A mesa ready to play at table 7, with its juez and inspector."""
    champ = champ or championship()
    tag = f"{champ.pk}-{position}"
    values = dict(
        championship=champ,
        round=2,
        position=position,
        table_number=position + 4,
        pair_a=pair(
            champ,
            f"Los Ases de Guano {tag}" if position != 3 else "Los Ases de Guano",
            "Guano",
            ["Juan Pérez", "Luis Andrade"],
        ),
        pair_b=pair(
            champ,
            f"Reyes de Alausí {tag}" if position != 3 else "Reyes de Alausí",
            "Alausí",
            ["María Cando", "Rosa Guamán"],
        ),
        juez=user(f"juez{tag}", first_name="Carlos", last_name="Yépez"),
        inspector=user(f"inspector{tag}", first_name="Ana", last_name="Ortiz"),
        status=Mesa.Status.READY,
    )
    values.update(extra)
    return Mesa.objects.create(**values)


class Log:
    """Logs claims at a mesa as its juez would."""

    def __init__(self, mesa):
        self.mesa = mesa

    def __call__(self, kind, **fields):
        answer = record_claim(self.mesa, {"kind": kind, **fields}, uuid.uuid4(), user=self.mesa.juez)
        self.mesa.refresh_from_db()
        return answer.entry

    def data(self, winner, cards, plays=()):
        """One data of two manos: ``plays`` in the first, then the conteo
        with ``cards`` taken by ``winner`` (the other pair takes the rest)."""
        self("mano")
        for kind, side in plays:
            self(kind, pair=side, player=1)
        self("mano")
        other = "B" if winner == "A" else "A"
        return self("conteo", cards={winner: cards, other: 40 - cards})

    @property
    def replayed(self):
        return mesa_replay(self.mesa).as_dict()


def signature_png(seed=1):
    """A finger-drawn-looking signature as a PNG data URL, like the tablet's."""
    image = Image.new("RGBA", (360, 120), (255, 255, 255, 0))
    draw = ImageDraw.Draw(image)
    points = [(20 + x, 60 - 30 * math.sin(x / (14 + 3 * seed)) * math.cos(x / (41 + seed))) for x in range(0, 320, 4)]
    draw.line(points, fill=(20, 30, 90, 255), width=4)
    draw.line([(40, 95), (300, 88)], fill=(20, 30, 90, 255), width=3)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def sign_all(m, roles=("A", "B", "juez")):
    for seed, role in enumerate(roles, start=1):
        name = m.juez.get_full_name() if role == "juez" else m.pair(role).representative.full_name
        signatures.sign(m, role, name, signature_png(seed))


def short_mesa(m=None):
    """A mesa won 2-0, with a refused claim, a void, juego y veo and a
    misdeal in its first chica; signed by all three."""
    m = m or mesa()
    log = Log(m)
    log("mano")
    log("ronda", pair="A", player=1)  # 2
    log("caida", pair="A", player=2)  # 3
    log("limpia", pair="B", player=1)  # 4
    log("caida", pair="B", player=1)  # 5, voided below
    log("void", target=5)  # 6
    log("mano")
    log("caida", pair="A", player=1)  # 8
    log("conteo", cards={"A": 26, "B": 14})  # 9: A +12
    log("pedir_mal", pair="A")  # 10: refused, after its data's conteo (Art. 11)
    log("mano")
    log("mal_repartidas")  # 12: +10 to the pair that did not deal
    log("mano")
    log("juego_y_veo", pair="A", upheld=False)  # 14: -2 to A
    log("doble_ronda", pair="B", player=2)  # 15
    log("mano")
    log("conteo", cards={"A": 12, "B": 28})  # B +16
    log.data("A", 30)
    log.data("A", 30)
    log.data("A", 24, plays=[("caida", "B")])
    while m.status != Mesa.Status.FINISHED:
        log.data("A", 30, plays=[("caida", "B"), ("limpia", "B")])
    assert m.status == Mesa.Status.FINISHED, m.state
    sign_all(m)
    return m, log


def zapateria_mesa():
    """A mesa ended by zapatería in its first chica (Art. 12): one page."""
    m = mesa()
    log = Log(m)
    log.data("A", 26, plays=[("ronda", "A"), ("caida", "A"), ("limpia", "B")])
    log.data("A", 28, plays=[("caida", "A"), ("caida_limpia", "A")])
    log.data("A", 25, plays=[("caida", "A")])
    assert m.status == Mesa.Status.FINISHED and m.zapateria, m.state
    sign_all(m)
    return m, log


def long_mesa(m=None):
    """Three long chicas (won by A, B, A) for the two-page sheet."""
    m = m or mesa()
    log = Log(m)
    for winner in "ABA":
        loser = "B" if winner == "A" else "A"
        chica = m.state.get("chica", 1)
        while m.state.get("chica", 1) == chica and m.status != Mesa.Status.FINISHED:
            log.data(loser, 21, plays=[("caida", winner), ("limpia", loser)])
            if m.state.get("chica") != chica:
                break
            log.data(winner, 22, plays=[("caida", winner), ("caida", loser), ("limpia", winner)])
    assert m.status == Mesa.Status.FINISHED, m.state
    sign_all(m, roles=("A",))
    return m, log
