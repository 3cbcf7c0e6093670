"""No back door (#22.1): the admin shows the championship's data and changes
none of it, and the models refuse, whoever saves, what must never happen: a
mesa moved to another championship or deleted, a result written around the
claim log, the bracket's shape changed after the draw, the appeal window
(Art. 17) changed once play started. The Comité's emergency path is a
command that goes through the result functions, with a reason, audited.
"""

import io
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from audit.models import AuditEntry
from refereeing.claimlog.log import record_claim
from tests.support.factories import championship, dependent_in_play, organiser, pairs
from tests.support.rows import force
from tournament.draws import draws
from tournament.errors import ActionRefused
from tournament.models import Championship, Frozen, Mesa, Pair
from tournament.results import results

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def org():
    user = organiser()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


@pytest.fixture
def bracket():
    """Eight pairs in double elimination; W R1-1 and W R1-2 finished (A won), W R2-1 in play."""
    return dependent_in_play(8, seed=3)


def mesa_of(champ, bracket_, round_, position):
    return Mesa.objects.get(championship=champ, bracket=bracket_, round=round_, position=position)


def changed_by_admin(client, model, pk, data):
    """The organiser's POST of an admin change form: its status code."""
    return client.post(f"/admin/tournament/{model}/{pk}/change/", data).status_code


@pytest.mark.slow
def test_the_admin_shows_organisers_the_championship_s_data_and_changes_none(org, bracket):
    mesa = mesa_of(bracket, "W", 1, 1)
    pair = mesa.pair_a
    for url in (
        "/admin/tournament/mesa/",
        f"/admin/tournament/mesa/{mesa.pk}/change/",
        f"/admin/tournament/championship/{bracket.pk}/change/",
        f"/admin/tournament/pair/{pair.pk}/change/",
    ):
        page = org.get(url)
        assert page.status_code == 200, url
        assert 'name="_save"' not in page.content.decode()
    for model in ("mesa", "championship", "pair", "player"):
        assert org.get(f"/admin/tournament/{model}/add/").status_code == 403
    assert org.post(f"/admin/tournament/pair/{pair.pk}/change/", {"name": "Otro nombre"}).status_code == 403
    pair.refresh_from_db()
    assert pair.name != "Otro nombre"


@pytest.mark.slow
def test_a_finished_mesa_s_winner_changes_neither_in_the_admin_nor_by_any_save(org, bracket):
    """Repro: the result form refuses (a dependent mesa is in play), the admin saved it without a reason."""
    first = mesa_of(bracket, "W", 1, 1)
    form = org.post(
        reverse("tournament:mesa_result", args=[bracket.pk, first.pk]),
        {"winner": "B", "chicas_a": 0, "chicas_b": 2},
    )
    assert "cannot be corrected" in form.content.decode()
    assert changed_by_admin(org, "mesa", first.pk, {"winner": first.pair_b_id, "status": "finished"}) == 403
    first.winner = first.pair_b
    with pytest.raises(Frozen, match="written by its claim log, a walkover or a correction"):
        first.save()
    first.refresh_from_db()
    assert first.winner == first.pair_a
    assert first.chicas_a == 2


@pytest.mark.slow
def test_a_mesa_in_play_is_not_finished_around_its_claim_log(org, bracket):
    """Repro: set to finished with a winner in the admin, the juez's next claim got 409."""
    playing = mesa_of(bracket, "W", 2, 1)
    assert changed_by_admin(org, "mesa", playing.pk, {"status": "finished", "winner": playing.pair_a_id}) == 403
    playing.status, playing.winner = Mesa.Status.FINISHED, playing.pair_a
    with pytest.raises(Frozen):
        playing.save()
    playing.chicas_a = 2
    with pytest.raises(Frozen):
        playing.save(update_fields=["chicas_a"])
    playing = Mesa.objects.get(pk=playing.pk)
    assert playing.status == Mesa.Status.IN_PLAY and playing.winner is None
    answer = record_claim(playing, {"kind": "caida", "pair": "A", "player": 1}, uuid.uuid4(), user=playing.juez)
    assert answer.entry.seq == 2 and answer.entry.accepted


@pytest.mark.slow
def test_a_mesa_stays_in_its_championship_and_is_never_deleted_alone(org, bracket, client):
    """Repro: a waiting mesa moved to another championship broke the bracket, standings and report
    of both (KeyError in advancement.py); deleting waiting mesas removed bracket slots."""
    other = championship(name="Otro campeonato")
    waiting = bracket.mesas.filter(status=Mesa.Status.WAITING).order_by("pk").first()
    assert changed_by_admin(org, "mesa", waiting.pk, {"championship": other.pk}) == 403
    waiting.championship = other
    with pytest.raises(Frozen, match="stays in the championship"):
        waiting.save()
    with pytest.raises(Frozen, match="stays in the championship"):
        Mesa(**{**_fields(waiting), "championship_id": other.pk}).save()
    with pytest.raises(IntegrityError), transaction.atomic():  # a bulk update too: the database's trigger
        force(Mesa.objects.filter(pk=waiting.pk), championship=other)
    count = bracket.mesas.count()
    assert org.post(f"/admin/tournament/mesa/{waiting.pk}/delete/", {"post": "yes"}).status_code == 403
    bulk = org.post(
        "/admin/tournament/mesa/", {"action": "delete_selected", "_selected_action": [waiting.pk], "post": "yes"}
    )
    assert bulk.status_code in (200, 302, 403)
    with pytest.raises(Frozen, match="goes only with its whole championship"):
        Mesa.objects.get(pk=waiting.pk).delete()
    assert bracket.mesas.count() == count and Mesa.objects.get(pk=waiting.pk).championship_id == bracket.pk
    for champ in (bracket, other):
        for name in ("tournament:bracket", "tournament:standings", "report:championship"):
            assert org.get(reverse(name, args=[champ.pk])).status_code == 200, (name, champ)


