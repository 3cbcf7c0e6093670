"""Who may log what (Art. 16–18): one table of role x claim kind decides every
claim, for the API and the claim log alike (``refereeing.access.MAY_LOG``)."""

import uuid

import pytest

from engines.rules import KINDS
from refereeing.access.permissions import DIRECTOR, INSPECTOR, JUEZ, MAY_LOG, PIN_DEVICE, table_of
from refereeing.appeals import procedure as appeals
from refereeing.claimlog.log import MesaClosed, NotAllowed, record_claim
from refereeing.models import Appeal, ClaimEntry
from tests.support.claims import CAIDA_A, MANO, SIGNED, ajuste, api_client, claim_body, post_json
from tests.support.refusals import refusal
from tournament.models import Mesa

from .test_access import open_with_pin

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

SUSPENDER, REANUDAR = {"kind": "suspender"}, {"kind": "reanudar"}


def post_claim(client, mesa, claim):
    return post_json(client, f"/api/mesas/{mesa.pk}/claims/", claim_body(claim))


def officials(people, mesa):
    """The three officials' clients: the juez, the inspector, a device opened with the table's PIN."""
    device = api_client()
    table = table_of(mesa)
    assert open_with_pin(device, None, table.pin, f"/acceso/mesa-fisica/{table.pk}/").status_code == 302
    return {"juez": api_client(people["juez"]), "inspector": api_client(people["inspector"]), "pin": device}


def kinds(mesa):
    return list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values_list("kind", flat=True))


def test_the_table_art_16_to_18():
    play = set(KINDS) - {"ajuste", "void", "suspender", "reanudar"}
    assert play >= {"mano", "caida", "ronda", "conteo", "juego_y_veo", "mal_repartidas"}
    for role in (JUEZ, INSPECTOR, PIN_DEVICE):
        assert MAY_LOG[role] == play | {"suspender", "reanudar", "void"}
    assert MAY_LOG[DIRECTOR] == {"suspender", "reanudar", "void", "ajuste"}
    # Only the Director adjusts points (ruling "only the Director adjusts").
    assert [role for role, kinds in MAY_LOG.items() if "ajuste" in kinds] == [DIRECTOR]


@pytest.mark.slow
def test_the_officials_log_the_play_suspend_resume_and_undo_art_16(people, mesa):
    clients = officials(people, mesa)
    for claim, who in (
        (MANO, "juez"),
        (CAIDA_A, "inspector"),
        (SUSPENDER, "pin"),
        (REANUDAR, "inspector"),
        ({"kind": "void", "target": 2}, "juez"),
    ):
        response = post_claim(clients[who], mesa, claim)
        assert response.status_code == 201, response.content
        assert response.json()["entry"]["decision"]["accepted"]
    assert kinds(mesa) == ["mano", "caida", "suspender", "reanudar", "void"]
    # Each entry names who logged it; a PIN device logs as the juez.
    logged_by = list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values_list("juez__username", flat=True))
    assert logged_by == ["juez", "inspector", "juez", "inspector", "juez"]


@pytest.mark.parametrize("who", ["juez", "inspector", "pin"])
def test_no_official_logs_an_ajuste_403_art_18(people, mesa, who):
    client = officials(people, mesa)[who]
    assert post_claim(client, mesa, MANO).status_code == 201
    for points in (2, 39, -4):
        refused = post_claim(client, mesa, ajuste("A", points))
        assert refused.status_code == 403
        # In the request's language: Spanish, the venue's.
        assert refused.json() == refusal(
            "Art. 18: solo el Director del campeonato ajusta puntos, en un fallo o una resolución.",
            "not_allowed",
            403,
            article="Art. 18",
        )
    assert kinds(mesa) == ["mano"]
    mesa.refresh_from_db()
    assert mesa.state["scores"] == {"A": 0, "B": 0}


@pytest.mark.parametrize("who", ["juez", "inspector", "pin"])
@pytest.mark.slow
def test_no_official_logs_the_directors_void_403_third_rulings_suspendida_art_16_17(people, mesa, who):
    """Only the Director's void is taken while the mesa is suspended: no official may pass one off."""
    client = officials(people, mesa)[who]
    for claim in (MANO, CAIDA_A, SUSPENDER):
        assert post_claim(client, mesa, claim).status_code == 201
    refused = post_claim(client, mesa, {"kind": "void", "target": 2, "director": True})
    assert refused.status_code == 403
    assert refused.json() == refusal(
        "Art. 17: solo las jugadas del propio Director llevan la marca del Director.", "not_allowed", 403, "Art. 17"
    )
    # The officials' own void waits for the mesa to be resumed (Art. 16).
    waits = post_claim(client, mesa, {"kind": "void", "target": 2})
    assert waits.status_code == 201 and waits.json()["entry"]["decision"]["code"] == "mesa_suspendida"
    assert kinds(mesa) == ["mano", "caida", "suspender", "void"]
    mesa.refresh_from_db()
    assert mesa.state["scores"] == {"A": 2, "B": 0}


