"""Text people can tell apart (issue 22, point 7): names and usernames kept in
NFKC form, refused when invisible or when a word mixes alphabets with a
look-alike letter; a text of only invisible characters is empty; two pairs
(or accounts) whose names read alike are one name, decided once
(``lookalikes.key``) and enforced by the database. Spanish letters and
accents keep working."""

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.forms import modelform_factory
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engines import lookalikes
from engines.text import TextError, check_text
from refereeing.appeals import procedure as appeals
from resolutions import register
from tests.support.claims import SIGNED
from tests.support.factories import championship as make_championship
from tests.support.factories import organiser
from tournament.models import Pair
from tournament.pairs import pairs_csv

FILLERS = ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u200b\u200c\u200d\ufeff", "\u3164 \u2800"]
TIGRES = "Los Tigres"
ZERO_WIDTH = "Los\u200b Tigres"
CYRILLIC_I = "Los T\u0456gres"  # і, CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I


# --- the check, in the engine ---------------------------------------------------


@pytest.mark.parametrize("filler", FILLERS)
def test_a_name_of_filler_characters_is_empty(filler):
    with pytest.raises(TextError) as refused:
        check_text(filler, "name")
    assert refused.value.code == "empty"
    assert check_text(filler, "name", required=False) == ""


@pytest.mark.parametrize("kind", ["reason", "ruling", "line"])
def test_a_text_of_only_zero_width_characters_is_empty(kind):
    with pytest.raises(TextError) as refused:
        check_text("\u200b\u200c\u200d\u2060\ufeff\n\u200b", kind)
    assert refused.value.code == "empty"


def test_an_invisible_character_inside_a_name_is_refused_and_named():
    with pytest.raises(TextError) as refused:
        check_text(ZERO_WIDTH, "name", field="pareja")
    assert refused.value.code == "invisible"
    assert refused.value.message("es") == "«pareja» tiene un carácter invisible (U+200B), que no se admite."
    assert refused.value.message("en") == "'pareja' holds an invisible character (U+200B), which is not allowed."
    with pytest.raises(TextError):
        check_text("Ana\u3164Pilco", "name")


@pytest.mark.parametrize("name, letter", [(CYRILLIC_I, "\u0456"), ("\u0458uez1", "\u0458"), ("P\u0430blo", "\u0430")])
def test_a_word_mixing_alphabets_with_a_look_alike_is_refused(name, letter):
    with pytest.raises(TextError) as refused:
        check_text(name, "name")
    assert refused.value.code == "imitation"
    assert f"«{letter}» (U+{ord(letter):04X}) imita una letra de otro alfabeto" in refused.value.message("es")


@pytest.mark.parametrize(
    "typed, kept",
    [
        ("Peña Ñúñez", "Peña Ñúñez"),
        ("Güiña Ángel Pérez", "Güiña Ángel Pérez"),
        ("José María Yépez", "José María Yépez"),
        ("Jose\u0301 Nu\u0301n\u0303ez", "José Núñez"),  # accents typed apart are composed
        ("\uff2c\uff4f\uff53\u3000\uff21\uff53\uff45\uff53", "Los Ases"),  # full-width
        ("Los   Ases\u00a0del\u2003Sur", "Los Ases del Sur"),  # spaces of any kind, one each
        ("Москва", "Москва"),  # one alphabet, whatever it is
        ("Club 10 de Agosto", "Club 10 de Agosto"),
    ],
)
def test_spanish_letters_and_accents_are_kept_and_names_are_normalised(typed, kept):
    assert check_text(typed, "name") == kept


def test_a_reason_keeps_what_shows_joiners_included():
    assert (
        check_text("Se jugó 👨\u200d👩\u200d👧 antes\r\nde tiempo", "reason")
        == "Se jugó 👨\u200d👩\u200d👧 antes\nde tiempo"
    )