def test_no_queryset_deletes_or_rewrites_what_a_mesa_refuses(bracket):
    """Repro (#36): ``Mesa.delete()`` raised, but ``Mesa.objects.filter(...).delete()`` passed it by, and a
    bulk ``update`` rewrote a result or a started mesa's pairs past ``Mesa.save``."""
    played = mesa_of(bracket, "W", 1, 1)
    waiting = bracket.mesas.filter(status=Mesa.Status.WAITING).order_by("pk").first()
    count = bracket.mesas.count()
    for rows in (Mesa.objects.filter(pk=waiting.pk), bracket.mesas.all(), Mesa.objects.all()):
        with pytest.raises(Frozen, match="goes only with its whole championship"):
            rows.delete()
    for fields in ({"winner": played.pair_b}, {"chicas_a": 0}, {"pair_a": None}, {"status": Mesa.Status.WAITING}):
        with pytest.raises(Frozen, match="never in bulk"):
            Mesa.objects.filter(pk=played.pk).update(**fields)
    assert bracket.mesas.count() == count
    played.refresh_from_db()
    assert (played.status, played.winner_id) == (Mesa.Status.FINISHED, played.pair_a_id)
    # What is no guard's goes in bulk as before; the named path removes only mesas that have not started.
    assert Mesa.objects.filter(pk=played.pk).update(seated_at=None) == 1
    with pytest.raises(Frozen, match="goes only with its whole championship"):
        Mesa.objects.filter(pk__in=[played.pk, waiting.pk]).remove_unstarted()
    assert bracket.mesas.count() == count


def _fields(mesa):
    return {f.attname: getattr(mesa, f.attname) for f in Mesa._meta.concrete_fields}


@pytest.mark.slow
def test_a_started_mesa_keeps_its_pairs(bracket):
    playing = mesa_of(bracket, "W", 2, 1)
    playing.pair_a, playing.pair_b = playing.pair_b, playing.pair_a
    with pytest.raises(Frozen, match="keeps its pairs"):
        playing.save()


def test_the_bracket_s_shape_cannot_change_after_the_draw_whoever_saves(org):
    """Repro: the bracket format could be changed in the admin after the draw."""
    champ = championship()
    pairs(champ, 8)
    champ.third_place = True
    champ.save()  # before the draw: free
    draws.draw_bracket(champ, seed=1, by=None)
    assert changed_by_admin(org, "championship", champ.pk, {"bracket_format": "single"}) == 403
    for name, value in (("bracket_format", "single"), ("third_place", False), ("group_size", 3)):
        fresh = Championship.objects.get(pk=champ.pk)
        setattr(fresh, name, value)
        with pytest.raises(Frozen, match="The bracket is drawn"):
            fresh.save()
    champ = Championship.objects.get(pk=champ.pk)
    assert (champ.bracket_format, champ.third_place, champ.group_size) == ("double", True, 4)
    champ.name = "Copa del Chimborazo"
    champ.save()  # what is not the bracket's shape still changes
    assert Championship.objects.get(pk=champ.pk).name == "Copa del Chimborazo"


def edit_data(champ, **changes):
    return {
        "name": champ.name,
        "start_date": "2026-11-21",
        "end_date": "2026-11-22",
        "ruleset_profile": champ.ruleset_profile,
        "players_per_pair": champ.players_per_pair,
        "bracket_format": champ.bracket_format,
        "group_size": champ.group_size,
        "advance_per_group": champ.advance_per_group,
        "sede": champ.sede_id,
        "appeal_window_minutes": champ.appeal_window_minutes,
        **changes,
    }


def test_the_appeal_window_cannot_change_once_play_started_art_17(org, bracket):
    """Repro: the appeal window was changed mid-championship in the championship form."""
    response = org.post(reverse("tournament:edit", args=[bracket.pk]), edit_data(bracket, appeal_window_minutes=30))
    assert response.status_code == 200
    assert "The appeal window cannot change any more" in response.content.decode()
    bracket.appeal_window_minutes = 30
    with pytest.raises(Frozen, match="appeal window"):
        bracket.save()
    assert Championship.objects.get(pk=bracket.pk).appeal_window_minutes == 10


