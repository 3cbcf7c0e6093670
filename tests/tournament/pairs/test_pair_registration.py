"""Registering pairs (issue #23 point 7, #25): one rule for the form and the import; the import takes
``representante`` as people type it, keeps its valid lines, and offers its template."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tests.support.factories import championship, organiser
from tests.support.threads import run_at_once
from tournament.errors import ActionRefused
from tournament.models import Pair, Player
from tournament.pairs import pairs_csv, registration
from tournament.pairs.forms import PairForm

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

HEADER = "pareja,jugador_1,cedula_1,telefono_1,jugador_2,cedula_2,telefono_2,representante,club,cabeza_de_serie\n"


def registered(champ):
    pair = Pair.objects.create(championship=champ, name="Los Ases", seed=3)
    Player.objects.create(pair=pair, number=1, full_name="Luis Guamán", id_number="0601234567", is_representative=True)
    Player.objects.create(pair=pair, number=2, full_name="Rosa Pilco")
    return pair


@pytest.mark.parametrize(
    ("form_data", "row", "reason"),
    [
        ({"name": "LOS  ÁSES"}, "LOS  ÁSES,Ana,,,Bea,,,,,", 'pair "LOS ÁSES" is already registered'),
        ({"seed": "3"}, "Otra,Ana,,,Bea,,,,,3", "seed 3 is already taken"),
        (
            {"player2_id": "0601234567"},
            "Otra,Ana,,,Bea,0601234567,,,,",
            'ID number 0601234567 already plays in the pair "Los Ases"',
        ),
        ({"player1_id": "0999", "player2_id": "0999"}, "Otra,Ana,0999,,Bea,0999,,,,", "both players have the same ID"),
    ],
)
def test_the_form_and_the_import_refuse_the_same_pairs_for_the_same_reason(form_data, row, reason):
    champ = championship()
    registered(champ)
    data = {"name": "Otra", "player1_name": "Ana", "player2_name": "Bea", "representative": "1", **form_data}
    form = PairForm(data, championship=champ)
    assert not form.is_valid()
    shown = [str(e) for errors in form.errors.values() for e in errors]
    assert any(e.startswith(reason[0].upper() + reason[1:]) for e in shown), shown
    preview = pairs_csv.check(champ, HEADER + row + "\n")
    assert len(preview.errors) == 1 and preview.errors[0][0] == 2 and reason in preview.errors[0][1]
    assert champ.pairs.count() == 1


def test_the_form_editing_a_pair_does_not_refuse_its_own_name_seed_and_id():
    champ = championship()
    pair = registered(champ)
    data = {
        "name": "los ases",
        "seed": "3",
        "player1_name": "Luis Guamán",
        "player1_id": "0601234567",
        "player2_name": "Rosa Pilco",
        "representative": "2",
    }
    form = PairForm(data, instance=pair, championship=champ)
    assert form.is_valid(), form.errors
    registration.save_pair(champ, pair, **form.values(), by=None)
    pair.refresh_from_db()
    assert pair.name == "los ases" and pair.representative.full_name == "Rosa Pilco"


@pytest.mark.parametrize(
    ("typed", "number"),
    [("", 1), ("1", 1), ("2", 2), ("luis guaman", 1), ("  ROSA   PILCO ", 2), ("Rosa Pilco", 2), ("Luís Guamán", 1)],
)
def test_representante_is_taken_as_a_number_or_either_players_name(typed, number):
    champ = championship()
    preview = pairs_csv.check(champ, HEADER + f"Los Ases,Luis Guamán,,,Rosa Pilco,,,{typed},,\n")
    assert preview.ok, preview.errors
    assert preview.rows[0].representative == number


@pytest.mark.parametrize(
    ("row", "players_per_pair"),
    [
        ("Los Ases,Luis Guamán,,,Rosa Pilco,,,Pedro,,", 2),  # neither player
        ("Los Ases,Ana Pérez,,,Ana Perez,,,ana pérez,,", 2),  # both players: it names no one
        ("Los Ases,Luis Guamán,,,Rosa Pilco,,,3,,", 2),
        ("Solo,Luis Guamán,,,,,,2,,", 1),
    ],
)
def test_a_representante_that_names_no_one_is_that_lines_error(row, players_per_pair):
    champ = championship(players_per_pair=players_per_pair)
    preview = pairs_csv.check(champ, HEADER + row + "\n")
    assert len(preview.errors) == 1 and preview.errors[0][0] == 2
    assert "representante must be 1, 2 or the name of one of the players" in preview.errors[0][1]


def test_the_issues_file_of_sixteen_pairs_with_names_as_representante_imports_whole(org_client):
    champ = championship()
    rows = "".join(
        f"Pareja {n},Jugador {n} Uno,,,Jugadora {n} Dos,,,{'jugadora ' + str(n) + ' dos' if n % 2 else f'Jugador {n} Uno'},,\n"
        for n in range(1, 17)
    )
    url = reverse("tournament:pairs_import", args=[champ.pk])
    preview = org_client.post(url, {"file": SimpleUploadedFile("p.csv", (HEADER + rows).encode())}).context["preview"]
    assert preview.ok and len(preview.rows) == 16
    assert org_client.post(url, {"text": preview.text, "confirm": "1"}).status_code == 302
    representatives = dict(Player.objects.filter(is_representative=True).values_list("pair__name", "number"))
    assert representatives == {f"Pareja {n}": 2 if n % 2 else 1 for n in range(1, 17)}


def test_the_valid_lines_are_imported_and_the_bad_ones_listed_to_fix(org_client):
    champ = championship()
    content = HEADER + "Uno,Ana,,,Bea,,,,,\nDos,Carla,,,,,,,,\nTres,Eva,,,Flor,,,flor,,\n"
    url = reverse("tournament:pairs_import", args=[champ.pk])
    page = org_client.post(url, {"file": SimpleUploadedFile("p.csv", content.encode())}).content.decode()
    assert "1 line must be fixed; nothing was saved." in page and "Import 2 pairs" in page
    assert "The line with errors is left out." in page and not champ.pairs.exists()
    page = org_client.post(url, {"text": content, "confirm": "1"}).content.decode()
    assert sorted(champ.pairs.values_list("name", flat=True)) == ["Tres", "Uno"]
    assert "2 pairs imported." in page and "1 line was left out: fix it and import it again." in page
    assert "Line 3: jugador_2 is empty" in page and 'name="confirm"' not in page
    # The same file again: the imported lines are now registered, nothing is saved twice.
    again = org_client.post(url, {"text": content, "confirm": "1"}).content.decode()
    assert "nothing was saved" in again and champ.pairs.count() == 2


@pytest.mark.parametrize(
    ("style", "start", "header"),
    [
        ("excel", b"\xef\xbb\xbf", HEADER.strip().replace(",", ";") + "\r\n"),
        ("plain", b"", HEADER),
    ],
)
def test_the_template_is_the_header_row_in_either_style(org_client, style, start, header):
    champ = championship()
    response = org_client.get(reverse("tournament:pairs_template", args=[champ.pk]), {"formato": style})
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    assert response.content == start + header.encode()
    # Filled in, as a spreadsheet keeps its separator, it is imported.
    separator = ";" if style == "excel" else ","
    filled = response.content + separator.join(["Los Ases", "Luis", "", "", "Rosa", "", "", "rosa"]).encode()
    filled += (separator * 2 + "\r\n").encode()
    preview = pairs_csv.read(champ, filled)
    assert preview.ok, preview.errors
    assert preview.rows[0].representative == 2
    page = org_client.get(reverse("tournament:pairs_import", args=[champ.pk])).content.decode()
    assert reverse("tournament:pairs_template", args=[champ.pk]) + f"?formato={style}" in page


def test_a_template_of_an_unknown_style_is_a_400(org_client):
    champ = championship()
    response = org_client.get(reverse("tournament:pairs_template", args=[champ.pk]), {"formato": "xlsx"})
    assert response.status_code == 400


def pair_values(name, seed, *id_numbers):
    return {
        "name": name,
        "seed": seed,
        "players": [registration.PlayerValues(f"{name} {n}", number) for n, number in enumerate(id_numbers, 1)],
    }


def test_the_act_asks_the_register_itself_and_saves_nothing_when_it_refuses():
    """The form's check is the desk's convenience; the act is the rule: called with a taken cédula, it refuses."""
    champ = championship()
    registered(champ)
    with pytest.raises(ActionRefused, match='ID number 0601234567 already plays in the pair "Los Ases"') as refused:
        registration.save_pair(champ, **pair_values("Otra", None, "0999", "0601234567"), by=organiser())
    assert refused.value.status == 409 and refused.value.code == "action_refused"
    assert champ.pairs.count() == 1 and not Player.objects.filter(full_name__startswith="Otra").exists()


@pytest.mark.django_db(transaction=True)
def test_two_pairs_saved_at_once_with_one_cedula_leave_one_pair():
    """Repro (#36): the pair form checked the cédula rule and then saved, with no lock: two desks saving at
    once, each pair with the same player's ID number, both passed the check and both were saved. The act
    takes the championship's row lock, as the pairs' import does: one pair is saved, the other refused."""
    champ, user = championship(), organiser()

    def save(name, seed):
        def job():
            with translation.override("en"):
                try:
                    return registration.save_pair(champ, **pair_values(name, seed, f"0{seed}", "0601234567"), by=user)
                except ActionRefused as refusal:
                    return refusal

        return job

    saved = run_at_once([save("Los Ases", 1), save("Las Sotas", 2)])
    refusals = [s for s in saved if isinstance(s, ActionRefused)]
    assert len(refusals) == 1, saved
    assert "ID number 0601234567 already plays in the pair" in refusals[0].message
    assert champ.pairs.count() == 1
    assert Player.objects.filter(pair__championship=champ, id_number="0601234567").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_pair_saved_during_the_import_of_the_same_cedula_leaves_one_pair():
    """The form's act and the import take one lock: whichever comes second finds the cédula taken."""
    champ, user = championship(), organiser()
    text = HEADER + "Los Ases,Ana,0601234567,,Bea,0602,,,,\n"

    def by_form():
        try:
            return registration.save_pair(champ, **pair_values("Las Sotas", 2, "0601234567", "0603"), by=user)
        except ActionRefused as refusal:
            return refusal

    with translation.override("en"):
        saved, (_preview, imported) = run_at_once([by_form, lambda: pairs_csv.save(champ, text, by=user)])
    assert (isinstance(saved, ActionRefused), imported) in ((True, 1), (False, 0)), (saved, imported)
    assert champ.pairs.count() == 1
    assert Player.objects.filter(pair__championship=champ, id_number="0601234567").count() == 1
