/* The screen's words: the server's catalogue (Django's i18n, in the page's
 * config), the rule set's kind labels (the engine's one table, from the
 * API's `ruleset.labels`) and the engine's own messages. No table of words
 * lives in the script. */

import { cfg, st } from "./state.js";

const S = cfg.strings;

export function t(key, params) {
  let text = S[key] || key;
  Object.keys(params || {}).forEach((name) => { text = text.split("%(" + name + ")s").join(params[name]); });
  return text;
}

export function pairName(side) { return cfg.pairs[side] || side; }

export function label(kind) { return st.labels[kind] || cfg.labels[kind] || kind; }

/* The engine's words for a decision, in the page's language. */
export function message(decision) {
  return (cfg.lang === "en" ? decision.message_en : decision.message) || decision.message || "";
}

/* A decision's words as nodes: the text, and its article linked to the rules page. */
export function messageNodes(decision) {
  const nodes = [document.createTextNode(message(decision))];
  if (decision.article) {
    nodes.push(document.createTextNode(" ("));
    if (decision.article_url) {
      const a = document.createElement("a");
      a.href = decision.article_url;
      a.target = "_blank";
      a.rel = "noopener";
      a.textContent = decision.article;
      nodes.push(a);
    } else {
      nodes.push(document.createTextNode(decision.article));
    }
    nodes.push(document.createTextNode(")"));
  }
  return nodes;
}

export function signed(n) { return (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n); }

export function describe(claim) {
  let text = label(claim.kind);
  if (claim.pair) text += " · " + pairName(claim.pair);
  if (claim.player) text += " " + claim.pair + claim.player;
  if (claim.kind === "conteo") text += " · A " + claim.cards.A + " – B " + claim.cards.B;
  if (claim.kind === "juego_y_veo") {
    text += " · " + t(claim.upheld ? "log.upheld" : "log.rejected");
    if (claim.against) text += " " + t("log.against", { seq: claim.against });
  }
  if (claim.kind === "void") text += " #" + claim.target;
  return text;
}

export function pointsText(points) {
  return ["A", "B"].filter((s) => points && points[s])
    .map((s) => pairName(s) + " " + signed(points[s])).join(" · ");
}