def test_the_appeal_window_still_changes_before_play(org):
    champ = championship()
    pairs(champ, 4)
    draws.draw_bracket(champ, seed=1, by=None)
    response = org.post(reverse("tournament:edit", args=[champ.pk]), edit_data(champ, appeal_window_minutes=20))
    assert response.status_code == 302
    assert Championship.objects.get(pk=champ.pk).appeal_window_minutes == 20


# --- the Comité's emergency path ----------------------------------------------


@pytest.fixture
def comite():
    return get_user_model().objects.create_superuser("comite", password=None)


def emergency(*args):
    out = io.StringIO()
    call_command("emergency_result", *args, stdout=out)
    return out.getvalue()


def test_a_superuser_corrects_a_blocked_result_with_a_reason_and_it_is_audited(bracket, comite):
    first = mesa_of(bracket, "W", 1, 1)
    later = mesa_of(bracket, "W", 2, 1)
    held = (later.pair_a_id, later.pair_b_id)
    emergency(str(first.pk), "--by", "comite", "--winner", "B", "--chicas", "1", "2", "--reason", "Planilla mal leída")
    first.refresh_from_db()
    assert first.winner == first.pair_b and (first.chicas_a, first.chicas_b) == (1, 2)
    later.refresh_from_db()
    assert (later.pair_a_id, later.pair_b_id) == held  # started: it keeps its pairs (Art. 18)
    [entry] = AuditEntry.objects.filter(mesa_id=first.pk, actor=comite)
    assert entry.changes["winner"] == [str(first.pair_a), str(first.pair_b)]
    assert entry.reason == "Emergency result by the Comité: Planilla mal leída"


def test_the_emergency_path_is_the_comite_s_alone_and_gives_a_reason(bracket, comite):
    first = mesa_of(bracket, "W", 1, 1)
    organiser("org2")
    before = AuditEntry.objects.count()
    for args, message in (
        (["--by", "org2", "--reason", "x"], "Only an active superuser"),
        (["--by", "comite", "--reason", "   "], None),
        (["--by", "comite", "--reason", "x\x00"], None),
    ):
        with pytest.raises(CommandError, match=message):
            emergency(str(first.pk), "--winner", "B", "--chicas", "0", "2", *args)
    with pytest.raises(CommandError, match="already has a result"):
        emergency(str(first.pk), "--by", "comite", "--walkover", "--winner", "B", "--reason", "No se presentó")
    with pytest.raises(CommandError, match="no mesa"):
        emergency("999999", "--by", "comite", "--winner", "B", "--chicas", "0", "2", "--reason", "x")
    assert mesa_of(bracket, "W", 1, 1).winner == first.pair_a
    assert AuditEntry.objects.count() == before


@pytest.mark.slow
def test_the_emergency_walkover_of_an_undecided_mesa(bracket, comite):
    ready = bracket.mesas.filter(status=Mesa.Status.READY).order_by("pk").first()
    emergency(str(ready.pk), "--by", "comite", "--walkover", "--winner", "A", "--reason", "Pareja B ausente")
    ready.refresh_from_db()
    assert ready.status == Mesa.Status.WALKOVER and ready.winner == ready.pair_a
    assert AuditEntry.objects.filter(mesa_id=ready.pk, reason__endswith="Pareja B ausente").exists()


def test_a_director_s_override_still_needs_the_director(bracket, comite):
    """The emergency flag is the command's: through the page a superuser is no Director."""
    first = mesa_of(bracket, "W", 1, 1)
    with pytest.raises(ActionRefused, match="Only the Director can override"):
        results.correct_result(first, "B", 0, 2, by=comite, override=True, reason="Urgente")


def test_the_database_refuses_what_the_rules_forbid():
    champ = championship()
    first, second = pairs(champ, 2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Pair.objects.create(championship=champ, name=first.name)
    with pytest.raises(IntegrityError), transaction.atomic():
        Mesa.objects.create(championship=champ, round=1, position=1, pair_a=first, pair_b=first)
    with pytest.raises(IntegrityError), transaction.atomic():
        Mesa.objects.create(championship=champ, round=1, position=1, pair_a=first, pair_b=second, status="finished")
    with pytest.raises(IntegrityError), transaction.atomic():
        Mesa.objects.create(championship=champ, round=1, position=1, pair_a=first, status="ready")
    Mesa.objects.create(
        championship=champ, round=1, position=1, pair_a=first, pair_b=second, status="in_play", table_number=1
    )
    third, fourth = Pair.objects.create(championship=champ, name="C"), Pair.objects.create(championship=champ, name="D")
    with pytest.raises(IntegrityError), transaction.atomic():
        Mesa.objects.create(
            championship=champ, round=1, position=2, pair_a=third, pair_b=fourth, status="in_play", table_number=1
        )


def test_a_mesa_refuses_a_pair_of_another_championship():
    from django.core.exceptions import ValidationError

    home, away = championship(name="Uno"), championship(name="Dos")
    ours, theirs = pairs(home, 1)[0], Pair.objects.create(championship=away, name="Visitante")
    mesa = Mesa(championship=home, round=1, position=1, pair_a=ours, pair_b=theirs)
    with pytest.raises(ValidationError) as error:
        mesa.full_clean()
    assert "pair_b" in error.value.message_dict
