import json, pytest
from tests.juezscreen.conftest import login
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STATE = {"scores": {"A": 26, "B": 14}, "chicas": {"A": 1, "B": 0}, "chica": 2, "data": 3, "mano": 2, "dealer": "B1",
 "finished": False, "winner": None, "zapateria": False, "suspended": False, "phase": "play", "ronda_window": False,
 "caida_streak": {"pair": None, "count": 0}, "chica_results": [{"chica": 1, "winner": "A", "scores": {"A": 40, "B": 12}, "zapatero": None}],
 "players": 4, "seats": ["A1", "B1", "A2", "B2"]}
def dec(seq, kind, acc, pts, msg=None):
    return {"seq": seq, "kind": kind, "accepted": acc, "points": pts, "code": None if acc else "late", "message": msg or "", "message_en": msg or "", "article": None if acc else "Art. 7", "voided_by": None}
DECS = [{"seq": 1, "claim": {"kind": "mano"}, "decision": dec(1, "mano", True, {"A": 0, "B": 0})},
        {"seq": 2, "claim": {"kind": "caida", "pair": "A"}, "decision": dec(2, "caida", True, {"A": 2, "B": 0})},
        {"seq": 3, "claim": {"kind": "ronda", "pair": "B"}, "decision": dec(3, "ronda", False, {"A": 0, "B": 0}, "Ronda fuera de tiempo: ya jugaron los cuatro")},
        {"seq": 4, "claim": {"kind": "conteo", "cards": {"A": 24, "B": 16}}, "decision": dec(4, "conteo", True, {"A": 10, "B": 0})}]

def test_layout(live_server, page, mesa):
    login(page.context, live_server, mesa.juez)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    def handle(route):
        if route.request.method == "GET" and route.request.url.endswith(f"/api/mesas/{mesa.pk}/"):
            route.fulfill(json={"state": STATE, "decisions": DECS, "last_seq": 4})
        elif route.request.method == "GET":
            route.fulfill(json={"entries": [], "state": STATE, "last_seq": 4})
        elif route.request.url.endswith("/api/levante/"):
            route.fulfill(json={"captures": [{"cards": ["3", "4", "J"], "caida": False, "limpia": False}, {"cards": ["7", "J"], "caida": True, "limpia": False}],
               "verdict": {"verdict": "illegal", "message": "El 7 no levanta un 5", "message_en": "x", "article": "002 Art. 5A"}})
        else:
            body = json.loads(route.request.post_data)
            route.fulfill(status=201, json={"entry": {"seq": 5, "client_id": body["client_id"], "claim": body["claim"], "decision": dec(5, body["claim"]["kind"], False, {"A": 0, "B": 0}, "Caída negada: la mano terminó")}, "state": STATE, "last_seq": 5})
    page.route("**/api/**", handle)
    page.goto(f"{live_server.url}/mesa/{mesa.pk}/")
    page.wait_for_selector(".score-num:text('26')")
    page.screenshot(path="artifacts/scratch-scoring.png")
    page.tap("[data-claim=caida][data-pair=B]")
    page.wait_for_selector("#refusal:not([hidden])")
    page.screenshot(path="artifacts/scratch-refusal.png")
    page.tap("[data-open=conteo]")
    page.tap("[data-step=counted][data-by='1']")
    page.screenshot(path="artifacts/scratch-conteo.png")
    page.tap("#dlg-conteo [data-close]")
    page.tap("[data-open=jyv][data-pair=A]")
    for r in ["3", "4", "J", "5"]:
        page.tap(f".rank-btn[data-rank='{r}']")
    page.tap("[data-target=played]")
    page.tap(".rank-btn[data-rank='7']")
    page.tap(".rank-btn[data-rank='5']")
    page.tap("[data-jyv=check]")
    page.wait_for_selector(".verdict")
    page.screenshot(path="artifacts/scratch-jyv.png")
    page.tap("#dlg-jyv [data-close]")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path="artifacts/scratch-phone.png", full_page=True)
    assert not errors, errors