def test_names_people_read_alike_have_one_key_and_others_do_not():
    same = {
        lookalikes.key(name) for name in (TIGRES, "los tigres", "LOS  TIGRES", "Los Tigrés", CYRILLIC_I, ZERO_WIDTH)
    }
    assert len(same) == 1
    assert lookalikes.key("juez1") == lookalikes.key("juezl") == lookalikes.key("\u0458uez1")
    assert len({lookalikes.key(n) for n in ("Los Tigres", "Las Tigres", "Los Tigre", "Los Leones")}) == 4


# --- pairs: the form, the import and the database decide alike --------------------


@pytest.fixture
def org_client(db):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser())
    with translation.override("en"):
        yield client


def pair_post(client, champ, name):
    return client.post(
        reverse("tournament:pair_new", args=[champ.pk]),
        {"name": name, "player1_name": "Ana Pilco", "player2_name": "Rosa Tene", "representative": "1"},
    )


@pytest.mark.slow
def test_the_pair_form_refuses_look_alike_and_invisible_names(org_client):
    # Repro: `Los Tigres` / `Los\u200b Tigres` / `Los Tіgres` were three pairs.
    champ = make_championship()
    assert pair_post(org_client, champ, TIGRES).status_code == 302
    answers = {name: pair_post(org_client, champ, name).content.decode() for name in (ZERO_WIDTH, CYRILLIC_I)}
    assert "holds an invisible character (U+200B)" in answers[ZERO_WIDTH]
    assert "mixes alphabets: &#x27;\u0456&#x27; (U+0456)" in answers[CYRILLIC_I]
    for name in ("los tigres", "LOS  TIGRES", "Los Tigrés"):
        assert "is already registered" in pair_post(org_client, champ, name).content.decode()
    assert "The text cannot be empty." in pair_post(org_client, champ, "\u3164").content.decode()
    assert list(champ.pairs.values_list("name", flat=True)) == [TIGRES]


def test_the_pair_form_keeps_the_name_normalised(org_client):
    champ = make_championship()
    assert pair_post(org_client, champ, "\uff2c\uff4f\uff53  Ñandúes").status_code == 302
    pair = champ.pairs.get()
    assert pair.name == "Los Ñandúes" and pair.name_key == "1os nandues"


def test_the_import_refuses_them_too(db):
    champ = make_championship()
    text = f"pareja,jugador_1,jugador_2\n{TIGRES},a,b\n{ZERO_WIDTH},c,d\n{CYRILLIC_I},e,f\nlos tigrés,g,h\n\u3164,i,j\n"
    with translation.override("en"):
        errors = dict(pairs_csv.check(champ, text).errors)
    assert "holds an invisible character (U+200B)" in errors[3]
    assert "mixes alphabets" in errors[4]
    assert errors[5] == 'pair "los tigrés" is repeated (line 2)'
    assert errors[6] == "pareja is empty"


def test_the_database_refuses_two_pairs_that_read_alike_whoever_saves(db):
    champ = make_championship()
    Pair.objects.create(championship=champ, name=TIGRES)
    for name in ("LOS TIGRES", "Los Tigrés", CYRILLIC_I):
        with pytest.raises(IntegrityError), transaction.atomic():
            Pair.objects.create(championship=champ, name=name)
    Pair.objects.create(championship=make_championship(name="Otro"), name=TIGRES)  # another championship's


def test_a_model_form_says_a_pair_reads_as_another_rather_than_failing(db):
    """Any form over the pair's name checks the key's constraint with it (the
    database's refusal would be a 500); the admin itself changes no pair."""
    champ = make_championship()
    Pair.objects.create(championship=champ, name=TIGRES)
    form = modelform_factory(Pair, fields=["championship", "name"])({"championship": champ.pk, "name": "LOS TIGRÉS"})
    with translation.override("en"):
        assert not form.is_valid()
        assert "Another pair of this championship already has this name." in str(form.errors)
    admin = Client(HTTP_ACCEPT_LANGUAGE="en")
    admin.force_login(get_user_model().objects.create_superuser("root", password=None))
    response = admin.post(reverse("admin:tournament_pair_add"), {"championship": champ.pk, "name": "LOS TIGRÉS"})
    assert response.status_code == 403
    assert champ.pairs.count() == 1


