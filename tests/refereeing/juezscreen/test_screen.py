"""The juez's screen in a real browser: a 1024x768 touch tablet, es-EC.

A whole mesa is played by taps against the real API and engine; the
network is cut in the middle; two tablets share one mesa. Screenshots of
each state go to artifacts/.
"""

import gzip
import re

import pytest
from playwright.sync_api import expect

from engines.rules.messages import kind_labels
from refereeing.access.permissions import table_of
from refereeing.models import ClaimEntry, Signature
from tests.support.tablet import (
    ZAPATERIA,
    Tablet,
    draw,
    log_claims,
    login,
    open_screen,
    score,
    settled,
    shot,
    unhushed,
)
from tournament.models import Mesa

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOUBLE_TAP_MS = 850


def test_a_whole_mesa_by_taps_to_two_chicas_and_the_signatures(live_server, page, mesa):
    open_screen(page, live_server, mesa)
    expect(page.locator("#log")).to_contain_text("Aún no hay jugadas")
    tablet = Tablet(page)
    # Chica 1: B takes 5 caídas (10 points, no zapatería), A wins by conteos and caídas.
    tablet.claim("mano")
    for _ in range(5):
        tablet.claim("caida", "B")
    expect(score(page, "B")).to_have_text("10")
    expect(page.locator(".pair-card[data-side=B] .chip.perro")).to_have_count(1)
    tablet.claim("mano")
    tablet.conteo("A", 30)
    expect(score(page, "A")).to_have_text("16")
    # 16 = 1 perro + 3 tantos (Art. 14).
    expect(page.locator(".pair-card[data-side=A] .chip.perro")).to_have_count(1)
    expect(page.locator(".pair-card[data-side=A] .chip.tanto")).to_have_count(3)
    tablet.data_for_a()
    expect(score(page, "A")).to_have_text("32")
    tablet.claim("mano")
    expect(page.locator("#st-data")).to_have_text("3")
    expect(page.locator("#st-dealer")).to_have_text("Luis Paredes (A2)")
    expect(page.locator(".pair-card[data-side=A] .dealer-chip")).to_be_visible()
    shot(page, "scoring")
    for _ in range(4):
        tablet.claim("caida", "A")
    expect(page.locator("#banner")).to_have_text("Chica para Los Ases (40–10)")
    expect(page.locator(".pair-card[data-side=A] .chicas-num")).to_have_text("1")
    shot(page, "banner-chica")
    # Chica 2.
    tablet.data_for_a()
    tablet.data_for_a()
    tablet.claim("mano")
    for _ in range(4):
        tablet.claim("caida", "A")
    expect(page.locator("#banner")).to_have_text("Mesa para Los Ases")
    expect(page.locator("#controls")).to_be_hidden()
    expect(page.locator("#signatures")).to_be_visible()
    shot(page, "banner-mesa")

    mesa.refresh_from_db()
    assert mesa.state["winner"] == "A" and mesa.state["chicas"] == {"A": 2, "B": 0}
    assert mesa.last_seq == tablet.seq == ClaimEntry.objects.filter(mesa=mesa).count()

    # The representatives and the juez sign with a finger (Art. 16), once the pads have settled where the claim
    # buttons were.
    unhushed(page)
    for role in ("A", "B", "juez"):
        card = page.locator(f".sign-card[data-role={role}]")
        card.locator("button[type=submit]").tap()
        expect(card.locator(".sign-status")).to_have_text("Firme primero en el recuadro.")
        draw(page, card.locator("canvas"), finger=role != "juez")
        card.locator("button[type=submit]").tap()
        expect(card.locator(".sign-status")).to_contain_text("Firmado")
    page.locator("#signatures").scroll_into_view_if_needed()
    shot(page, "signatures")
    signatures = {s.role: s for s in Signature.objects.filter(mesa=mesa)}
    assert set(signatures) == {"A", "B", "juez"}
    assert signatures["A"].name == "Ana Chávez" and signatures["B"].name == "Marta Yépez"
    assert signatures["juez"].name == "Rosa Guamán"
    assert all(s.image.startswith("data:image/png;base64,") for s in signatures.values())


