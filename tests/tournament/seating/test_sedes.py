"""Sedes: their tables are shared by the championships at the same sede on the same days, never across sedes;
the jueces are one pool, marked available today; assignment says why a mesa got nothing (issue #23)."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from audit.models import AuditEntry as LogEntry
from tests.support.factories import championship, finished_state, jueces, organiser, pairs, sede, start
from tournament import errors
from tournament.accounts import accounts
from tournament.draws import draws
from tournament.models import Championship, JuezDay, Mesa, Sede
from tournament.results import results
from tournament.seating import seating, sedes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def drawn(champ, count):
    pairs(champ, count)
    draws.draw_bracket(champ, seed=1, by=None)
    return champ


@pytest.mark.slow
def test_two_championships_at_two_sedes_at_once_share_no_table_and_no_juez():
    riobamba = drawn(championship(name="Campeonato Nacional", tables=16), 32)
    chimborazo = drawn(championship(name="Copa Chimborazo", tables=8), 16)
    judges = jueces(20)
    first = seating.assign_tables(riobamba, by=None)
    second = seating.assign_tables(chimborazo, by=None)
    # Each sede's own tables 1..n: the other championship holds none of them.
    assert [a.table for a in first] == list(range(1, 17))
    assert [a.table for a in second] == list(range(1, 9))
    # One pool of jueces: the four left over go to the second championship, never one juez twice.
    assert [a.juez for a in first] == judges[:16]
    assert [a.juez for a in second] == judges[16:] + [None] * 4
    # No two mesas share a table of one sede.
    for champ in (riobamba, chimborazo):
        numbers = list(champ.mesas.exclude(table_number=None).values_list("table_number", flat=True))
        assert len(numbers) == len(set(numbers))


@pytest.mark.slow
def test_two_championships_at_one_sede_share_its_tables():
    first = drawn(championship(name="Campeonato Nacional", tables=6), 8)
    second = drawn(championship(name="Copa Chimborazo", sede=first.sede), 8)
    jueces(8)
    assert [a.table for a in seating.assign_tables(first, by=None)] == [1, 2, 3, 4]
    assert [a.table for a in seating.assign_tables(second, by=None)] == [5, 6]
    assert seating.free_tables(second) == []


@pytest.mark.slow
def test_a_championship_at_the_same_sede_on_other_days_holds_none_of_its_tables():
    first = drawn(championship(name="Campeonato Nacional", tables=4), 8)
    later = drawn(
        championship(
            name="Copa Chimborazo",
            sede=first.sede,
            start_date=first.end_date + datetime.timedelta(days=1),
            end_date=first.end_date + datetime.timedelta(days=2),
        ),
        8,
    )
    jueces(8)
    seating.assign_tables(first, by=None)
    assert [a.table for a in seating.assign_tables(later, by=None)] == [1, 2, 3, 4]


def test_assignment_says_which_championship_holds_the_sedes_tables():
    # Issue #23: the demo held tables 1-16 and every juez; the message did not say why nothing was assigned.
    demo = drawn(championship(name="Campeonato Nacional", tables=4), 8)
    copa = drawn(championship(name="Copa Chimborazo", sede=demo.sede), 8)
    jueces(4)
    seating.assign_tables(demo, by=None)
    assert seating.assign_tables(copa, by=None) == []
    assert seating.why_unseated(copa) == [
        f"4 mesas have no table: no table of {demo.sede} is free (4 tables; Campeonato Nacional holds 4 (1, 2, 3, 4)).",
        "4 mesas have no juez: the 4 jueces available today are all busy.",
    ]


def test_assignment_says_when_no_juez_is_marked_available_today():
    champ = drawn(championship(tables=8), 4)
    judges = jueces(2)
    JuezDay.objects.filter(juez__in=judges).delete()
    assigned = seating.assign_tables(champ, by=None)
    assert [(a.table, a.juez) for a in assigned] == [(1, None), (2, None)]
    assert seating.why_unseated(champ) == ["2 mesas have no juez: no juez is marked available today."]
    # Yesterday's mark is not today's.
    accounts.mark_available(judges[0], True, by=None, day=timezone.localdate() - datetime.timedelta(days=1))
    assert seating.free_jueces() == []
    accounts.mark_available(judges[0], True, by=None)
    assert [a.juez for a in seating.assign_tables(champ, by=None)] == [judges[0]]
    assert seating.why_unseated(champ) == ["1 mesa has no juez: the 1 jueces available today are all busy."]


def test_marking_a_juez_available_is_an_audited_intent_not_a_toggle():
    [juez] = jueces(1)
    boss = organiser()
    assert accounts.mark_available(juez, True, by=boss) is False  # the factory marked the juez already
    assert accounts.mark_available(juez, False, by=boss) is True
    assert accounts.mark_available(juez, False, by=boss) is False
    assert not JuezDay.objects.filter(juez=juez).exists()
    entry = LogEntry.objects.filter(act="juez_unavailable").get()
    assert entry.actor == boss and entry.object_pk == str(juez.pk)


def test_a_sede_is_made_with_its_numbered_tables_each_with_its_pin():
    boss = organiser()
    made = sedes.create_sede("Coliseo Cubierto de Riobamba", 12, "Tables 1-6 by the stage", by=boss)
    assert list(made.tables.values_list("number", flat=True)) == list(range(1, 13))
    assert all(len(t.pin) == 6 and t.pin.isdigit() for t in made.tables.all())
    assert LogEntry.objects.filter(act="sede_created", actor=boss).count() == 1
    with pytest.raises(errors.ActionRefused, match="already a sede named"):
        sedes.create_sede("coliseo cubierto de riobamba", 4, by=boss)
    with pytest.raises(errors.ActionRefused, match="from 1 to 500 tables"):
        sedes.create_sede("Otra", 0, by=boss)


def test_a_table_outside_the_sede_is_refused_by_hand():
    champ = drawn(championship(tables=4), 4)
    mesa = champ.mesas.get(bracket="W", round=1, position=1)
    with pytest.raises(errors.ActionRefused, match="has no table 5"):
        seating.assign_table(mesa, 5, None, by=None)


@pytest.mark.slow
def test_the_change_form_lists_only_the_free_tables_of_the_sede():
    first = drawn(championship(name="Campeonato Nacional", tables=5), 8)
    second = drawn(championship(name="Copa Chimborazo", sede=first.sede), 4)
    elsewhere = drawn(championship(name="Copa de Quito", tables=5), 4)
    jueces(3)
    seating.assign_tables(first, by=None)  # tables 1-4
    seating.assign_tables(elsewhere, by=None)  # its own sede's 1-2
    mesa = second.mesas.get(bracket="W", round=1, position=1)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser())
    page = client.get(reverse("tournament:mesa_table", args=[second.pk, mesa.pk])).content.decode()
    select = page[page.index('name="table_number"') : page.index("</select>", page.index('name="table_number"'))]
    assert re.findall(r'<option value="(\d*)"', select) == ["", "5"]
    # A table the form did not offer is refused, and nothing is saved.
    answer = client.post(reverse("tournament:mesa_table", args=[second.pk, mesa.pk]), {"table_number": "2"})
    assert answer.status_code == 200
    mesa.refresh_from_db()
    assert mesa.table_number is None
    client.post(reverse("tournament:mesa_table", args=[second.pk, mesa.pk]), {"table_number": "5"})
    mesa.refresh_from_db()
    assert mesa.table_number == 5


@pytest.mark.slow
def test_the_tables_page_says_why_and_marks_jueces_available(django_user_model):
    demo = drawn(championship(name="Campeonato Nacional", tables=2), 4)
    copa = drawn(championship(name="Copa Chimborazo", sede=demo.sede), 4)
    [juez] = jueces(1)
    seating.assign_tables(demo, by=None)
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(organiser())
    page = client.post(reverse("tournament:tables", args=[copa.pk]), follow=True).content.decode()
    assert "Campeonato Nacional tiene 2 (1, 2)" in page
    client.post(reverse("tournament:juez_available", args=[copa.pk, juez.pk]), {"available": "0"})
    client.post(reverse("tournament:juez_available", args=[copa.pk, juez.pk]), {"available": "0"})
    assert not JuezDay.objects.filter(juez=juez).exists()
    page = client.get(reverse("tournament:tables", args=[copa.pk])).content.decode()
    assert 'aria-pressed="false" data-testid="available"' in page and "arbitrando en otro campeonato" in page


def test_a_championship_with_seated_mesas_stays_at_its_sede():
    from tournament.championships.forms import ChampionshipForm

    champ = drawn(championship(tables=4), 4)
    jueces(1)
    seating.assign_tables(champ, by=None)
    other = sede(4)
    form = ChampionshipForm(
        {
            "name": champ.name,
            "sede": other.pk,
            "start_date": champ.start_date,
            "end_date": champ.end_date,
            "ruleset_profile": champ.ruleset_profile,
            "players_per_pair": 2,
            "bracket_format": champ.bracket_format,
            "group_size": 4,
            "advance_per_group": 0,
            "appeal_window_minutes": 10,
        },
        instance=champ,
    )
    assert not form.is_valid()
    assert "sede" in form.errors
    assert Mesa.objects.filter(championship=champ).exclude(table_number=None).exists()


def test_the_sedes_page_makes_a_sede_once_and_refuses_a_sede_without_tables():
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(organiser())
    url = reverse("tournament:sedes")
    for tables in ("0", "501", "x"):
        refused = client.post(url, {"name": "Coliseo", "tables": tables})
        assert refused.status_code == 200 and "is-invalid" in refused.content.decode()
    made = client.post(url, {"name": "Coliseo", "tables": "12", "plan": "Mesas 1-6 junto al escenario"}, follow=True)
    assert "Sede Coliseo guardada con sus mesas físicas." in made.content.decode()
    again = client.post(url, {"name": "coliseo", "tables": "12"})
    assert "Ya hay una sede llamada coliseo." in again.content.decode()
    assert Sede.objects.get().tables.count() == 12


@pytest.mark.slow
def test_three_championships_played_at_once_share_tables_only_within_their_sede_and_never_a_juez(
    django_capture_on_commit_callbacks,
):
    """Two championships at one sede and a third at another, seating themselves, played to their champions
    at once, a mesa of each in turn: no juez and no table of a sede is ever held twice, each plays only at
    its own sede's tables, and the two at the same sede hold its tables side by side."""
    jueces(6)
    fields = {"auto_seating": True, "start_mode": Championship.Start.FIRST_CLAIM}
    nacional = championship(name="Campeonato Nacional", tables=4, **fields)
    guano = championship(name="Copa Guano", sede=nacional.sede, **fields)
    chimborazo = championship(name="Copa Chimborazo", tables=3, **fields)
    played = [drawn(c, 8) for c in (nacional, guano, chimborazo)]
    tables = {nacional.sede_id: 4, chimborazo.sede_id: 3}
    side_by_side = False
    for _turn in range(200):
        for champ in played:
            champ.refresh_from_db(fields=["champion"])
        if all(c.champion for c in played):
            break
        for champ in played:
            seated = champ.mesas.filter(status__in=Mesa.UNDECIDED).exclude(table_number=None).exclude(juez=None)
            mesa = seated.order_by("round", "position").first()
            if mesa is None:
                # Waiting for the places another championship's result frees: no desk act seats it.
                continue
            start(mesa)
            mesa.state = finished_state("A" if mesa.position % 2 else "B")
            mesa.save(update_fields=["state"])
            with django_capture_on_commit_callbacks(execute=True):
                results.record_result(mesa)
            held = list(seating.holding())
            juez_ids = [m.juez_id for m in held if m.juez_id]
            places = [(m.championship.sede_id, m.table_number) for m in held if m.table_number]
            assert len(juez_ids) == len(set(juez_ids)) and len(places) == len(set(places))
            assert all(1 <= number <= tables[sede] for sede, number in places)
            at_hall = {m.championship_id for m in held if m.table_number and m.championship.sede_id == nacional.sede_id}
            side_by_side = side_by_side or at_hall == {nacional.pk, guano.pk}
    else:
        pytest.fail("the three championships never all ended")
    assert side_by_side
    assert set(chimborazo.mesas.exclude(table_number=None).values_list("table_number", flat=True)) <= {1, 2, 3}
