"""A model-based test of the juez's screen (issue 32, item 6).

A Hypothesis state machine drives the real screen in Chromium, with touch,
on a phone (390x844), a tablet in portrait (768x1024) and in landscape
(1024x768), against the live server, the claim log and the engine, through
random sequences of:

- deliberate taps on any control in sight (claim buttons, Mano, the conteo's
  keypad, the juego y veo dialog, confirmations, "Anotarla igual",
  Cancelar...), a finger's while after the last;
- double taps on any of them, 30 to 400 ms apart at one place;
- dialogs opened and left (Escape, Cancelar, a tap elsewhere);
- a conteo typed in full, the other pair's count by hand too;
- another device's claims, suspensions and resumptions, logged through the
  claim log's domain function or its API, also while the juez's finger is
  down on the screen;
- the network dropping and coming back (``context.set_offline``);
- an appeal filed at the table, the form and the way back; and one filed on purpose whenever a decision may
  still be appealed (the random walk alone filed none).

Time is the page's clock (``page.clock``, paused; it moves only when the
test moves it), so that double taps are 30-400 ms apart for the page
however loaded the machine. After every step:

1. every claim in the log was meant by one deliberate action of the
   sequence: each claim this tablet made (its client id) appeared right
   after one action, a deliberate one whose target could mean that claim
   (the claim button's kind and pair, the conteo's cards on display, the
   juego y veo's choice...); the second tap of a double tap means nothing;
2. nothing the engine refuses was logged by a single tap: a refused entry of
   this tablet was confirmed by "Anotarla igual";
3. the board shows the engine's replay of the log (scores, chicas, chica,
   data, mano), whenever the tablet is up to date;
4. no control, counter or the connection line moved while the finger was
   down, and every control lies on the screen without scrolling;
5. the conteo's keypad types what was tapped: a key twice for two taps.

Bounds: ``EXAMPLES`` (10) sequences of ``STEPS`` (30) steps each, no
shrinking (a failure prints its sequence as it ran), derandomized so that
every run tries the same sequences: about two and a half minutes on two cores
loaded to 6.
"""

import datetime
import re
import time
import uuid

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)
from playwright.sync_api import expect

from refereeing.appeals import procedure as appeals
from refereeing.claimlog import log as claimlog
from refereeing.models import Appeal, ClaimEntry
from tests.refereeing.juezscreen.conftest import SIZES, make_pair
from tests.support.claims import api_client, claim_body, post_json
from tests.support.tablet import draw, login
from tournament.models import Mesa

pytestmark = [pytest.mark.browser, pytest.mark.fuzz, pytest.mark.django_db(transaction=True)]

EXAMPLES = 10
STEPS = 30
START = datetime.datetime(2026, 11, 26, 10, 0, tzinfo=datetime.UTC)

# What another device logs: the play, the deal, the conteo, a suspension and its resumption, a void of the last claim.
FOREIGN = [
    {"kind": "mano"},
    {"kind": "caida", "pair": "A"},
    {"kind": "caida", "pair": "B"},
    {"kind": "limpia", "pair": "B"},
    {"kind": "conteo", "cards": {"A": 22, "B": 18}},
    {"kind": "suspender"},
    {"kind": "reanudar"},
    "void",
]

# Every control in sight that a finger can reach now: those of the open dialog, else the screen's (the status bar's
# Sonido, not its links, which leave the page). For each: where to tap, and what it is.
CONTROLS_JS = r"""() => {
  const open = [...document.querySelectorAll('dialog[open]')].pop();
  const groups = open ? [open.querySelectorAll('button, label, input[type=radio]')]
    : ['#controls button', '#refusal button', '.overlay .notice button', '.statusbar [data-open=settings]']
      .map(sel => document.querySelectorAll(sel));
  return groups.flatMap(found => [...found]).filter(e => {
    if (e.disabled || !e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') return false;
    if (e.matches('input') && e.labels && e.labels.length) return false;  // its label is the target
    const r = e.getBoundingClientRect();
    if (!(r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth)) return false;
    // Only what a finger reaches there: not a card chip scrolled out of its row.
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && (hit === e || e.contains(hit) || (e.matches('label') && hit === document.getElementById(e.htmlFor)));
  }).map(e => {
    const r = e.getBoundingClientRect();
    const d = Object.assign({}, e.dataset);
    const input = e.matches('label') ? document.getElementById(e.htmlFor) : null;
    return {x: r.left + r.width / 2, y: r.top + r.height / 2, dialog: open ? open.id : null,
            data: d, text: e.textContent.trim(), value: input ? input.value : (e.value || ''),
            radio: !!(input && input.type === 'radio')};
  });
}"""

