"""Acts at the venue, through the project's own domain functions, for the mirror's replication tests.

Run in a child process on the venue's database (``manage.py shell``), as
the venue's app would run them; each prints what the test then looks for
on the mirror (``report``).
"""

import base64
import io
import json
import time
import uuid

from django.contrib.auth.models import User
from django.db.models import Count
from PIL import Image, ImageDraw

from audit.context import acting
from mirror.links import signed
from refereeing.appeals import procedure as appeals
from refereeing.claimlog.log import record_claim
from refereeing.models import Appeal
from refereeing.signatures import sign
from resolutions.register import resolve
from tournament.accounts.accounts import open_account
from tournament.accounts.forms import JuezForm
from tournament.championships.championships import save_championship
from tournament.models import Championship, Mesa, Person, Sede
from tournament.pairs.forms import PairForm
from tournament.pairs.registration import new_link, save_pair
from tournament.ratings import merging
from tournament.results.results import correct_result, record_walkover
from tournament.seating import sedes

DEMO = "Campeonato Nacional de Cuarenta"


def report(**found):
    """What the test looks for, and when the act had committed (the time it takes to reach the mirror starts there)."""
    print(json.dumps(found | {"at": time.time()}), flush=True)


def drawing():
    """A drawn signature, as the tablet sends it."""
    image = Image.new("RGB", (300, 110), "white")
    ImageDraw.Draw(image).line([(20, 70), (80, 30), (140, 80), (200, 35)], fill="#0b1f4a", width=4)
    png = io.BytesIO()
    image.save(png, "PNG")
    return "data:image/png;base64," + base64.b64encode(png.getvalue()).decode()


def _demo():
    championship = Championship.objects.filter(name=DEMO).latest("start_date")  # this year's edition
    return championship, championship.director, User.objects.get(username="organizador")


def _playing(championship):
    """The demo's mesas in play that no appeal holds, in the bracket's order."""
    return list(
        championship.mesas.filter(status=Mesa.Status.IN_PLAY, appeals=None).order_by("bracket", "round", "position")
    )


def appeal_act(step, appeal_id=None):
    """One step of an appeal at a demo mesa in play: ``file`` (against its newest decision), ``admit``, ``rule``."""
    championship, director, _organiser = _demo()
    if step == "file":
        mesa = _playing(championship)[-1]
        decision = appeals.open_decisions(mesa)[0]
        side = "B" if decision.claim.get("pair") == "A" else "A"
        appeal = appeals.file_appeal(
            mesa,
            side,
            decision.seq,
            "La caída se hizo con una carta ya jugada.",
            mesa.pair(side).representative.full_name,
            drawing(),
            uuid.uuid4(),
            by=mesa.juez,
        )
    elif step == "admit":
        appeal = appeals.admit(Appeal.objects.get(pk=appeal_id), by=director)
    else:
        appeal = appeals.rule(
            Appeal.objects.get(pk=appeal_id), True, "Se anula la caída: la carta ya se había jugado.", by=director
        )
    report(appeal=appeal.pk, mesa=appeal.mesa_id, link=signed(appeal.mesa.pair(appeal.pair)))


def rename_sede(name):
    """No page renames a sede (it is named when made): the row is saved as an act saves it, named in the trail."""
    championship, _director, organiser = _demo()
    with acting(organiser):
        sede = championship.sede
        sede.name = name
        sede.save(update_fields=["name"])
    report(sede=sede.pk)