@pytest.mark.slow
def test_the_refusal_is_in_the_request_s_language(people, mesa):
    client = api_client(people["juez"])
    post_json(client, f"/api/mesas/{mesa.pk}/claims/", claim_body(MANO))
    english = client.post(
        f"/api/mesas/{mesa.pk}/claims/",
        claim_body(ajuste("A", 2)),
        format="json",
        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert english.status_code == 403
    assert english.json()["detail"] == (
        "Art. 18: only the championship's Director adjusts points, in a ruling or a resolution."
    )


@pytest.mark.parametrize("who", ["director", "staff"])
def test_the_director_and_the_organisers_log_nothing_at_the_api_art_16(people, mesa, who):
    """The Director adjusts in a ruling or a resolution, never by posting claims."""
    client = api_client(people[who])
    for claim in (MANO, ajuste("A", 2), SUSPENDER):
        refused = post_claim(client, mesa, claim)
        assert refused.status_code == 403 and "Art. 16" in refused.json()["detail"]
    assert kinds(mesa) == []


def test_the_claim_log_asks_the_same_table(people, played):
    """A service that logs for a user gets that user's row of the table."""
    for user in (people["juez"], people["inspector"], None):
        with pytest.raises(NotAllowed, match="Art. 18"):
            record_claim(played, ajuste("B", 2), uuid.uuid4(), user=user)
    with pytest.raises(NotAllowed, match="Art. 16"):
        record_claim(played, MANO, uuid.uuid4(), user=people["stranger"])
    # The Director logs only what a ruling or a resolution logs: no play.
    with pytest.raises(NotAllowed, match="Art. 17–18"):
        record_claim(played, CAIDA_A, uuid.uuid4(), user=people["director"])
    assert kinds(played) == ["mano", "caida"]
    assert record_claim(played, ajuste("B", 2), uuid.uuid4(), user=people["director"]).decision["accepted"]


@pytest.mark.slow
def test_nobody_but_the_director_voids_what_the_director_logged_art_17(people, played):
    record_claim(played, ajuste("B", 2), uuid.uuid4(), user=people["director"])
    for who, client in officials(people, played).items():
        refused = post_claim(client, played, {"kind": "void", "target": 3})
        # 409: refused now, as a mesa that takes no claim; the tablet drops it and goes on.
        assert refused.status_code == 409, who
        assert refused.json()["detail"] == (
            "Art. 17: lo que registró el Director es inapelable; solo el Director puede anularlo."
        )
    assert kinds(played) == ["mano", "caida", "ajuste"]


def file_and_admit(mesa, people):
    appeal = appeals.file_appeal(
        mesa, "B", 2, "The caída was made with a card already played.", "Las Sotas uno", SIGNED, uuid.uuid4(), by=None
    )
    return appeals.admit(appeal, by=people["director"])


@pytest.mark.parametrize("suspended_first", [False, True], ids=["in play", "already suspended"])
@pytest.mark.slow
def test_an_admitted_appeal_holds_the_mesa_in_play_or_already_suspended_art_17(people, played, suspended_first):
    """Today's bug: a juez who had suspended the mesa resumed it while the Director deliberated."""
    if suspended_first:
        record_claim(played, SUSPENDER, uuid.uuid4(), user=people["juez"])
    appeal = file_and_admit(played, people)
    assert appeal.suspended_mesa is not suspended_first
    played.refresh_from_db()
    assert played.status == Mesa.Status.SUSPENDED
    held = kinds(played)
    clients = officials(people, played)
    for who, client in clients.items():
        for claim in (REANUDAR, MANO, CAIDA_A, {"kind": "void", "target": 2}):
            refused = post_claim(client, played, claim)
            assert refused.status_code == 409, (who, claim)
            assert refused.json()["detail"] == (
                "Art. 17: la mesa está suspendida por una apelación hasta la resolución del Director."
            )
    for user in (people["juez"], people["inspector"], None):
        with pytest.raises(MesaClosed, match="Art. 17"):
            record_claim(played, REANUDAR, uuid.uuid4(), user=user)
    assert kinds(played) == held
    played.refresh_from_db()
    assert played.status == Mesa.Status.SUSPENDED

    appeals.rule(appeal, upheld=False, ruling="The caída stands.", by=people["director"])
    played.refresh_from_db()
    if suspended_first:
        # The juez's own suspension stands after the ruling; the juez resumes it.
        assert played.status == Mesa.Status.SUSPENDED
        assert post_claim(clients["juez"], played, REANUDAR).status_code == 201
    played.refresh_from_db()
    assert played.status == Mesa.Status.IN_PLAY
    assert post_claim(clients["inspector"], played, MANO).status_code == 201


def test_an_appeal_filed_but_not_admitted_holds_nothing(people, played):
    appeals.file_appeal(played, "B", 2, "Why?", "Las Sotas uno", SIGNED, uuid.uuid4(), by=None)
    assert Appeal.objects.get().status == Appeal.Status.FILED
    assert record_claim(played, MANO, uuid.uuid4(), user=people["juez"]).decision["accepted"]