# Where every control, counter and the connection line is (layout boxes: a button pressed under the finger shrinks
# a little, which is no move), each keyed by the element itself for as long as it lives, with its words: one whose
# words changed (the dealer, the connection) is compared with itself no more.
LAYOUT_JS = r"""() => {
  window.__mid = window.__mid || 0;
  const sel = 'button, label, a.btn, #st-chica, #st-data, #st-mano, #st-dealer, #st-phase, .net-status, .board';
  const out = {};
  for (const e of document.querySelectorAll(sel)) {
    if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
    if (!e.__mid) e.__mid = ++window.__mid;
    let x = 0, y = 0;
    for (let n = e; n; n = n.offsetParent) { x += n.offsetLeft; y += n.offsetTop; }
    out[e.__mid] = [e.id || e.className, e.textContent.trim(), x, y, e.offsetWidth, e.offsetHeight];
  }
  return out;
}"""

# What the conteo's dialog shows: the pair counted, both counts, the field being typed.
# Where each control is, for the way back from an appeal.
# In the page, not in their parent: a message above the board moves the whole grid of buttons, not one in it. Layout
# boxes, not the screen's: a button still pressed under the finger shrinks a little, which is no move.
PLACES_JS = r"""els => els.filter(e => e.getClientRects().length).map(e => {
  let x = 0, y = 0;
  for (let n = e; n; n = n.offsetParent) { x += n.offsetLeft; y += n.offsetTop; }
  return [y, x, e.offsetWidth];
})"""

# The connection line and the centre panel's counters, found by where they are (the screen draws the connection line
# anew at every change): each with its words and its box.
STATUS_JS = r"""() => Object.fromEntries(['.net-status', '#st-chica', '#st-data', '#st-mano', '#st-dealer', '#st-phase']
  .map(sel => [sel, document.querySelector(sel)]).filter(([, e]) => e && e.getClientRects().length)
  .map(([sel, e]) => { const r = e.getBoundingClientRect(); return [sel, [e.textContent.trim(), r.x, r.y, r.width, r.height]]; }))"""

# The open dialog and where each of its controls is on the screen (the dialog itself may move: boxes, not offsets),
# each keyed by the element itself, with its words.
DIALOG_JS = r"""() => {
  const d = [...document.querySelectorAll('dialog[open]')].pop();
  if (!d) return null;
  window.__mid = window.__mid || 0;
  const boxes = {};
  for (const e of d.querySelectorAll('button, label')) {
    if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
    if (!e.__mid) e.__mid = ++window.__mid;
    const r = e.getBoundingClientRect();
    boxes[e.__mid] = [e.textContent.trim(), r.x, r.y, r.width, r.height];
  }
  return {id: d.id, boxes};
}"""

CONTEO_JS = r"""() => {
  const d = document.getElementById('dlg-conteo');
  const side = d.querySelector('.seg [data-counted].active').dataset.counted;
  const num = (n) => d.querySelector('[data-num=' + n + ']').textContent;
  return {side, counted: num('counted'), rest: num('rest'), target: d.querySelector('[data-field].active').dataset.field};
}"""


def typed(value, key, deck=40):
    """What the keypad makes of ``value`` on a tap of ``key`` (static/refereeing/mesa/conteo.js): two digits at
    most, a third starts again; a count over the data's cards is not typed."""
    value = "" if value == "–" else value
    new = value[:-1] if key == "del" else (key if len(value) >= 2 else value + key)
    return value if new and int(new) > deck else new


