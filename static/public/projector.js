/* The projector runs by itself: it reloads the calls and the board every 5 s
 * (and keeps trying while the network is down), and pages through the mesas
 * when they do not fit on the screen. */

const main = document.getElementById("projector");
const updated = document.getElementById("updated");
const pageSeconds = Number(main.dataset.pageSeconds) * 1000;
let page = 0;

function rowsPerPage() {
  const first = main.querySelector("tbody tr");
  if (!first) return 1;
  const top = main.querySelector("table.board").getBoundingClientRect().top;
  return Math.max(1, Math.floor((window.innerHeight - top - 60) / first.getBoundingClientRect().height));
}

function showPage() {
  const rows = [...main.querySelectorAll("tbody tr")];
  rows.forEach((row) => { row.hidden = false; });
  const size = rowsPerPage();
  const pages = Math.max(1, Math.ceil(rows.length / size));
  page %= pages;
  rows.forEach((row, index) => { row.hidden = Math.floor(index / size) !== page; });
}

async function refresh() {
  try {
    const response = await fetch(main.dataset.refresh, { credentials: "same-origin" });
    if (!response.ok) throw new Error(response.status);
    main.innerHTML = await response.text();
    showPage();
    updated.textContent = new Date().toLocaleTimeString();
  } catch (error) {
    updated.textContent = "⚠ " + new Date().toLocaleTimeString();
  } finally {
    setTimeout(refresh, 5000);
  }
}

showPage();
setInterval(() => { page += 1; showPage(); }, pageSeconds);
setTimeout(refresh, 5000);