def test_renaming_a_pair_updates_its_key(db):
    champ = make_championship()
    pair = Pair.objects.create(championship=champ, name="Los Ases")
    pair.name = TIGRES
    pair.save(update_fields=["name"])
    assert Pair.objects.get(pk=pair.pk).name_key == lookalikes.key(TIGRES)


# --- accounts ---------------------------------------------------------------------


def juez_post(client, username):
    return client.post(
        reverse("jueces:list"),
        {
            "first_name": "Rosa",
            "last_name": "Guamán",
            "username": username,
            "password1": "sota-caballo-rey",
            "password2": "sota-caballo-rey",
        },
    )


@pytest.mark.parametrize(
    "username, message",
    [
        ("\u0458uez1", "mixes alphabets: &#x27;\u0458&#x27; (U+0458)"),
        ("juezl", "An account named &quot;juez1&quot; already exists, which reads the same."),
        ("JUEZ1", "A user with that username already exists."),  # Django's own check, kept
        ("Juezl", "An account named &quot;juez1&quot; already exists, which reads the same."),
        # NFKC makes the Hangul filler U+3164 the jungseong filler U+1160, as Django keeps it.
        ("\u3164", "holds an invisible character (U+1160)"),
        ("\u115f\u115f", "holds an invisible character (U+115F)"),
        ("juez\u3164", "holds an invisible character (U+1160)"),
        ("\u2800", "Enter a valid username"),
    ],
)
def test_a_username_that_imitates_another_or_shows_nothing_is_refused(org_client, username, message):
    # Repro: `јuez1` (Cyrillic) was accepted beside `juez1`, and usernames made of filler characters.
    assert juez_post(org_client, "juez1").status_code == 302
    page = juez_post(org_client, username).content.decode()
    assert message in page
    assert get_user_model().objects.filter(username__startswith="j").count() == 1
    assert not get_user_model().objects.exclude(username__in=["juez1", "org"]).exists()


@pytest.mark.slow
def test_a_spanish_username_is_accepted_and_the_admin_refuses_a_look_alike(org_client):
    assert juez_post(org_client, "peñafiel").status_code == 302
    root = get_user_model().objects.create_superuser("root", password=None)
    admin = Client(HTTP_ACCEPT_LANGUAGE="en")
    admin.force_login(root)
    response = admin.post(
        reverse("admin:auth_user_add"),
        {"username": "pe\u00f1af\u0456el", "password1": "sota-caballo-rey", "password2": "sota-caballo-rey"},
    )
    assert response.status_code == 200 and "mixes alphabets" in response.content.decode()
    change = admin.post(
        reverse("admin:auth_user_change", args=[root.pk]),
        {"username": "root", "is_active": "on", "date_joined_0": "2026-11-20", "date_joined_1": "10:00:00"},
    )
    assert change.status_code == 302  # an account keeps its own name


# --- appeals and resolutions: a text of zero-width characters is empty --------------


def test_an_appeal_of_only_zero_width_characters_is_refused(played, english):
    with pytest.raises(appeals.AppealError) as refused:
        appeals.file_appeal(played, "B", 2, "\u200b\u200c\u200d", "Las Sotas uno", SIGNED, uuid.uuid4(), by=None)
    assert "reason" in refused.value.message and "cannot be empty" in refused.value.message
    with pytest.raises(appeals.AppealError):
        appeals.file_appeal(played, "B", 2, "No fue caída.", "\u3164", SIGNED, uuid.uuid4(), by=None)
    assert not played.appeals.exists()


@pytest.mark.parametrize(
    "situation, ruling", [("\u200b\u200b", "Vale la caída."), ("Una caída dudosa.", "\ufeff\u2060")]
)
def test_a_resolution_of_only_zero_width_characters_is_refused(championship, people, english, situation, ruling):
    with pytest.raises(register.ResolutionError) as refused:
        register.resolve(championship, situation, ruling, by=people["director"])
    assert refused.value.message == "A resolution states the situation and the ruling."
    assert not championship.resolutions.exists()
