"""Mesas with a claim log for the planilla's tests.

The log is written as ClaimEntry rows whose decisions follow the engine's
contract (BRIEF: Decision.as_dict). ``Log`` keeps only the bookkeeping the
sheet reads (chica, data, dealer, running scores); the points of each claim
are given by the test, so these tests check the planilla, not the rules.
"""

import uuid
from datetime import date

from django.contrib.auth import get_user_model
from django.utils import timezone

from refereeing.models import ClaimEntry, Signature
from tournament.models import Championship, Mesa, Pair, Player

SEATS = ["A1", "B1", "A2", "B2"]


def signature_png(seed=1):
    """A finger-drawn-looking signature as a PNG data URL, like the tablet's."""
    import base64
    import io
    import math

    from PIL import Image, ImageDraw
    image = Image.new("RGBA", (360, 120), (255, 255, 255, 0))
    draw = ImageDraw.Draw(image)
    points = [(20 + x, 70 - 30 * math.sin(x / (14 + 3 * seed)) * math.cos(x / (41 + seed)))
              for x in range(0, 320, 4)]
    draw.line(points, fill=(20, 30, 90, 255), width=4)
    draw.line([(40, 95), (300, 88)], fill=(20, 30, 90, 255), width=3)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def user(username, **extra):
    return get_user_model().objects.create_user(username=username, password="secret-pass-1", **extra)


def championship(**extra):
    values = dict(name="Campeonato Nacional de Cuarenta", edition="XXIV", venue="Coliseo de Riobamba",
                  start_date=date(2026, 11, 21), end_date=date(2026, 11, 22))
    values.update(extra)
    return Championship.objects.create(**values)


def pair(champ, name, club, players):
    p = Pair.objects.create(championship=champ, name=name, club=club)
    for number, full_name in enumerate(players, start=1):
        Player.objects.create(pair=p, number=number, full_name=full_name, is_representative=number == 1)
    return p


def mesa(champ=None, **extra):
    champ = champ or championship()
    values = dict(
        championship=champ, round=2, position=3, table_number=7,
        pair_a=pair(champ, "Los Ases de Guano", "Guano", ["Juan Pérez", "Luis Andrade"]),
        pair_b=pair(champ, "Reyes de Alausí", "Alausí", ["María Cando", "Rosa Guamán"]),
        juez=user(f"juez{champ.pk}", first_name="Carlos", last_name="Yépez"),
        inspector=user(f"inspector{champ.pk}", first_name="Ana", last_name="Ortiz"),
        status=Mesa.Status.IN_PLAY, started_at=timezone.now(),
    )
    values.update(extra)
    return Mesa.objects.create(**values)


class Log:
    """Appends claims to a mesa's log with contract-shaped decisions."""

    def __init__(self, mesa):
        self.mesa = mesa
        self.seq = 0
        self.chica, self.data = 1, 1
        self.dealer = 0
        self.scores = {"A": 0, "B": 0}
        self.chicas = []
        self.entries = []

    def add(self, kind, points=None, accepted=True, detail=None, message="", article="", **claim):
        self.seq += 1
        points = {"A": 0, "B": 0, **(points or {})} if accepted else {"A": 0, "B": 0}
        for side in "AB":
            self.scores[side] += points[side]
        decision = {
            "seq": self.seq, "kind": kind, "accepted": accepted, "points": points,
            "code": None if accepted else "refused", "message": message,
            "message_en": message and f"EN {message}", "article": article, "voided_by": None,
            "chica": self.chica, "data": self.data, "mano": 1, "dealer": SEATS[self.dealer % 4],
            "scores": dict(self.scores), "detail": detail or {},
        }
        entry = ClaimEntry.objects.create(
            mesa=self.mesa, seq=self.seq, client_id=uuid.uuid4(), kind=kind,
            claim={"kind": kind, **claim}, decision=decision, accepted=accepted,
        )
        self.entries.append(entry)
        winner = next((s for s in "AB" if self.scores[s] >= 40), None)
        if winner:
            loser = self.scores["B" if winner == "A" else "A"]
            self.chicas.append({"chica": self.chica, "winner": winner, "scores": dict(self.scores),
                                "zapatero": ("B" if winner == "A" else "A") if loser < 10 else None})
            self.chica += 1
            self.data = 1
            self.scores = {"A": 0, "B": 0}
            self.dealer += 1
        elif kind in ("conteo", "mal_repartidas") and accepted:
            self.data += 1
            self.dealer += 1
        return entry

    def conteo(self, a, b, points):
        detail = {"cards": {"A": a, "B": b}, "table": 40 - a - b, "conteo": {"A": 0, "B": 0, **points},
                  "falla": {"A": 0, "B": 0}, "dos_por_darlas": None}
        return self.add("conteo", points, detail=detail, cards={"A": a, "B": b})

    def data_round(self, side, caidas=1, cards=24):
        """One data: ``side`` makes caídas and a limpia and wins the conteo."""
        other = "B" if side == "A" else "A"
        self.add("mano")
        for _ in range(caidas):
            self.add("caida", {side: 2}, pair=side, player=1)
        self.add("limpia", {other: 2}, pair=other, player=2)
        won = 6 + (cards - 20) + (cards % 2)
        return self.conteo(**{"a": cards, "b": 40 - cards - 1} if side == "A" else {"a": 40 - cards - 1, "b": cards},
                           points={side: won})

    def finish(self, status=Mesa.Status.FINISHED):
        won = {s: sum(1 for c in self.chicas if c["winner"] == s) for s in "AB"}
        winner_side = "A" if won["A"] > won["B"] else "B"
        self.mesa.state = {"chica_results": self.chicas, "finished": True, "winner": winner_side,
                           "zapateria": any(c["zapatero"] for c in self.chicas[:1]) and len(self.chicas) == 1}
        self.mesa.status = status
        self.mesa.chicas_a, self.mesa.chicas_b = won["A"], won["B"]
        self.mesa.winner = self.mesa.pair(winner_side)
        self.mesa.zapateria = self.mesa.state["zapateria"]
        self.mesa.finished_at = timezone.now()
        self.mesa.save()

    def snapshot(self):
        """The state while in play: chica results so far."""
        self.mesa.state = {"chica_results": self.chicas, "finished": False}
        self.mesa.save()


