/* The Director's list of appeals is fetched again every 15 s and put in
 * place of the old one when it changed. A whole-page refresh lost the
 * reader's place (and a screen reader's) every 15 s. */

const lists = document.getElementById("appeal-lists");
const EVERY_MS = 15000;
let shown = null; // the HTML last put in place (the browser's innerHTML is not the server's text)

async function refresh() {
  try {
    const response = await fetch(lists.dataset.refresh, { credentials: "same-origin" });
    if (response.redirected) {
      location.reload(); // signed out meanwhile: the page itself goes to the sign-in
      return;
    }
    if (!response.ok) return;
    const html = await response.text();
    if (html !== shown) {
      lists.innerHTML = html;
      shown = html;
    }
  } catch {
    // Offline: the next turn tries again.
  }
}

if (lists) setInterval(refresh, EVERY_MS);