class ScreenMachine(RuleBasedStateMachine):
    env = None  # set by the test: the browser, the context's arguments, the live server, a counter

    # -- opening --------------------------------------------------------------------------------------------

    @initialize(size=st.sampled_from(sorted(SIZES)))
    def open_screen(self, size):
        env = self.env
        env["count"] += 1
        n = env["count"]
        juez = get_user_model().objects.create_user(f"juez-model-{n}", first_name="Rosa")
        self.mesa = Mesa.objects.create(
            championship=env["championship"],
            round=1,
            position=100 + n,
            pair_a=env["pairs"][0],
            pair_b=env["pairs"][1],
            table_number=100 + n,
            juez=juez,
            status=Mesa.Status.READY,
        )
        self.size = size
        self.context = env["browser"].new_context(
            **{**env["args"], "viewport": SIZES[size], "is_mobile": size == "phone", "service_workers": "block"}
        )
        login(self.context, env["live_server"], juez)
        page = self.page = self.context.new_page()
        self.inflight = 0
        page.on("request", self._sent)
        page.on("requestfinished", self._done)
        page.on("requestfailed", self._done)
        page.add_init_script("window.__clicks = 0; addEventListener('click', () => { window.__clicks++; }, true);")
        self.now = START
        page.clock.install(time=self.now)
        self.now += datetime.timedelta(seconds=1)
        page.clock.pause_at(self.now)
        page.goto(f"{env['live_server'].url}/mesa/{self.mesa.pk}/")
        expect(page.locator("#st-chica")).not_to_have_text("–")
        self.cdp = self.context.new_cdp_session(page)
        self.offline = False
        self.seen = set()  # the client ids of this tablet's claims, once credited to an action
        self.foreign = set()  # the client ids of the other device's claims
        self.deliberate = set()  # the client ids confirmed by "Anotarla igual"
        self.offer = None  # what "Anotarla igual" would log, as far as the model knows
        self.confirm_for = None  # what the confirm dialog was opened for
        self.protester = None  # the pair protesting, in the juego y veo dialog
        self.against = None  # the protested play chosen there
        self.steps = []
        self.settle()

    def teardown(self):
        if getattr(self, "context", None) is None:
            return
        try:
            if self.offline:
                self.context.set_offline(False)
                self.offline = False
            # Back online, every question answered by leaving it (a conflict's claims and a held one are dropped):
            # the tablet catches up, and its board is the engine's.
            for _ in range(8):
                if self.page.locator("dialog[open]").count():
                    self.advance(900)
                    self.page.keyboard.press("Escape")
                self.advance(1100)
                if self.up_to_date():
                    break
            assert self.up_to_date(), f"the tablet never caught up after {self.steps}"
            self.check_board()
        finally:
            self.context.close()
            self.context = None

    # -- the page, and time ----------------------------------------------------------------------------------

    def _sent(self, request):
        self.inflight += 1

    def _done(self, request):
        self.inflight -= 1

    def settle(self, at_least=0.03):
        """Let the page finish what the network and its event loop have for it (in real time; its clock stands)."""
        deadline = time.monotonic() + 10
        quiet = 0
        started = time.monotonic()
        while time.monotonic() < deadline:
            self.page.wait_for_timeout(15)
            quiet = quiet + 1 if self.inflight <= 0 else 0
            if quiet >= 3 and time.monotonic() - started >= at_least:
                return

    def advance(self, ms):
        self.now += datetime.timedelta(milliseconds=ms)
        self.page.clock.run_for(ms)
        self.settle()

    def controls(self):
        return self.page.evaluate(CONTROLS_JS)

    def layout(self):
        return self.page.evaluate(LAYOUT_JS)

    def touch(self, control, hold=40, while_down=None):
        """A finger on ``control`` for ``hold`` ms of the page's time: nothing may move under it meanwhile."""
        point = {"x": control["x"], "y": control["y"]}
        clicks = self.page.evaluate("window.__clicks")
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        before = self.layout()
        if while_down:
            while_down()
        self.now += datetime.timedelta(milliseconds=hold)
        self.page.clock.run_for(hold)
        self.settle()
        after = self.layout()
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        moved = {
            key: (box, after[key])
            for key, box in before.items()
            if key in after and after[key][1] == box[1] and after[key] != box
        }
        assert not moved, f"moved under the finger: {moved}"
        # The tap's click (none after a long press), then what it set off.
        deadline = time.monotonic() + 2
        while self.page.evaluate("window.__clicks") == clicks and time.monotonic() < deadline:
            self.page.wait_for_timeout(10)
        self.settle(0.05)

    # -- what an action means ----------------------------------------------------------------------------------

    def meaning(self, control):
        """The claim a deliberate tap on ``control`` may log (a dict of the fields it must have), or None."""
        data, dialog = control["data"], control["dialog"]
        if dialog is None and "claim" in data and "ask" not in data:
            return {"kind": data["claim"], **({"pair": data["pair"]} if "pair" in data else {})}
        if data.get("action") == "anyway":
            return self.offer or {}
        if dialog == "dlg-confirm" and data.get("label") == "yes":
            return self.confirm_for
        if dialog == "dlg-conteo" and ("confirm" in data or "anyway" in data):
            shown = self.page.evaluate(CONTEO_JS)
            other = "B" if shown["side"] == "A" else "A"
            if shown["counted"] == "–" or shown["rest"] == "–":
                return None
            return {"kind": "conteo", "cards": {shown["side"]: int(shown["counted"]), other: int(shown["rest"])}}
        if dialog == "dlg-jyv" and data.get("confirm") in ("upheld", "rejected"):
            upheld = data["confirm"] == "upheld"
            return {"kind": "juego_y_veo", "pair": self.protester, "upheld": upheld, "against": self.against}
        return None

    def before_tap(self, control):
        """What the model learns from a deliberate tap before it lands: the dialog it opens, the choice it makes."""
        data, dialog = control["data"], control["dialog"]
        if dialog is None and data.get("ask"):
            self.confirm_for = {"kind": data["claim"]}
        elif dialog is None and data.get("action") == "undo":
            text = self.page.evaluate(
                "(document.querySelector('#log .log-item:not(.is-waiting) .log-seq') || {}).textContent"
            )
            self.confirm_for = {"kind": "void"} if text else None
        elif dialog is None and data.get("open") == "jyv":
            self.protester, self.against = data.get("pair"), None
        elif dialog == "dlg-jyv" and control["radio"]:
            self.against = int(control["value"])
        if dialog == "dlg-confirm" and data.get("label") == "yes":
            text = self.page.locator("#dlg-confirm .confirm-text").inner_text()
            if "no se envió" in text:
                # A claim held back because the engine would refuse it: "Anotarla igual" confirms it.
                queue = self.queue()
                if queue:
                    self.deliberate.add(queue[0]["client_id"])
                self.confirm_for = None
            elif "Otra tableta" in text or text.startswith("¿Quitar"):
                self.confirm_for = None
            elif self.confirm_for and self.confirm_for["kind"] == "void":
                target = re.search(r"n\.º (\d+)", text)
                self.confirm_for = {"kind": "void", "target": int(target.group(1))} if target else None

    def after_tap(self, meant):
        """An offer of "Anotarla igual" over the board answers the tap that asked for a refused claim."""
        if self.page.locator("#refusal [data-action=anyway]").is_visible():
            if meant is not None or self.offer is None:
                self.offer = meant or self.confirm_for
        else:
            self.offer = None

    def queue(self):
        return self.page.evaluate(f"JSON.parse(localStorage.getItem('mesa.{self.mesa.pk}.queue') || '[]')")

    def new_claims(self):
        """The claims of this tablet that appeared since the last look: waiting on it, or in the log already."""
        mine = {item["client_id"]: item["claim"] for item in self.queue()}
        for entry in ClaimEntry.objects.filter(mesa=self.mesa).values("client_id", "claim"):
            if str(entry["client_id"]) not in self.foreign:
                mine[str(entry["client_id"])] = entry["claim"]
        fresh = {cid: claim for cid, claim in mine.items() if cid not in self.seen}
        self.seen |= set(fresh)
        return fresh

    def credit(self, fresh, meant, what, deliberate=False):
        """Invariant 1: the claims that appeared are what the action meant, one at most."""
        assert len(fresh) <= 1, f"{what} logged {len(fresh)} claims: {list(fresh.values())}"
        for cid, claim in fresh.items():
            assert meant is not None, f"{what} logged {claim}, which it did not mean"
            wrong = {k: (v, claim.get(k)) for k, v in meant.items() if claim.get(k) != v}
            assert not wrong, f"{what} logged {claim}, not what it meant ({meant})"
            if deliberate:
                self.deliberate.add(cid)

    def check_status(self, before, what):
        """Invariant 4, across a tap: the connection line and the counters whose words stayed stay where they were
        (a claim waiting, "Por enviar: 1", has its room kept)."""
        after = self.page.evaluate(STATUS_JS)
        moved = {sel: (box, after[sel]) for sel, box in before.items() if sel in after and after[sel][0] == box[0]}
        # Less than a pixel is the text's antialiasing, not a reflow.
        moved = {sel: (a, b) for sel, (a, b) in moved.items() if any(abs(x - y) > 1 for x, y in zip(a[1:], b[1:]))}
        assert not moved, f"{what} reflowed the status line or the counters: {moved}"

    def check_dialog(self, before, what):
        """Invariant 4, across a tap in a dialog: its controls stay where they were while it fills (its preview and
        messages have their room), so that a second tap lands where the first did. A question that follows another
        in the confirm dialog is a new one: not compared."""
        after = self.page.evaluate(DIALOG_JS)
        if not before or not after or before["id"] != after["id"] or after["id"] == "dlg-confirm":
            return
        moved = {
            key: (box, after["boxes"][key])
            for key, box in before["boxes"].items()
            if key in after["boxes"]
            and after["boxes"][key][0] == box[0]
            and any(abs(a - b) > 1 for a, b in zip(box[1:], after["boxes"][key][1:], strict=True))
        }
        assert not moved, f"{what} moved the controls of {after['id']}: {moved}"

    def check_conteo_preview(self):
        """Invariant 2, at its source: the conteo is previewed whatever was typed, by hand too: with both counts in
        and the tablet up to date, the dialog shows the engine's answer, not a promise of one."""
        if not self.page.locator("#dlg-conteo").is_visible() or not self.up_to_date() or self.queue():
            return
        shown = self.page.evaluate(CONTEO_JS)
        if "–" in (shown["counted"], shown["rest"]):
            return
        text = self.page.locator("#conteo-preview").inner_text()
        assert "Consultando al motor" not in text and "El motor responde antes" not in text, (
            f"the conteo {shown} is not previewed: {text!r}"
        )

    def open_dialog(self):
        return self.page.evaluate("() => ([...document.querySelectorAll('dialog[open]')].pop() || {}).id || null")

    def check_closed(self, dialog, last_seq, what):
        """Item 1: a dialog that logs a claim, open when another device's claim reaches the tablet, closes (and
        says why): what it would log was chosen on a mesa that is no more."""
        if dialog not in ("dlg-conteo", "dlg-jyv") or not self.up_to_date():
            return
        if Mesa.objects.get(pk=self.mesa.pk).last_seq == last_seq:
            return  # the other device's claim was not taken: nothing changed
        assert self.open_dialog() != dialog, f"{dialog} stayed open after {what}"

    def check_offer(self, control):
        """Invariant 2, at its source: the juego y veo dialog offers exactly the plays the engine says the protester
        may protest now (whenever the tablet opened it on the log as it is, with nothing waiting)."""
        if control["dialog"] is not None or control["data"].get("open") != "jyv":
            return
        if not self.page.locator("#dlg-jyv").is_visible() or not self.up_to_date() or self.queue():
            return
        offered = self.page.eval_on_selector_all("#dlg-jyv input[name=against]", "els => els.map(e => +e.value)")
        engine = claimlog.mesa_replay(Mesa.objects.get(pk=self.mesa.pk)).state.protestable[control["data"]["pair"]]
        assert offered == engine, f"the juego y veo dialog offered {offered}, the engine's protestable is {engine}"

    def check_key(self, control, taps, before):
        """Invariant 5: a key of the conteo's keypad typed what was tapped (a tap dropped types nothing)."""
        key = control["data"].get("key")
        if control["dialog"] != "dlg-conteo" or key is None:
            return
        if not self.page.locator("#dlg-conteo").is_visible():
            return
        field = before["target"]
        value = "" if before[field] == "–" else before[field]
        # The other pair's count shows the data's cards left until it is typed, and then as a number ("07" is 7).
        starts, shown_as = ([value], str) if field == "counted" else ([value, ""], lambda v: v and str(int(v)))
        allowed = set()
        for typing in starts:
            allowed.add(shown_as(typing))
            for _ in range(taps):
                typing = typed(typing, key)
                allowed.add(shown_as(typing))
        shown = self.page.evaluate(CONTEO_JS)[field]
        now = "" if shown == "–" else shown
        assert now in allowed, f"{taps} tap(s) on {key} typed {now!r} from {value!r}"

    # -- actions ---------------------------------------------------------------------------------------------

    def pick(self, data):
        found = self.controls()
        if not found:
            return None
        return data.draw(st.sampled_from(found), label="control")

    def tap_control(self, control, taps=1, apart=0, while_down=None, gap=900):
        """A deliberate tap on ``control`` after ``gap`` ms, and for a double tap a second one ``apart`` ms later."""
        before_key = self.page.evaluate(CONTEO_JS) if control["dialog"] == "dlg-conteo" else None
        self.before_tap(control)
        meant = self.meaning(control)
        data = control["data"]
        deliberate = data.get("action") == "anyway" or "anyway" in data
        what = f"a tap on {data or control['text']!r}"
        self.advance(gap)
        status = self.page.evaluate(STATUS_JS)
        dialog = self.page.evaluate(DIALOG_JS)
        self.touch(control, hold=min(40, apart // 2) if taps == 2 else 40, while_down=while_down)
        self.credit(self.new_claims(), meant, what, deliberate)
        self.after_tap(meant)
        self.check_status(status, what)
        self.check_dialog(dialog, what)
        self.check_offer(control)
        self.check_conteo_preview()
        if taps == 2:
            # The second tap of a double tap, at the same place: it means nothing more.
            hold = min(40, apart // 2)
            self.now += datetime.timedelta(milliseconds=apart - 2 * hold)
            self.page.clock.run_for(apart - 2 * hold)
            self.touch(control, hold=hold)
            self.credit(self.new_claims(), None, f"the second tap, {apart} ms later, of {what}")
        if before_key is not None:
            self.check_key(control, taps, before_key)

    def log_foreign(self, choice, through_api):
        last = ClaimEntry.objects.filter(mesa=self.mesa).order_by("-seq").first()
        if choice == "void" and last is None:
            return
        claim = {"kind": "void", "target": last.seq} if choice == "void" else choice
        cid = str(uuid.uuid4())
        self.foreign.add(cid)
        if through_api:
            post_json(api_client(self.mesa.juez), f"/api/mesas/{self.mesa.pk}/claims/", claim_body(claim, cid))
        else:
            try:
                claimlog.record_claim(self.mesa, claim, cid, user=self.mesa.juez)
            except claimlog.ClaimLogError:
                pass

    def act_tap(self, data):
        control = self.pick(data)
        if control:
            gap = data.draw(st.integers(900, 2500), label="gap")
            self.steps.append(("tap", control["data"] or control["text"]))
            self.tap_control(control, gap=gap)

    def act_double_tap(self, data):
        control = self.pick(data)
        if control:
            apart = data.draw(st.integers(30, 400), label="apart")
            self.steps.append(("double tap", apart, control["data"] or control["text"]))
            self.tap_control(control, 2, apart=apart)

    def act_conteo_by_hand(self, data):
        """A conteo typed in full, the other pair's count by hand too (cards left on the table or set aside): the
        dialog opened if need be, a count, the other pair's field, its count; each a deliberate tap."""
        if self.open_dialog() not in (None, "dlg-conteo"):
            return
        keys = data.draw(st.sampled_from(["1", "2", "3"]), label="count"), data.draw(st.sampled_from("0123456789"))
        self.steps.append(("conteo by hand", *keys))
        wanted = [{"key": keys[0]}, {"field": "rest"}, {"key": keys[1]}]
        if self.open_dialog() is None:
            wanted.insert(0, {"open": "conteo", "counted": data.draw(st.sampled_from("AB"), label="counted")})
        for fields in wanted:
            control = next((c for c in self.controls() if fields.items() <= c["data"].items()), None)
            if control is None:
                return
            self.tap_control(control)

    def act_another_device(self, data):
        choice = data.draw(st.sampled_from(FOREIGN), label="claim")
        through_api = data.draw(st.booleans(), label="through the API")
        self.steps.append(("another device", choice, "API" if through_api else "claim log"))
        dialog, last_seq = self.open_dialog(), Mesa.objects.get(pk=self.mesa.pk).last_seq
        self.log_foreign(choice, through_api)
        self.advance(data.draw(st.integers(0, 2500), label="then"))
        self.check_closed(dialog, last_seq, f"another device's {choice}")

    def act_another_device_under_the_finger(self, data):
        """The juez's finger is down on a control when the other device's claim reaches the tablet (its poll)."""
        control = self.pick(data)
        if control:
            choice = data.draw(st.sampled_from(FOREIGN), label="claim")
            self.steps.append(("another device under the finger", choice, control["data"] or control["text"]))

            def arrives():
                self.log_foreign(choice, False)
                self.now += datetime.timedelta(milliseconds=1100)
                self.page.clock.run_for(1100)

            dialog, last_seq = self.open_dialog(), Mesa.objects.get(pk=self.mesa.pk).last_seq
            self.tap_control(control, while_down=arrives)
            self.check_closed(dialog, last_seq, f"another device's {choice} under the finger")

    def act_network(self, data):
        self.offline = not self.offline
        self.steps.append(("offline" if self.offline else "online",))
        self.context.set_offline(self.offline)
        self.advance(data.draw(st.integers(0, 2500), label="then"))

    def act_time_passes(self, data):
        ms = data.draw(st.integers(300, 3000), label="ms")
        self.steps.append(("wait", ms))
        self.advance(ms)

    def act_escape(self, data):
        """A dialog left without a choice."""
        if self.page.locator("dialog[open]").count():
            self.steps.append(("escape",))
            self.advance(900)
            self.page.keyboard.press("Escape")
            self.settle()
            self.credit(self.new_claims(), None, "Escape")

    def act_appeal(self, data):
        """The appeal form opened when the juez happens to, then left or filed."""
        if self.offline or self.page.locator("#net .net-waiting").count():
            return
        file = data.draw(st.booleans(), label="file it")
        self.appeal(data, file and self.appeal_choice(data) or False)

    def act_file_appeal(self, data):
        """An appeal filed on purpose, the whole form (the pair, the decision, the reason, the signature drawn): the
        random walk alone filed none in 232 steps, so the way back from one went unchecked (#32, copy 3a'). Whenever
        the log has a decision a pair may still appeal, the juez brings the tablet online and lets its queue go."""
        page = self.page
        if self.offline:
            self.offline = False
            self.steps.append(("online",))
            self.context.set_offline(False)
            self.advance(1100)
        for _ in range(3):
            if not page.locator("#net .net-waiting").count():
                break
            if page.locator("dialog[open]").count():
                self.advance(900)
                page.keyboard.press("Escape")
            self.advance(1100)
        if page.locator("#net .net-waiting").count():
            return
        choice = self.appeal_choice(data)
        if choice:
            self.appeal(data, choice)

    def appeal_choice(self, data):
        """A pair and a decision it may still appeal (a pair appeals a decision once), or None."""
        filed = set(Appeal.objects.filter(mesa=self.mesa).values_list("pair", "seq"))
        open_to = [(p, e.seq) for e in appeals.open_decisions(self.mesa) for p in "AB" if (p, e.seq) not in filed]
        return data.draw(st.sampled_from(open_to), label="appeal") if open_to else None

    def appeal(self, data, file):
        """The appeal form fits the screen without scrolling; the way back moves no control, the message included.
        ``file`` is the pair and decision to appeal, or False to leave the form."""
        page = self.page
        if not page.locator(".statusbar .btn-appeal").count() or page.locator(".is-finished").count():
            return
        # A dialog open is left first, as the juez would (the appeal button lies under it).
        for _ in range(3):
            if not page.locator("dialog[open]").count():
                break
            self.advance(900)
            page.keyboard.press("Escape")
            self.settle()
        if page.locator("dialog[open]").count():
            return
        self.steps.append(("appeal", file or "left"))
        before = page.eval_on_selector_all("#controls button", PLACES_JS)
        self.advance(900)
        # The juez taps once the screen has settled: what it changed by itself (a poll's news) takes no tap for a while.
        for _ in range(5):
            if not page.locator("html[data-settling]").count():
                break
            self.advance(300)
        with page.expect_navigation():
            page.locator(".statusbar .btn-appeal").tap()
        form = page.locator("#appeal-form")
        filed = bool(file and form.count())
        if filed:
            pair, seq = file
            page.locator(f"label[for={page.locator(f'input[name=pair][value={pair}]').get_attribute('id')}]").tap()
            page.select_option("select[name=seq]", str(seq))
            draw(page, page.locator("#appeal-pad"), finger=True)
            page.fill("textarea[name=reason]", "Carta ya jugada.")
            self.fits(".appeal-actions")
            count = Appeal.objects.filter(mesa=self.mesa).count()
            form.locator("button[type=submit]").tap()
        else:
            self.fits("main .btn")
            page.locator("main a.btn").last.tap()
        expect(page.locator("#st-chica")).not_to_have_text("–")
        self.cdp = self.context.new_cdp_session(page)
        self.settle(0.1)
        if filed:
            assert Appeal.objects.filter(mesa=self.mesa).count() == count + 1, f"the appeal {file} was not filed"
        assert page.eval_on_selector_all("#controls button", PLACES_JS) == before, (
            "a control moved when the screen came back from the appeal"
        )
        self.credit(self.new_claims(), None, "the appeal")
        self.env["appeals"] += filed
        if filed:
            self.env["appealed"].add(self.mesa.pk)

    def fits(self, last):
        page = self.page
        box = page.locator(last).last.bounding_box()
        assert page.evaluate("scrollY") == 0 and box["y"] + box["height"] <= page.viewport_size["height"], (
            f"the appeal form needs scrolling on the {self.size}: {last} at {box}"
        )

    # What the juez does, and how often: mostly taps, a double tap one step in four, the rest now and then.
    ACTIONS = (
        ["tap"] * 8
        + ["double_tap"] * 5
        + ["another_device"] * 2
        + ["another_device_under_the_finger"] * 2
        + ["network", "time_passes", "escape", "conteo_by_hand"]
        + ["appeal"] * 3
        + ["file_appeal"] * 5
    )

    @rule(data=st.data())
    def step(self, data):
        self.env["steps"] += 1
        action = data.draw(st.sampled_from(self.ACTIONS), label="action")
        getattr(self, "act_" + action)(data)

    # -- invariants --------------------------------------------------------------------------------------------

    @invariant()
    def nothing_refused_by_a_single_tap(self):
        """Invariant 2."""
        if not hasattr(self, "mesa"):
            return
        for entry in ClaimEntry.objects.filter(mesa=self.mesa, accepted=False):
            cid = str(entry.client_id)
            if cid not in self.foreign:
                assert cid in self.deliberate, f"#{entry.seq} {entry.claim} was refused and logged by a single tap"

    @invariant()
    def every_control_in_sight(self):
        """Invariant 4, second half: nothing to scroll to reach a control."""
        if not hasattr(self, "page"):
            return
        outside = self.page.evaluate(
            # A card chip of the juego y veo dialog scrolls in its row, by design.
            """() => scrollY === 0 && [...document.querySelectorAll('#controls button, dialog[open] button:not(.card-chip)')]
              .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
              .filter(e => { const r = e.getBoundingClientRect(); return r.bottom > innerHeight + 1 || r.right > innerWidth + 1; })
              .map(e => e.textContent.trim())"""
        )
        assert outside == [], f"out of sight on the {self.size}: {outside}"

    def up_to_date(self):
        page = self.page
        if self.offline or page.locator("#net .net-waiting").count() or page.locator(".provisional").is_visible():
            return False
        last = self.mesa.__class__.objects.get(pk=self.mesa.pk).last_seq
        shown = page.evaluate("(document.querySelector('#log .log-item:not(.is-waiting) .log-seq') || {}).textContent")
        return shown == (f"#{last}" if last else None) or (not last and shown in (None, ""))

    @invariant()
    def the_board_is_the_engines(self):
        """Invariant 3, whenever the tablet has every claim of the log."""
        if hasattr(self, "page") and self.up_to_date():
            self.check_board()

    def check_board(self):
        state = claimlog.mesa_replay(Mesa.objects.get(pk=self.mesa.pk)).state
        page = self.page
        shown = page.evaluate(
            """() => ({scores: [...document.querySelectorAll('.pair-card .score-num')].map(e => +e.textContent),
                chicas: [...document.querySelectorAll('.pair-card .chicas-num')].map(e => +e.textContent),
                counters: ['chica', 'data', 'mano'].map(n => document.getElementById('st-' + n).textContent)})"""
        )
        counters = state.counters
        assert shown == {
            "scores": [state.scores["A"], state.scores["B"]],
            "chicas": [state.chicas["A"], state.chicas["B"]],
            "counters": [str(counters["chica"]), str(counters["data"]), str(counters["mano"])],
        }, f"the board is not the engine's after {self.steps}"


def test_every_tap_means_one_thing(browser, browser_context_args, live_server, championship):
    pairs = (
        make_pair(championship, "Los Ases", ["Ana Chávez", "Luis Paredes"]),
        make_pair(championship, "Caballos de Espada", ["Marta Yépez", "Jorge Cando"]),
    )
    ScreenMachine.env = {
        "browser": browser,
        "args": browser_context_args,
        "live_server": live_server,
        "championship": championship,
        "pairs": pairs,
        "count": 0,
        "steps": 0,
        "appeals": 0,
        "appealed": set(),  # the sequences (their mesas) that filed one at least
    }
    started = time.monotonic()
    try:
        run_state_machine_as_test(
            ScreenMachine,
            settings=settings(
                max_examples=EXAMPLES,
                stateful_step_count=STEPS,
                deadline=None,
                derandomize=True,
                database=None,
                phases=[Phase.generate],
                suppress_health_check=list(HealthCheck),
            ),
        )
    finally:
        # Said on a failure too: how far the test got before it caught something is part of the evidence (#32).
        env = ScreenMachine.env
        took = time.monotonic() - started
        print(
            f"{env['count']} sequences, {env['steps']} steps, {env['appeals']} appeals filed "
            f"(in {len(env['appealed'])} sequences) in {took:.0f} s"
        )