def every_act():
    """One act of each kind, reaching every published table (``mirror.publication``)."""
    championship, director, organiser = _demo()
    claimed, appealed, walked = _playing(championship)[:3]
    # A claim and its void, as the juez's tablet logs them (claim entries, the mesa, its planilla's digests).
    mano = record_claim(claimed, {"kind": "mano"}, uuid.uuid4(), user=claimed.juez).last_seq
    record_claim(claimed, {"kind": "void", "target": mano}, uuid.uuid4(), user=claimed.juez)
    # An appeal filed at the table, admitted and ruled (the mesa suspended and resumed, the decision voided);
    # the demo's own appeal dismissed.
    decision = appeals.open_decisions(appealed)[0]
    side = "B" if decision.claim.get("pair") == "A" else "A"
    filed = appeals.file_appeal(
        appealed, side, decision.seq, "Se jugó fuera de turno.", "Representante", drawing(), uuid.uuid4(), by=None
    )
    appeals.admit(filed, by=director)
    appeals.rule(filed, True, "Se anula la jugada.", by=director, undo=True)
    waiting = Appeal.objects.waiting().get(mesa__championship=championship)
    appeals.dismiss(waiting, "No procede: la caída fue correcta.", by=director)
    # The Director's resolution with its ajuste (resolutions, and an ajuste in the claim log).
    resolution = resolve(
        championship,
        "Una pareja llegó tarde a la mesa.",
        "Se descuentan dos puntos.",
        "Art. 18",
        ajuste=(claimed, "B", -2),
        by=director,
    )
    # A walkover, and a correction of a finished mesa whose next mesa has started (the Director's override).
    record_walkover(walked, "A", by=organiser, reason="La pareja B no se presentó.")
    finished = championship.mesas.filter(status=Mesa.Status.FINISHED).order_by("position").first()
    to_win = finished.ruleset.chicas_to_win
    winner = "A" if finished.winner_id == finished.pair_a_id else "B"
    lost = 1 if min(finished.chicas_a, finished.chicas_b) == 0 else 0
    correct_result(
        finished,
        winner,
        to_win if winner == "A" else lost,
        lost if winner == "A" else to_win,
        by=director,
        override=True,
        reason="La planilla anotó mal las chicas.",
    )
    # The Comité splits a person who played both editions (persons, and the ratings rebuilt from the record).
    comite = User.objects.filter(is_superuser=True).order_by("pk").first()
    person = Person.objects.annotate(n=Count("players")).filter(n__gt=1, merged_into=None).order_by("pk").first()
    merging.split(
        person, [person.players.order_by("pk").first().pk], by=comite, reason="Dos personas del mismo nombre."
    )
    # The planilla of a finished mesa signed by its three (who and when are published, the drawings never).
    for role, name in (("A", "Rosa Guamán"), ("B", "Luis Pilco"), ("juez", "Juez 1")):
        sign(finished, role, name, drawing())
    # A new sede with its tables, the championship's own settings, a pair and its players renamed, the
    # pair's new private link, a new juez's account.
    new_sede = sedes.create_sede("Sede del Espejo", 4, by=organiser)
    save_championship(championship, edition="2026 · final", by=organiser)
    pair = walked.pair_a
    form = PairForm(instance=pair, championship=championship)
    data = {**form.initial, "name": "Los Espejos de Riobamba", "player1_name": "Marlene Yépez Tene"}
    data = {name: value for name, value in data.items() if value is not None}
    form = PairForm(data, instance=pair, championship=championship)
    assert form.is_valid(), form.errors
    save_pair(championship, pair, **form.values(), by=organiser)
    new_link(pair, by=organiser)
    juez = JuezForm(
        {
            "first_name": "Rocío",
            "last_name": "Espejo",
            "username": "juez_espejo",
            "password1": "cuarenta-y-dos",
            "password2": "cuarenta-y-dos",
        }
    )
    assert juez.is_valid(), juez.errors
    juez = open_account(**juez.values(), by=organiser)
    report(
        claimed=claimed.pk,
        appeal=filed.pk,
        dismissed=waiting.pk,
        resolution=resolution.pk,
        walked=walked.pk,
        corrected=finished.pk,
        sede=new_sede.pk,
        championship=championship.pk,
        pair=pair.pk,
        juez=juez.pk,
        sede_name=Sede.objects.get(pk=new_sede.pk).name,
    )