def test_a_mesa_ended_by_zapateria(live_server, page, mesa):
    open_screen(page, live_server, mesa)
    tablet = Tablet(page)
    tablet.data_for_a()
    tablet.data_for_a()
    tablet.claim("mano")
    for _ in range(4):
        tablet.claim("caida", "A")
    # B lost the first chica with 0 points: the mesa ends there (Art. 3g.6, 12).
    expect(page.locator("#banner")).to_have_text("Mesa para Los Ases por zapatería")
    shot(page, "banner-zapateria")
    mesa.refresh_from_db()
    assert mesa.state["zapateria"] is True and mesa.state["finished"] is True


def test_claims_taken_offline_are_sent_once_and_in_order(live_server, page, mesa):
    open_screen(page, live_server, mesa)
    tablet = Tablet(page)
    tablet.claim("mano")
    tablet.claim("caida", "A")
    page.route("**/api/**", lambda route: route.abort())
    for pair in ("B", "A", "A"):
        # Two taps of one button closer than 0.8 s are a double tap: one claim.
        page.wait_for_timeout(DOUBLE_TAP_MS)
        tablet.claim("caida", pair, confirm=False)
    tablet.claim("limpia", "B", confirm=False)
    # A waiting claim is undone on the device itself: it never reaches the server.
    tablet.claim("ronda", "A", confirm=False)
    tablet.seq -= 1
    expect(page.locator("#net .net-waiting")).to_have_text("Por enviar: 5")
    page.tap("[data-action=undo]")
    expect(page.locator("#dlg-confirm")).to_contain_text("¿Quitar Ronda · Los Ases? Aún no se envió")
    page.tap("#dlg-confirm [data-label=yes]")
    expect(page.locator("#net .net-status")).to_have_text("Sin conexión: las jugadas se guardan en esta tableta")
    expect(page.locator("#net .net-waiting")).to_have_text("Por enviar: 4")
    # Offline the whole board is provisional: its points are the engine's
    # answer to the first queued claim (the caída of B), the three after it
    # are not answered yet and not guessed (tests/refereeing/juezscreen/test_preview.py).
    expect(page.locator(".provisional")).to_be_visible()
    expect(page.locator("#screen")).to_have_class(re.compile("is-provisional"))
    expect(score(page, "A")).to_have_text("2")
    expect(score(page, "B")).to_have_text("2")
    expect(page.locator(".provisional-pending")).to_have_text(" · 3 sin respuesta aún")
    shot(page, "offline")
    # A reload while offline loses nothing: the queue and the last state are on the device.
    page.reload()
    expect(page.locator("#net .net-waiting")).to_have_text("Por enviar: 4")
    expect(page.locator(".provisional")).to_be_visible()
    expect(score(page, "B")).to_have_text("2")
    expect(page.locator(".provisional-pending")).to_have_text(" · 3 sin respuesta aún")
    assert ClaimEntry.objects.filter(mesa=mesa).count() == 2
    page.unroute("**/api/**")
    settled(page, 6)
    expect(page.locator(".provisional")).to_be_hidden()
    expect(score(page, "A")).to_have_text("6")
    entries = list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq"))
    assert [(e.seq, e.kind, e.claim.get("pair")) for e in entries] == [
        (1, "mano", None),
        (2, "caida", "A"),
        (3, "caida", "B"),
        (4, "caida", "A"),
        (5, "caida", "A"),
        (6, "limpia", "B"),
    ]
    assert len({e.client_id for e in entries}) == 6


