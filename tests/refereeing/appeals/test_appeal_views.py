"""The appeal screens: filing at the table, and the Director's desk (Art. 17)."""

import uuid

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from refereeing.appeals import procedure as appeals
from refereeing.appeals.waiting import waiting_appeals
from refereeing.models import Appeal, ClaimEntry
from tests.support.claims import SIGNED, form_body
from tournament.models import Championship, Mesa

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def signed_in(user):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def filed(mesa, pair="B"):
    return appeals.file_appeal(mesa, pair, 2, "Played card.", "Las Sotas uno", SIGNED, uuid.uuid4(), by=None)


def test_the_juez_files_an_appeal_and_goes_back_to_the_mesa(played, people):
    juez = signed_in(people["juez"])
    url = reverse("refereeing:file_appeal", args=[played.pk])
    page = juez.get(url).content.decode()
    # Each decision with its pair, points and time; the mano (#1) decides nothing a pair could appeal.
    assert '<option value="2">#2 · Caída (player 1) · A · ' in page and " · A +2 · " in page
    assert '<option value="1">' not in page
    assert "Las Sotas uno" in page  # the representatives, for the name to follow the pair chosen
    body = form_body()
    response = juez.post(url, body)
    assert response.status_code == 302 and response["Location"] == reverse("refereeing:mesa_screen", args=[played.pk])
    again = juez.post(url, body)  # the wifi lost the answer: the same form again
    assert again.status_code == 302
    appeal = Appeal.objects.get()
    assert (appeal.pair, appeal.seq, appeal.client_id) == ("B", 2, uuid.UUID(body["client_id"]))


@pytest.mark.parametrize(
    "change, error",
    [
        ({"signature": ""}, "The representative signs the appeal in the box."),
        ({"seq": "7"}, "has no decision #7"),
        ({"seq": "dos"}, "Enter a whole number."),
        ({"pair": "C"}, "Select a valid choice."),
        ({"reason": ""}, "This field is required."),
        ({"client_id": "x"}, "Enter a valid UUID."),
        ({"signature": "data:image/png;base64,AAAA"}, "not a PNG"),
    ],
)
def test_a_bad_appeal_is_shown_with_its_error_and_nothing_filed(played, people, change, error):
    response = signed_in(people["juez"]).post(reverse("refereeing:file_appeal", args=[played.pk]), form_body(**change))
    assert response.status_code == 200 and error in response.content.decode()
    assert not Appeal.objects.exists()


@pytest.mark.slow
def test_only_who_acts_at_the_mesa_files_appeals(played, people, client):
    url = reverse("refereeing:file_appeal", args=[played.pk])
    assert client.get(url)["Location"].startswith(reverse("login"))
    for who in ("other_juez", "inspector", "stranger", "director"):
        assert signed_in(people[who]).post(url, form_body()).status_code == 403
    assert signed_in(people["juez"]).get(reverse("refereeing:file_appeal", args=[999999])).status_code == 404
    assert not Appeal.objects.exists()


def test_the_director_admits_and_rules_from_the_desk(played, people):
    appeal = filed(played)
    director = signed_in(people["director"])
    listing = director.get(reverse("appeals:list")).content.decode()
    assert f'data-appeal="{appeal.pk}"' in listing
    url = reverse("appeals:detail", args=[appeal.pk])
    assert "Admit: suspend the mesa" in director.get(url).content.decode()
    assert director.post(url, {"step": "admit"}).status_code == 302
    played.refresh_from_db()
    assert played.status == Mesa.Status.SUSPENDED
    response = director.post(
        url,
        {
            "step": "rule",
            "rule-upheld": "yes",
            "rule-ruling": "The card was played.",
            "rule-undo": "on",
            "rule-adjust_pair": "B",
            "rule-adjust_points": "2",
        },
    )
    assert response.status_code == 302
    appeal.refresh_from_db()
    played.refresh_from_db()
    assert appeal.status == Appeal.Status.UPHELD and played.status == Mesa.Status.IN_PLAY
    assert played.state["scores"] == {"A": 0, "B": 2}
    page = director.get(url).content.decode()
    assert "The card was played." in page and "Admit" not in page and "ruling-form" not in page


