/* A tablet opened with the table's PIN follows its table: it asks the
 * server every few seconds what the table shows now, goes to the next mesa
 * seated there when the server says this one is done with, and otherwise
 * shows what the server says (who plays there next, or that nothing is
 * seated yet). Which mesa and when is the server's to say. */

import { api } from "./net.js";
import { cfg } from "./state.js";

const FOLLOW_MS = 10000;

function look() {
  return api("GET", cfg.follow + "?shown=" + cfg.mesa).then(({ status, data }) => {
    if (status !== 200) return;
    if (data.go && data.url) { window.location.assign(data.url); return; }
    const news = document.getElementById("table-news");
    const next = data.mesa !== cfg.mesa;
    news.hidden = !next;
    news.querySelector("span").textContent = next ? data.message : "";
    const link = news.querySelector("a");
    link.hidden = !data.url;
    if (data.url) link.href = data.url;
  }, () => {});
}

if (cfg.follow) {
  look();
  window.setInterval(look, FOLLOW_MS);
}