def test_two_devices_see_each_others_claims_within_two_seconds(live_server, page, mesa, browser, browser_context_args):
    open_screen(page, live_server, mesa)
    other = browser.new_context(**browser_context_args).new_page()
    open_screen(other, live_server, mesa)
    first, second = Tablet(page), Tablet(other)
    first.claim("mano")
    expect(other.locator("#log .log-item").first).to_contain_text("Mano", timeout=2000)
    second.seq = 1
    second.claim("caida", "B")
    expect(score(page, "B")).to_have_text("2", timeout=2000)
    expect(page.locator("#log .log-item").first).to_contain_text("#2", timeout=2000)

    # The second tablet loses the network and logs a caída; meanwhile the
    # first logs a limpia. Back online, the server answers 409: the juez is
    # asked, and sends the waiting caída after the other device's claim.
    other.route("**/api/**", lambda route: route.abort())
    other.tap("[data-claim=caida][data-pair=A]")
    expect(other.locator("#net .net-waiting")).to_have_text("Por enviar: 1")
    first.seq = 2
    first.claim("limpia", "B")
    other.unroute("**/api/**")
    dialog = other.locator("#dlg-confirm")
    expect(dialog).to_be_visible(timeout=5000)
    expect(dialog).to_contain_text("#3 Limpia · Caballos de Espada")
    expect(dialog).to_contain_text("Caída · Los Ases")
    shot(other, "conflict")
    Tablet(other).press("#dlg-confirm [data-label=yes]")
    settled(other, 4)
    expect(page.locator("#log .log-item").first).to_contain_text("#4", timeout=2000)
    kinds = list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values_list("kind", "claim__pair"))
    assert kinds == [("mano", None), ("caida", "B"), ("limpia", "B"), ("caida", "A")]
    other.context.close()


def test_a_device_opened_with_the_table_pin_logs_claims(live_server, page, mesa):
    """No account on the tablet: the QR code's page and the PIN open the screen."""
    table = table_of(mesa)
    page.goto(f"{live_server.url}/acceso/mesa-fisica/{table.pk}/")
    page.fill("input[name=pin]", table.pin)
    page.locator("form button[type=submit]").tap()
    expect(page).to_have_url(f"{live_server.url}/mesa/{mesa.pk}/")
    expect(page.locator("#st-chica")).not_to_have_text("–")
    Tablet(page).claim("mano")
    entry = ClaimEntry.objects.get(mesa=mesa)
    assert entry.kind == "mano" and entry.juez == mesa.juez


def test_without_a_login_or_pin_the_screen_asks_to_log_in(live_server, page, mesa):
    page.goto(f"{live_server.url}/mesa/{mesa.pk}/")
    expect(page).to_have_url(re.compile(r"/cuenta/entrar/\?next=/mesa/"))


def test_another_juez_gets_a_403_page(live_server, page, mesa, other_juez):
    login(page.context, live_server, other_juez)
    response = page.goto(f"{live_server.url}/mesa/{mesa.pk}/")
    assert response.status == 403
    expect(page.locator("h1")).to_have_text("No es su mesa")
    expect(page.locator(".screen")).to_have_count(0)


def test_a_mesa_not_ready_refuses_claims_in_words(live_server, page, mesa):
    mesa.status = Mesa.Status.WAITING
    mesa.save()
    open_screen(page, live_server, mesa)
    page.tap("[data-claim=mano]")
    expect(page.locator("#refusal")).to_contain_text("Mano: ")
    expect(page.locator("#net .net-waiting")).to_have_count(0)
    assert not ClaimEntry.objects.filter(mesa=mesa).exists()


def test_refusals_show_in_words_with_their_article(live_server, page, mesa):
    open_screen(page, live_server, mesa)
    tablet = Tablet(page)
    tablet.press(".screen [data-claim=caida][data-pair=A]")  # no mano dealt yet: the engine's preview refuses it
    refusal = page.locator("#refusal")
    expect(refusal).to_be_visible()
    assert re.search(r"\(.*Art\. \d", refusal.inner_text()), refusal.inner_text()
    # The article links to the rules page.
    expect(refusal.locator("a")).to_have_attribute("href", re.compile(r"/reglas/#art-"))
    shot(page, "refusal")
    # One tap logs nothing; "Anotarla igual" logs it, and the server refuses it in the same words.
    page.wait_for_timeout(500)
    assert not ClaimEntry.objects.filter(mesa=mesa).exists()
    tablet.tap("#refusal [data-action=anyway]")
    expect(page.locator("#log .log-item.is-refused")).to_have_count(1)
    assert ClaimEntry.objects.get(mesa=mesa).decision["code"] == "sin_mano"
    # A conteo the engine would refuse (no mano dealt yet) is refused before confirming, in its words.
    tablet.press("#refusal [data-action=ack]")
    tablet.press(".screen [data-open=conteo][data-counted=A]")
    for key in "30":
        tablet.press(f"#dlg-conteo [data-key='{key}']")
    expect(page.locator("#conteo-preview")).to_contain_text("(Art. ")
    tablet.press("#dlg-conteo [data-confirm=conteo]")
    expect(page.locator("#dlg-conteo [data-anyway]")).to_be_visible()
    assert ClaimEntry.objects.filter(mesa=mesa).count() == 1