def sign(mesa, role, name):
    seed = {"A": 1, "B": 2, "juez": 3}[role]
    return Signature.objects.create(mesa=mesa, role=role, name=name, image=signature_png(seed))


def short_mesa():
    """A finished mesa of two quick chicas, signed by all three."""
    m = mesa()
    log = Log(m)
    log.add("ronda", {"A": 2}, pair="A", player=1)
    log.add("caida", {"A": 2}, pair="A", player=2)
    log.add("caida", accepted=False, pair="B", player=1, message="La caída ya caducó", article="Art. 6")
    log.add("limpia", {"B": 2}, pair="B", player=1)
    log.add("caida", {"A": 2}, pair="A", player=1)
    log.add("void", {"A": -2}, target=5)
    log.conteo(26, 12, {"A": 14})
    log.add("mal_repartidas", {"A": 10})
    log.add("juego_y_veo", {"B": 2, "A": -2}, pair="B", upheld=True, against=2)
    log.conteo(10, 30, {"B": 16})
    log.add("caida", {"B": 2}, pair="B", player=2)
    log.add("doble_ronda", {"B": 4}, pair="B", player=1)
    log.conteo(30, 10, {"A": 16})
    log.conteo(22, 18, {"A": 8})
    log.conteo(10, 30, {"B": 16})
    log.conteo(28, 12, {"A": 16})
    log.conteo(26, 14, {"A": 14})
    log.conteo(24, 16, {"A": 10})
    for side in "AB":
        sign(m, side, m.pair(side).representative.full_name)
    sign(m, "juez", "Carlos Yépez")
    log.finish()
    return m, log


def zapateria_mesa():
    """A mesa ended by zapatería in its first chica (Art. 12): one page."""
    m = mesa()
    log = Log(m)
    log.add("mano")
    log.add("ronda", {"A": 2}, pair="A", player=2)
    log.add("caida", {"A": 2}, pair="A", player=1)
    log.add("limpia", {"B": 2}, pair="B", player=1)
    log.conteo(25, 14, {"A": 12})
    log.add("caida", {"A": 2}, pair="A", player=2)
    log.add("pedir_mal", {"B": -2}, pair="B")
    log.conteo(27, 13, {"A": 16})
    log.add("caida_limpia", {"A": 2}, pair="A", player=1)
    log.conteo(24, 16, {"A": 10})
    for side in "AB":
        sign(m, side, m.pair(side).representative.full_name)
    sign(m, "juez", "Carlos Yépez")
    log.finish()
    return m, log


def long_mesa():
    """A finished mesa of three long chicas (for the two-page sheet)."""
    m = mesa()
    log = Log(m)
    for chica_winner in "ABA":
        other = "B" if chica_winner == "A" else "A"
        start = log.chica
        while log.chica == start:
            log.data_round(other, caidas=1, cards=21)
            if log.chica != start:
                break
            log.data_round(chica_winner, caidas=2, cards=22)
    sign(m, "A", "Juan Pérez")
    log.finish()
    return m, log