def test_a_ruling_with_bad_input_is_shown_again_with_its_error(played, people):
    appeal = appeals.admit(filed(played), by=people["director"])
    url = reverse("appeals:detail", args=[appeal.pk])
    director = signed_in(people["director"])
    response = director.post(
        url, {"step": "rule", "rule-upheld": "yes", "rule-ruling": "Adjust.", "rule-adjust_pair": "B"}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "An adjustment needs both the pair and the points." in page and "Adjust." in page
    response = director.post(url, {"step": "rule", "rule-upheld": "no", "rule-ruling": "No.", "rule-undo": "on"})
    assert response.status_code == 400 and "Only an upheld appeal changes the score." in response.content.decode()
    assert director.post(url, {"step": "whatever"}).status_code == 400
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.ADMITTED


@pytest.mark.slow
def test_organisers_see_appeals_but_only_the_director_rules(played, people):
    appeal = filed(played)
    url = reverse("appeals:detail", args=[appeal.pk])
    staff = signed_in(people["staff"])
    assert "Only the championship's Director rules" in staff.get(url).content.decode()
    assert staff.post(url, {"step": "admit"}).status_code == 403
    for who in ("juez", "stranger"):
        # The policy's one answer to whom it does not let read the championship's records (issue #33).
        assert signed_in(people[who]).get(url).status_code == 403
        assert signed_in(people[who]).get(reverse("appeals:list")).status_code == 403
    assert signed_in(people["director"]).get(reverse("appeals:detail", args=[999999])).status_code == 404
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.FILED
    assert ClaimEntry.objects.filter(mesa=played).count() == 2


def test_a_director_with_no_appeal_yet_sees_an_empty_desk(people, championship):
    response = signed_in(people["director"]).get(reverse("appeals:list"))
    assert response.status_code == 200 and "No appeal is waiting." in response.content.decode()


@pytest.mark.slow
def test_the_desk_fetches_its_lists_alone_and_only_for_whom_sees_the_page(played, people):
    appeal = filed(played)
    part = reverse("appeals:list") + "?part=1"
    lists = signed_in(people["director"]).get(part).content.decode()
    assert f'data-appeal="{appeal.pk}"' in lists and "<html" not in lists and "No appeal decided yet." in lists
    assert signed_in(people["juez"]).get(part).status_code == 403
    assert Client().get(part)["Location"].startswith(reverse("login"))


def test_the_control_board_marks_a_mesa_whose_appeal_waits_for_the_director(played, people):
    board = signed_in(people["staff"])
    rows = reverse("tournament:board", args=[played.championship_id]) + "?rows=1"
    assert "appeal-badge" not in board.get(rows).content.decode()
    appeal = appeals.admit(filed(played), by=people["director"])
    row = board.get(rows).content.decode().split(f'data-mesa="{played.pk}"')[1].split("</tr>")[0]
    assert "appeal-badge" in row and reverse("appeals:list") in row
    appeals.rule(appeal, upheld=False, ruling="The caída stands.", by=people["director"])
    assert "appeal-badge" not in board.get(rows).content.decode()


@pytest.mark.parametrize("language, label", [("en", "Adjust the points of"), ("es", "Ajustar los puntos de")])
def test_the_ajuste_offers_the_two_pairs_by_name_and_stores_the_side(played, people, language, label):
    appeal = appeals.admit(filed(played), by=people["director"])
    url = reverse("appeals:detail", args=[appeal.pk])
    director = Client(HTTP_ACCEPT_LANGUAGE=language)
    director.force_login(people["director"])
    page = director.get(url).content.decode()
    assert label in page
    assert f'<option value="A">{played.pair_a}</option>' in page
    assert f'<option value="B">{played.pair_b}</option>' in page
    body = {"step": "rule", "rule-upheld": "yes", "rule-ruling": "Adjust.", "rule-adjust_pair": "B"}
    assert director.post(url, {**body, "rule-adjust_points": "2"}).status_code == 302
    played.refresh_from_db()
    assert played.state["scores"] == {"A": 2, "B": 2}


def waiting_badge(client):
    page = client.get(reverse("rules")).content.decode()
    start = page.find('class="badge text-bg-warning waiting-appeals"')
    return page[start : page.find("</a>", start)] if start >= 0 else None


@pytest.mark.parametrize("language, words", [("en", "waiting for your ruling"), ("es", "esperan su resolución")])
@pytest.mark.slow
def test_the_navigation_counts_the_appeals_waiting_for_the_director_alone(
    played, people, championship, language, words
):
    director = Client(HTTP_ACCEPT_LANGUAGE=language)
    director.force_login(people["director"])
    assert waiting_badge(director) is None  # zero shows nothing
    appeal = filed(played)
    assert f'>1<span class="visually-hidden"> {words}</span>' in waiting_badge(director)
    # Another championship's Director and the juez see no count of this one's appeals.
    Championship.objects.create(
        name="Copa Chimborazo",
        edition="2026",
        sede=championship.sede,
        start_date=championship.start_date,
        end_date=championship.end_date,
        director=people["stranger"],
    )
    for who in ("stranger", "juez"):
        other = Client(HTTP_ACCEPT_LANGUAGE=language)
        other.force_login(people[who])
        assert waiting_badge(other) is None
    appeals.dismiss(appeal, "Out of time.", by=people["director"])
    assert waiting_badge(director) is None


def test_the_waiting_count_is_one_query(played, people, django_assert_num_queries):
    filed(played)
    request = RequestFactory().get("/")
    request.user = people["director"]
    count = waiting_appeals(request)["waiting_appeals"]
    with django_assert_num_queries(1):
        assert count() == 1


@pytest.mark.parametrize(
    "language, claim",
    [("en", "Caída (player 1) · A · Los Ases · A +2 · "), ("es", "Caída (jugador 1) · A · Los Ases · A +2 · ")],
)
def test_the_appeal_list_shows_the_claim_appealed_and_the_juezs_decision(played, people, language, claim):
    appeal = filed(played)
    director = Client(HTTP_ACCEPT_LANGUAGE=language)
    director.force_login(people["director"])
    listing = director.get(reverse("appeals:list")).content.decode()
    row = listing[listing.find(f'data-appeal="{appeal.pk}"') :]
    row = row[: row.find("</tr>")]
    local = timezone.localtime(ClaimEntry.objects.get(mesa=played, seq=2).created_at)
    assert f"#2 · {claim}{local:%H:%M}" in row
    assert escape(str(played)) in row and "Las Sotas" in row