def test_undo_voids_the_last_claim_after_a_confirmation(live_server, page, mesa):
    open_screen(page, live_server, mesa)
    tablet = Tablet(page)
    tablet.claim("mano")
    tablet.claim("caida", "A")
    expect(score(page, "A")).to_have_text("2")
    page.tap("[data-action=undo]")
    dialog = page.locator("#dlg-confirm")
    expect(dialog).to_contain_text("¿Anular la jugada n.º 2 (Caída · Los Ases)?")
    dialog.locator("[data-label=no]").tap()
    expect(score(page, "A")).to_have_text("2")
    page.tap("[data-action=undo]")
    tablet.tap("#dlg-confirm [data-label=yes]")
    expect(score(page, "A")).to_have_text("0")
    expect(page.locator("#log .log-item.is-voided")).to_have_count(1)
    last = ClaimEntry.objects.get(mesa=mesa, seq=3)
    assert last.claim == {"kind": "void", "target": 2} and last.accepted


def test_suspend_and_resume(live_server, page, mesa):
    open_screen(page, live_server, mesa)
    tablet = Tablet(page)
    tablet.claim("mano")
    tablet.claim("suspender")
    expect(page.locator("#banner")).to_have_text("Mesa suspendida")
    expect(page.locator("[data-claim=reanudar]")).to_be_visible()
    # Suspended, the engine takes nothing but the resumption (Art. 16): no other claim is within reach, and the
    # screen says why and what the juez can do.
    expect(page.locator(".suspended-note")).to_have_text(
        "El juez suspendió la mesa: ninguna jugada hasta reanudarla. Solo el juez la reanuda, con Reanudar.",
        use_inner_text=True,
    )
    for control in page.locator("#controls button:not([data-claim=reanudar])").all():
        expect(control).to_be_hidden()
    tablet.claim("reanudar")
    expect(page.locator("#banner")).to_be_hidden()
    expect(page.locator(".suspended-note")).to_be_hidden()
    tablet.claim("caida", "A")
    expect(score(page, "A")).to_have_text("2")


def test_conteo_with_cards_left_on_the_table(live_server, page, mesa):
    open_screen(page, live_server, mesa)
    tablet = Tablet(page)
    tablet.claim("mano")
    tablet.claim("mano")
    page.tap(".screen [data-open=conteo][data-counted=B]")
    dialog = page.locator("#dlg-conteo")
    for key in "23":
        dialog.locator(f"[data-key='{key}']").tap()
    expect(dialog.locator("[data-num=rest]")).to_have_text("17")
    # Two cards stayed on the table: the juez types the other pair's 15.
    dialog.locator("button[data-field=rest]").tap()
    for key in "15":
        dialog.locator(f"[data-key='{key}']").tap()
    expect(dialog.locator("[data-num=counted]")).to_have_text("23")
    expect(dialog.locator("#conteo-preview")).to_contain_text("Conteo: Los Ases 15 cartas, Caballos de Espada 23.")
    shot(page, "conteo-table")
    tablet.tap("#dlg-conteo [data-confirm=conteo]")
    # 23 cards: 6 + 3 = 9, rounded up to 10 (Art. 15h).
    expect(score(page, "B")).to_have_text("10")
    assert ClaimEntry.objects.get(mesa=mesa, seq=3).claim == {"kind": "conteo", "cards": {"A": 15, "B": 23}}


