/* The juez's screen: logs claims by taps and shows the engine's answers.
 *
 * Terms
 * -----
 * entry     A claim the server has logged: {seq, claim, decision}; the
 *           decision is the engine's (accepted, points, message, article).
 * queue     Claims tapped on this device and not yet confirmed by the
 *           server, kept in localStorage (they survive a reload) with their
 *           client id, sent one at a time and in order. A retry carries the
 *           same client id, so the server never logs a claim twice.
 * expected seq  The seq the claim should get: one after the last seq this
 *           device had seen when it was tapped (and after the claims queued
 *           before it). If another device logged claims in between, the
 *           server answers 409 and logs nothing.
 * 409       The screen does not guess: it brings in the other device's
 *           claims, stops sending and asks the juez whether to send the
 *           waiting claims after them (their intent is kept, with the new
 *           expected seq) or to discard them, since the other device may
 *           have logged the same play.
 * provisional  While claims wait (offline, or during a 409 question) the
 *           score shown is the server's plus their nominal points
 *           (points.js), marked PROVISIONAL; the server's answers replace it.
 *
 * Polling `claims/?after=<seq>` every second shows another device's claims
 * within two seconds.
 */
(function () {
  "use strict";

  var cfg = JSON.parse(document.getElementById("screen-config").textContent);
  var P = window.CuarentaPoints;
  var S = cfg.strings;
  var POLL_MS = 1000;
  var KEY = "mesa." + cfg.mesa + ".";
  var screen = document.getElementById("screen");

  var server = { state: null, last_seq: 0 };
  var entries = {};           // seq -> entry
  var queue = readStore("queue") || [];
  var inflight = null;        // client id being posted
  var online = true;
  var conflict = false;       // a 409 waits for the juez's answer
  var forbidden = false;
  var timer = null;

  /* ---------- words ---------- */

  function t(key, params) {
    var text = S[key] || key;
    Object.keys(params || {}).forEach(function (name) {
      text = text.split("%(" + name + ")s").join(params[name]);
    });
    return text;
  }
  function pairName(side) { return cfg.pairs[side] || side; }
  function message(decision) {
    var text = (cfg.lang === "en" ? decision.message_en : decision.message) || decision.message || "";
    return decision.article ? text + " (" + decision.article + ")" : text;
  }
  function signed(n) { return (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n); }
  function describe(claim) {
    var text = t("kind." + claim.kind);
    if (claim.pair) text += " · " + pairName(claim.pair);
    if (claim.player) text += " " + claim.pair + claim.player;
    if (claim.kind === "conteo") text += " · " + pairName("A") + " " + claim.cards.A + " – " + claim.cards.B + " " + pairName("B");
    if (claim.kind === "juego_y_veo") {
      text += " · " + t(claim.upheld ? "log.upheld" : "log.rejected");
      if (claim.against) text += " " + t("log.against", { seq: claim.against });
    }
    if (claim.kind === "void") text += " #" + claim.target;
    return text;
  }
  function pointsText(points) {
    return ["A", "B"].filter(function (s) { return points && points[s]; })
      .map(function (s) { return pairName(s) + " " + signed(points[s]); }).join(" · ");
  }

  /* ---------- storage ---------- */

  function readStore(name) {
    try { return JSON.parse(localStorage.getItem(KEY + name)); } catch (e) { return null; }
  }
  function writeStore(name, value) {
    try { localStorage.setItem(KEY + name, JSON.stringify(value)); } catch (e) { /* full or private: keep going in memory */ }
  }
  function saveQueue() { writeStore("queue", queue); }
  function saveSnapshot() {
    writeStore("snapshot", { state: server.state, last_seq: server.last_seq, entries: sortedEntries() });
  }

  /* A random version-4 UUID. crypto.randomUUID exists only in secure
   * contexts (https, 127.0.0.1); a tablet on the venue's LAN over plain
   * http has only crypto.getRandomValues. */
  function uuid() {
    var c = window.crypto;
    if (c && c.randomUUID) return c.randomUUID();
    var b = new Uint8Array(16);
    if (c && c.getRandomValues) c.getRandomValues(b);
    else for (var i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  /* ---------- the server ---------- */

  function csrfToken() {
    var meta = document.querySelector("meta[name=csrf-token]");
    var cookie = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return cookie ? decodeURIComponent(cookie[1]) : meta ? meta.content : "";
  }

  function api(method, url, body) {
    var options = { method: method, credentials: "same-origin", headers: { Accept: "application/json" } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.headers["X-CSRFToken"] = csrfToken();
      options.body = JSON.stringify(body);
    }
    return fetch(url, options).then(function (response) {
      setOnline(true);
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { status: response.status, data: data };
      });
    }, function (error) {
      setOnline(false);
      throw error;
    });
  }

  function setOnline(value) {
    if (online !== value) { online = value; render(); }
  }

  function sortedEntries() {
    return Object.keys(entries).map(Number).sort(function (a, b) { return a - b; })
      .map(function (seq) { return entries[seq]; });
  }

  /* Take in entries and the state that follows them; forget the queued
   * claims the server turns out to hold already (a lost answer). */
  function absorb(newEntries, state, lastSeq) {
    (newEntries || []).forEach(function (entry) {
      entries[entry.seq] = entry;
      if (entry.client_id) dropQueued(entry.client_id);
    });
    // A mesa that has logged nothing yet has an empty state on the server;
    // the full one comes with the mesa itself.
    if (state && state.scores && lastSeq >= server.last_seq) {
      server.state = state;
      server.last_seq = lastSeq;
    }
    saveSnapshot();
    render();
  }

  function dropQueued(clientId) {
    var before = queue.length;
    queue = queue.filter(function (item) { return item.client_id !== clientId; });
    if (queue.length !== before) saveQueue();
  }

  function handleForbidden() {
    forbidden = true;
    showRefusal(t("net.forbidden"));
    render();
  }

  function loadMesa() {
    return api("GET", cfg.api.mesa).then(function (r) {
      if (r.status === 403) return handleForbidden();
      if (r.status !== 200) return showRefusal(t("net.error", { status: r.status }));
      entries = {};
      absorb((r.data.decisions || []).map(function (d) {
        return { seq: d.seq, claim: d.claim, decision: d.decision, client_id: d.client_id };
      }), r.data.state, r.data.last_seq);
      server.state = r.data.state;
      server.last_seq = r.data.last_seq;
      render();
    }).catch(function () { /* offline: the snapshot stays on screen */ });
  }

  function poll() {
    return api("GET", cfg.api.claims + "?after=" + server.last_seq).then(function (r) {
      if (r.status === 403) return handleForbidden();
      if (r.status === 200) absorb(r.data.entries, r.data.state, r.data.last_seq);
    }).catch(function () {});
  }

  /* Post the queued claims, oldest first, until the queue is empty, the
   * network fails, or the server answers 409. */
  function flush() {
    if (inflight || conflict || forbidden || !queue.length) return Promise.resolve();
    var item = queue[0];
    inflight = item.client_id;
    var body = { client_id: item.client_id, claim: item.claim, expected_seq: item.expected_seq };
    return api("POST", cfg.api.claims, body).then(function (r) {
      inflight = null;
      if (r.status === 200 || r.status === 201) {
        var gap = r.data.entry.seq > server.last_seq + 1;
        dropQueued(item.client_id);
        absorb([r.data.entry], r.data.state, r.data.last_seq);
        if (!r.data.entry.decision.accepted) showRefusal(message(r.data.entry.decision), r.data.entry);
        if (gap) poll();
        return flush();
      }
      if (r.status === 409 && r.data.last_seq !== undefined) return onConflict(r.data);
      if (r.status === 403) return handleForbidden();
      if (r.status === 400 || r.status === 409) {
        // Malformed, or the mesa takes no claims now (409 without a state:
        // not started, finished): the server will never take this claim.
        // Say so, drop it, go on.
        dropQueued(item.client_id);
        rebase();
        showRefusal(describe(item.claim) + ": " + (r.data.detail || t("net.error", { status: 400 })));
        render();
        return flush();
      }
      showRefusal(t("net.error", { status: r.status }));
    }, function () { inflight = null; render(); });
  }

  /* Number the waiting claims after the server's last seq. */
  function rebase() {
    queue.forEach(function (item, i) { item.expected_seq = server.last_seq + i + 1; });
    saveQueue();
  }

  function onConflict(data) {
    conflict = true;
    var seen = server.last_seq;
    server.state = data.state || server.state;
    return poll().then(function () {
      render();
      if (!queue.length) { conflict = false; return; }
      var theirs = sortedEntries().filter(function (e) { return e.seq >= Math.min(seen + 1, queue[0].expected_seq); });
      var list = document.createElement("div");
      list.appendChild(listOf(t("conflict.body"), theirs.map(function (e) { return "#" + e.seq + " " + describe(e.claim); })));
      list.appendChild(listOf(t("conflict.waiting"), queue.map(function (q) { return describe(q.claim); })));
      return ask(t("conflict.title"), list, t("conflict.send"), t("conflict.discard")).then(function (send) {
        if (!send) { queue = []; saveQueue(); }
        rebase();
        conflict = false;
        render();
        return flush();
      });
    });
  }

  function listOf(title, lines) {
    var box = document.createElement("div");
    var head = document.createElement("p");
    head.className = "mb-1 fw-semibold";
    head.textContent = title;
    var ul = document.createElement("ul");
    lines.forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      ul.appendChild(li);
    });
    box.appendChild(head);
    box.appendChild(ul);
    return box;
  }

  function take(claim) {
    if (forbidden) return;
    queue.push({ client_id: uuid(), claim: claim, expected_seq: server.last_seq + queue.length + 1 });
    saveQueue();
    hideRefusal();
    render();
    flush();
  }

  function tick() {
    clearTimeout(timer);
    var work = queue.length && !conflict ? flush() : (conflict ? Promise.resolve() : poll());
    work.then(function () { timer = setTimeout(tick, POLL_MS); });
  }

  /* ---------- drawing ---------- */

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  function chips(box, score) {
    box.textContent = "";
    var perros = Math.floor(score / 10), tantos = Math.floor((score % 10) / 2);
    for (var i = 0; i < perros; i++) box.appendChild(chip("perro"));
    for (var j = 0; j < tantos; j++) box.appendChild(chip("tanto"));
  }
  function chip(kind) {
    var el = document.createElement("span");
    el.className = "chip " + kind;
    return el;
  }

  function isProvisional() { return queue.length > 0 && (!online || conflict); }

  function voidedSeqs() {
    var voided = {};
    sortedEntries().forEach(function (e) {
      if (e.claim.kind === "void" && e.decision.accepted) voided[e.claim.target] = e.seq;
      if (e.decision.voided_by) voided[e.seq] = e.decision.voided_by;
    });
    return voided;
  }

  function appliedPoints(seq) {
    var e = entries[seq];
    return e && e.decision.accepted ? e.decision.points : null;
  }

  function render() {
    var state = server.state;
    screen.dataset.loading = state ? "" : "1";
    renderNet();
    if (!state) return;
    var provisional = isProvisional();
    var scores = provisional
      ? P.provisional(state, queue.map(function (q) { return q.claim; }), cfg.rules, appliedPoints)
      : state.scores;
    screen.classList.toggle("is-provisional", provisional);
    $(".provisional").hidden = !provisional;
    ["A", "B"].forEach(function (side) {
      var card = $(".pair-card[data-side=" + side + "]");
      chips($(".chips", card), scores[side]);
      $(".score-num", card).textContent = scores[side];
      $(".chicas-num", card).textContent = state.chicas[side];
      $(".dealer-chip", card).hidden = !state.dealer || state.dealer.charAt(0) !== side;
      card.classList.toggle("is-winner", state.winner === side);
    });
    $("#st-chica").textContent = state.chica;
    $("#st-data").textContent = state.data;
    $("#st-mano").textContent = state.mano;
    $("#st-dealer").textContent = state.dealer ? (cfg.seats[state.dealer] || "") + " (" + state.dealer + ")" : "–";
    var phase = state.suspended ? t("banner.suspended") : state.phase === "deal" ? t("phase.deal") : state.phase === "conteo" ? t("phase.conteo") : "";
    $("#st-phase").textContent = phase;
    screen.classList.toggle("is-suspended", !!state.suspended);
    screen.classList.toggle("is-finished", !!state.finished);
    screen.dataset.phase = state.phase;
    $("[data-claim=suspender]").hidden = !!state.suspended;
    $("[data-claim=reanudar]").hidden = !state.suspended;
    $("#controls").hidden = !!state.finished;
    $("#signatures").hidden = !state.finished;
    renderBanner(state);
    renderLog();
  }

  function renderNet() {
    var net = $("#net");
    net.textContent = "";
    var status = document.createElement("span");
    status.className = "net-status " + (online ? "on" : "off");
    status.textContent = online ? t("net.online") : t("net.offline");
    net.appendChild(status);
    if (queue.length) {
      var waiting = document.createElement("span");
      waiting.className = "net-waiting";
      waiting.textContent = t("net.waiting", { count: queue.length });
      net.appendChild(waiting);
    }
    screen.classList.toggle("is-offline", !online);
  }

  function renderBanner(state) {
    var banner = $("#banner"), text = "", kind = "";
    var results = state.chica_results || [];
    var last = results[results.length - 1];
    if (state.finished && state.winner) {
      text = t(state.zapateria ? "banner.mesa_zapateria" : "banner.mesa", { pair: pairName(state.winner) });
      kind = "mesa";
    } else if (last && state.scores.A === 0 && state.scores.B === 0) {
      text = t("banner.chica", { pair: pairName(last.winner) }) + " (" + last.scores.A + "–" + last.scores.B + ")";
      if (last.zapatero) text += " · " + t("banner.zapatero", { pair: pairName(last.zapatero) });
      kind = "chica";
    } else if (state.suspended) {
      text = t("banner.suspended");
      kind = "suspended";
    }
    banner.hidden = !text;
    banner.textContent = text;
    banner.className = "banner banner-" + kind;
  }

  function renderLog() {
    var ol = $("#log"), voided = voidedSeqs();
    ol.textContent = "";
    queue.slice().reverse().forEach(function (item) {
      ol.appendChild(logItem("⏳", describe(item.claim), t("log.waiting"), "is-waiting"));
    });
    var list = sortedEntries().reverse().slice(0, 12);
    list.forEach(function (e) {
      var d = e.decision, cls = d.accepted ? "" : "is-refused";
      var note = d.accepted ? pointsText(d.points) : t("log.refused") + ": " + message(d);
      if (d.accepted && d.message) note = (note ? note + " · " : "") + message(d);
      if (voided[e.seq]) cls += " is-voided";
      ol.appendChild(logItem("#" + e.seq, describe(e.claim), note, cls, voided[e.seq]));
    });
    if (!queue.length && !list.length) ol.appendChild(logItem("", t("log.empty"), "", "is-empty"));
  }

  function logItem(num, what, note, cls, voidedBy) {
    var li = document.createElement("li");
    li.className = "log-item " + (cls || "");
    [["log-seq", num], ["log-what", what], ["log-note", note]].forEach(function (part) {
      var span = document.createElement("span");
      span.className = part[0];
      span.textContent = part[1];
      li.appendChild(span);
    });
    if (voidedBy) {
      var tag = document.createElement("span");
      tag.className = "log-voided";
      tag.textContent = t("log.voided") + " (#" + voidedBy + ")";
      li.appendChild(tag);
    }
    return li;
  }

  var refusalTimer = null;
  function showRefusal(text) {
    var box = $("#refusal");
    box.textContent = text;
    box.hidden = false;
    clearTimeout(refusalTimer);
    refusalTimer = setTimeout(hideRefusal, 10000);
  }
  function hideRefusal() { $("#refusal").hidden = true; }
  $("#refusal").addEventListener("click", hideRefusal);
  $("#banner").addEventListener("click", function () { $("#banner").hidden = true; });

  /* ---------- dialogs ---------- */

  /* Ask a yes/no question in the confirm dialog; resolves to true for yes. */
  function ask(text, extra, yes, no) {
    var dlg = $("#dlg-confirm");
    $(".confirm-text", dlg).textContent = text;
    var box = $(".confirm-extra", dlg);
    box.textContent = "";
    if (extra) box.appendChild(extra);
    $("[data-label=yes]", dlg).textContent = yes || t("yes");
    $("[data-label=no]", dlg).textContent = no || t("no");
    return new Promise(function (resolve) {
      dlg.addEventListener("close", function done() {
        dlg.removeEventListener("close", done);
        resolve(dlg.returnValue === "yes");
      });
      dlg.returnValue = "";
      dlg.showModal();
    });
  }

  $$("dialog [data-close]").forEach(function (button) {
    button.addEventListener("click", function () { button.closest("dialog").close(); });
  });

  function undo() {
    var waiting = queue.filter(function (q) { return q.client_id !== inflight; });
    if (waiting.length) {
      var last = waiting[waiting.length - 1];
      return ask(t("undo.confirm", { seq: "⏳", what: describe(last.claim) })).then(function (yes) {
        if (!yes) return;
        dropQueued(last.client_id);
        rebase();
        render();
      });
    }
    var voided = voidedSeqs();
    var target = sortedEntries().reverse().filter(function (e) {
      return e.decision.accepted && e.claim.kind !== "void" && !voided[e.seq];
    })[0];
    if (!target) return showRefusal(t("undo.nothing"));
    return ask(t("undo.confirm", { seq: target.seq, what: describe(target.claim) })).then(function (yes) {
      if (yes) take({ kind: "void", target: target.seq });
    });
  }

  /* Conteo (Art. 3g, 15f-h): the juez counts one pair's cards; the other
   * pair has the rest, minus the cards left on the table or set aside. */
  var conteo = { counted: "A" };
  var dlgConteo = $("#dlg-conteo");
  function conteoValues() {
    var f = $("form", dlgConteo);
    return { counted: parseInt(f.counted.value, 10), other: parseInt(f.other.value, 10) };
  }
  function conteoDraw() {
    var f = $("form", dlgConteo), v = conteoValues(), side = conteo.counted, rest = P.other(side);
    $$("[data-counted]", dlgConteo).forEach(function (b) {
      var on = b.dataset.counted === side;
      b.classList.toggle("active", on);
      b.setAttribute("aria-checked", on);
    });
    $("#lbl-counted").textContent = t("conteo.cards_of", { pair: pairName(side) });
    $("#lbl-other").textContent = t("conteo.cards_of", { pair: pairName(rest) });
    var preview = $("#conteo-preview"), ok = v.counted >= 0 && v.other >= 0 && v.counted + v.other <= 40;
    f.table.value = ok ? 40 - v.counted - v.other : "–";
    $("[data-confirm=conteo]", dlgConteo).disabled = !ok;
    if (!ok) { preview.textContent = t("conteo.bad"); return; }
    var cards = {};
    cards[side] = v.counted;
    cards[rest] = v.other;
    var result = P.conteo(cards, P.nextDealingPair(server.state));
    var notes = result.notes.map(function (n) { return t("conteo." + n.note) + " → " + pairName(n.pair); });
    preview.textContent = t("conteo.preview") + ": " + ["A", "B"].map(function (s) {
      return pairName(s) + " " + signed(result.points[s]);
    }).join(" · ") + (notes.length ? " (" + notes.join("; ") + ")" : "");
  }
  function clampCards(n) { return Math.max(0, Math.min(40, isNaN(n) ? 0 : n)); }
  function conteoSet(name, value) {
    var f = $("form", dlgConteo), v = conteoValues();
    var table = clampCards(40 - v.counted - v.other);
    value = clampCards(value);
    f[name].value = value;
    // Changing the counted pair keeps the table's cards; the other pair gets the rest.
    if (name === "counted") f.other.value = Math.max(0, 40 - value - table);
    conteoDraw();
  }
  function openConteo() {
    var f = $("form", dlgConteo);
    f.counted.value = 20;
    f.other.value = 20;
    conteoDraw();
    dlgConteo.showModal();
  }
  $$("[data-counted]", dlgConteo).forEach(function (b) {
    b.addEventListener("click", function () {
      conteo.counted = b.dataset.counted;
      var f = $("form", dlgConteo), v = conteoValues();
      f.counted.value = v.other;
      f.other.value = v.counted;
      conteoDraw();
    });
  });
  $$("[data-step]", dlgConteo).forEach(function (b) {
    b.addEventListener("click", function () {
      var name = b.dataset.step;
      conteoSet(name, parseInt($("form", dlgConteo)[name].value, 10) + parseInt(b.dataset.by, 10));
    });
  });
  ["counted", "other"].forEach(function (name) {
    $("form", dlgConteo)[name].addEventListener("input", function (e) {
      conteoSet(name, parseInt(e.target.value, 10));
    });
  });
  $("[data-confirm=conteo]", dlgConteo).addEventListener("click", function () {
    var v = conteoValues(), cards = {};
    cards[conteo.counted] = v.counted;
    cards[P.other(conteo.counted)] = v.other;
    dlgConteo.close();
    take({ kind: "conteo", cards: cards });
  });

  /* Juego y veo (Art. 5): the cards on the table, the card played (and the
   * one played before it, for a caída) and the cards taken go to the
   * levante checker, which lists the legal captures; the juez decides. */
  var dlgJyv = $("#dlg-jyv");
  var jyv = null;
  function openJyv(protester) {
    jyv = { protester: protester, table: [], played: null, previous: null, taken: [], target: "table" };
    $(".jyv-protester", dlgJyv).textContent = pairName(protester);
    $(".jyv-result", dlgJyv).textContent = "";
    var select = $("select[name=against]", dlgJyv), voided = voidedSeqs();
    select.textContent = "";
    select.appendChild(new Option(t("jyv.against_none"), ""));
    var offender = P.other(protester);
    var claims = sortedEntries().reverse().filter(function (e) {
      return e.decision.accepted && !voided[e.seq] && e.claim.pair === offender && e.decision.points[offender] > 0;
    }).slice(0, 8);
    claims.forEach(function (e, i) {
      select.appendChild(new Option("#" + e.seq + " " + describe(e.claim), e.seq, false, i === 0));
    });
    jyvDraw();
    dlgJyv.showModal();
  }
  function jyvDraw() {
    $$("[data-target]", dlgJyv).forEach(function (b) {
      var on = b.dataset.target === jyv.target;
      b.classList.toggle("active", on);
      b.setAttribute("aria-checked", on);
    });
    ["table", "played", "previous", "taken"].forEach(function (name) {
      var dd = $("[data-show=" + name + "]", dlgJyv), cards = [].concat(jyv[name] || []);
      dd.textContent = "";
      cards.forEach(function (rank, i) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "btn card-chip";
        b.textContent = rank;
        b.addEventListener("click", function () {
          if (Array.isArray(jyv[name])) jyv[name].splice(i, 1); else jyv[name] = null;
          jyvDraw();
        });
        dd.appendChild(b);
      });
    });
  }
  $$("[data-target]", dlgJyv).forEach(function (b) {
    b.addEventListener("click", function () { jyv.target = b.dataset.target; jyvDraw(); });
  });
  $$("[data-rank]", dlgJyv).forEach(function (b) {
    b.addEventListener("click", function () {
      var rank = b.dataset.rank;
      if (Array.isArray(jyv[jyv.target])) jyv[jyv.target].push(rank); else jyv[jyv.target] = rank;
      // The previous card is the one still lying on the table (Art. 6).
      if (jyv.target === "previous" && jyv.table.indexOf(rank) < 0) jyv.table.push(rank);
      // After the card played, the next taps most likely name the cards taken.
      if (jyv.target === "played" || jyv.target === "previous") jyv.target = jyv.target === "played" ? "taken" : "table";
      jyvDraw();
    });
  });
  $("[data-jyv=check]", dlgJyv).addEventListener("click", function () {
    var out = $(".jyv-result", dlgJyv);
    if (!jyv.played) { out.textContent = t("jyv.pick_played"); return; }
    var body = { table: jyv.table, played: jyv.played, previous: jyv.previous, taken: jyv.taken };
    api("POST", cfg.api.levante, body).then(function (r) {
      if (r.status !== 200) { out.textContent = r.data.detail || t("jyv.check_failed"); return; }
      showLevante(out, r.data);
    }, function () { out.textContent = t("jyv.check_failed"); });
  });
  /* The checker's answer: its verdict on the cards taken ("legal",
   * "incomplete" or "illegal", with the reason and article) and every legal
   * capture, marked caída or limpia. */
  function showLevante(out, data) {
    out.textContent = "";
    var verdict = data.verdict || {};
    var v = document.createElement("p");
    v.className = "verdict " + (verdict.verdict === "legal" ? "ok" : "bad");
    v.textContent = t("jyv.verdict_" + verdict.verdict) + " " + message(verdict);
    out.appendChild(v);
    var captures = data.captures || [];
    out.appendChild(listOf(t("jyv.legal"), captures.length ? captures.map(function (c) {
      return c.cards.join(" ") + (c.caida ? " · " + t("kind.caida") : "") + (c.limpia ? " · " + t("kind.limpia") : "");
    }) : [t("jyv.none")]));
  }
  ["upheld", "rejected"].forEach(function (outcome) {
    $("[data-confirm=" + outcome + "]", dlgJyv).addEventListener("click", function () {
      var claim = { kind: "juego_y_veo", pair: jyv.protester, upheld: outcome === "upheld" };
      var against = $("select[name=against]", dlgJyv).value;
      if (against) claim.against = parseInt(against, 10);
      dlgJyv.close();
      take(claim);
    });
  });

  /* ---------- the buttons ---------- */

  $$("[data-claim]").forEach(function (button) {
    button.addEventListener("click", function () {
      var claim = { kind: button.dataset.claim };
      if (button.dataset.pair) claim.pair = button.dataset.pair;
      take(claim);
    });
  });
  $$("[data-open=jyv]").forEach(function (button) {
    button.addEventListener("click", function () { openJyv(button.dataset.pair); });
  });
  $("[data-open=conteo]").addEventListener("click", openConteo);
  $("[data-action=undo]").addEventListener("click", undo);

  /* ---------- signatures (Art. 16) ---------- */

  $$(".sign-card").forEach(function (form) {
    var role = form.dataset.role, pad = new window.SignaturePad($("canvas", form)), status = $(".sign-status", form);
    function done(name) {
      form.classList.add("is-signed");
      $$("input, button", form).forEach(function (el) { el.disabled = true; });
      status.textContent = "✓ " + t("sign.done") + (name ? " · " + name : "");
    }
    if (cfg.signed[role]) done(cfg.signed[role]);
    $("[data-sign=clear]", form).addEventListener("click", function () { pad.clear(); });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var name = form.signer.value.trim();
      if (!name) { status.textContent = t("sign.name"); return; }
      if (pad.isEmpty()) { status.textContent = t("sign.empty"); return; }
      api("POST", cfg.api.signatures, { role: role, name: name, image: pad.toDataURL() }).then(function (r) {
        if (r.status === 200 || r.status === 201) done(name);
        else status.textContent = t("sign.failed") + " " + (r.data.detail || "");
      }, function () { status.textContent = t("sign.failed") + " " + t("net.offline"); });
    });
  });

  /* ---------- start ---------- */

  var snapshot = readStore("snapshot");
  if (snapshot && snapshot.state) {
    server.state = snapshot.state;
    server.last_seq = snapshot.last_seq;
    (snapshot.entries || []).forEach(function (e) { entries[e.seq] = e; });
  }
  render();
  window.addEventListener("online", tick);
  loadMesa().then(tick);
})();