def test_juego_y_veo_with_the_levante_checker(live_server, page, mesa):
    open_screen(page, live_server, mesa)
    tablet = Tablet(page)
    tablet.claim("mano")
    tablet.claim("caida", "B")
    # A protests: B's 7 took a 5 from a table of 5 and 2 (Art. 5).
    page.tap("[data-open=jyv][data-pair=A]")
    dialog = page.locator("#dlg-jyv")
    for rank in ("5", "2"):
        dialog.locator(f".rank-btn[data-rank='{rank}']").tap()
    dialog.locator("[data-target=played]").tap()
    dialog.locator(".rank-btn[data-rank='7']").tap()
    dialog.locator(".rank-btn[data-rank='5']").tap()  # goes to the cards taken
    expect(dialog.locator("[data-show=table]")).to_have_text("52")
    expect(dialog.locator("[data-show=taken]")).to_have_text("5")
    dialog.locator("[data-jyv=check]").tap()
    expect(dialog.locator(".verdict")).to_contain_text("Levante indebido.")
    expect(dialog.locator(".verdict")).to_contain_text("Art. 5A")
    expect(dialog.locator(".jyv-result li")).to_have_text(["2 5 · Limpia"])
    dialog.locator("input[name=against][value='2']").check()
    shot(page, "juego-y-veo")
    tablet.tap("#dlg-jyv [data-confirm=upheld]")
    assert ClaimEntry.objects.get(mesa=mesa, seq=3).claim == {
        "kind": "juego_y_veo",
        "pair": "A",
        "upheld": True,
        "against": 2,
    }
    # Upheld (riobamba): +2 to A, and B loses what it claimed with that play (Art. 5).
    expect(score(page, "A")).to_have_text("2")
    expect(score(page, "B")).to_have_text("0")


def small_targets(page, scope):
    sizes = page.eval_on_selector_all(
        f"{scope} button:not([hidden]), {scope} input, {scope} select, {scope} a",
        # A radio or checkbox is tapped through its whole row, label included.
        "els => els.filter(e => e.offsetParent).map(e => e.closest('.form-check') || e)"
        ".map(e => [e.textContent.trim(), e.getBoundingClientRect().width, e.getBoundingClientRect().height])",
    )
    assert sizes
    return [s for s in sizes if s[1] < 48 or s[2] < 48]


def test_touch_targets_are_at_least_48px(live_server, page, mesa):
    log_claims(mesa, ZAPATERIA[:-1])
    open_screen(page, live_server, mesa)
    assert not small_targets(page, ".screen")
    page.tap(".screen [data-open=conteo][data-counted=A]")
    assert not small_targets(page, "#dlg-conteo")
    page.tap("#dlg-conteo [data-close]")
    page.tap("[data-open=jyv][data-pair=A]")
    for rank in ("3", "4", "J"):
        page.tap(f"#dlg-jyv .rank-btn[data-rank='{rank}']")
    assert not small_targets(page, "#dlg-jyv")
    page.tap("#dlg-jyv [data-close]")
    Tablet(page, mesa.last_seq).claim("caida", "A")  # the mesa ends: the signature pads
    assert not small_targets(page, "#signatures")


def test_phone_portrait_fits_the_width(live_server, browser, browser_context_args, mesa):
    context = browser.new_context(
        **{**browser_context_args, "viewport": {"width": 390, "height": 844}, "is_mobile": True}
    )
    page = context.new_page()
    open_screen(page, live_server, mesa)
    Tablet(page).claim("mano")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "phone", full_page=True)
    page.tap("[data-open=jyv][data-pair=B]")
    assert page.evaluate("document.querySelector('#dlg-jyv').getBoundingClientRect().right") <= 390
    shot(page, "phone-juego-y-veo")
    context.close()


def test_english_screen(live_server, page, mesa):
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    open_screen(page, live_server, mesa)
    expect(page.locator("[data-claim=mano]")).to_have_text("Mano")
    tablet = Tablet(page)
    tablet.press(".screen [data-claim=caida][data-pair=A]")  # before any mano: the engine would refuse it
    expect(page.locator("#refusal .refusal-text")).to_have_text("Caída · Los Ases: No hand is being played. (Art. 3e)")
    expect(page.locator("#refusal [data-action=anyway]")).to_have_text("Log it anyway")
    tablet.press("#refusal [data-action=ack]")
    expect(page.locator("#net .net-status")).to_have_text("Online")
    # Every claim button says what the log and the planilla say: the engine's one table, in English.
    english, spanish = kind_labels("en"), kind_labels("es")
    buttons = page.locator(".screen #controls [data-claim], .screen #controls [data-open]")
    for index in range(buttons.count()):
        button = buttons.nth(index)
        kind = (
            button.get_attribute("data-claim")
            or {"jyv": "juego_y_veo", "conteo": "conteo"}[button.get_attribute("data-open")]
        )
        text = button.inner_text().strip()
        assert text.startswith(english[kind]), (kind, text)
        if english[kind] != spanish[kind]:
            assert spanish[kind] not in text, (kind, text)
    expect(page.locator("[data-claim=mal_repartidas]")).to_have_text("Misdeal")
    expect(page.locator("#st-phase")).to_have_text("Deal the data; tap “Mano” once the cards are dealt.")
    tablet.claim("mal_repartidas")  # found while dealing (Art. 4)
    expect(page.locator("#log .log-item").first.locator(".log-what")).to_have_text("Misdeal")
    shot(page, "english")


def test_the_list_leads_to_the_screen(live_server, page, mesa):
    login(page.context, live_server, mesa.juez)
    page.goto(f"{live_server.url}/mesa/")
    shot(page, "list")
    page.locator(".mesa-list a").filter(has_text="Los Ases").tap()
    expect(page).to_have_url(f"{live_server.url}/mesa/{mesa.pk}/")
    expect(page.locator(".pair-card[data-side=A] .pair-name")).to_have_text("Los Ases")


def test_the_screen_weighs_under_150_kb_gzipped_and_stays_on_its_host(live_server, page, mesa):
    """The test server sends files as they are; each is counted as gzip would send it."""
    sizes, hosts = {}, set()
    page.on("request", lambda request: hosts.add(request.url.split("/")[2]))
    page.on("response", lambda response: sizes.__setitem__(response.url, len(gzip.compress(response.body(), 6))))
    open_screen(page, live_server, mesa)
    page.wait_for_load_state("networkidle")
    assert hosts == {live_server.url.split("/")[2]}
    total = sum(sizes.values())
    print(f"screen: {len(sizes)} responses, {total / 1024:.1f} KB gzipped")
    assert total < 150 * 1024, sizes


def test_pichincha_names_the_zapatero_and_the_mesa_goes_on(live_server, page, mesa):
    mesa.championship.ruleset_profile = "pichincha"
    mesa.championship.save()
    log_claims(mesa, ZAPATERIA)
    open_screen(page, live_server, mesa)
    # Zapatería is a title after any chica there (002 Art. 16).
    expect(page.locator("#banner")).to_have_text(
        "Chica para Los Ases (40–0) · Caballos de Espada queda zapatero (menos de 10 puntos)"
    )
    expect(page.locator("#controls")).to_be_visible()
    # The variant claims of that profile: cuatro caídas scores, caída en ronda does not.
    expect(page.locator("[data-claim=cuatro_caidas]")).to_have_count(2)
    expect(page.locator("[data-claim=caida_en_ronda]")).to_have_count(0)


def test_client_ids_without_crypto_random_uuid(live_server, page, mesa):
    """A tablet on the venue's LAN over plain http has no crypto.randomUUID."""
    page.add_init_script("delete Crypto.prototype.randomUUID")
    open_screen(page, live_server, mesa)
    assert page.evaluate("typeof crypto.randomUUID") == "undefined"
    tablet = Tablet(page)
    tablet.claim("mano")
    tablet.claim("caida", "A")
    ids = [e.client_id for e in ClaimEntry.objects.filter(mesa=mesa)]
    assert len(ids) == 2 and all(i.version == 4 for i in ids) and ids[0] != ids[1]
