/* The projector runs by itself: live.js keeps its calls and rows up to date
 * (and keeps trying while the network is down); this pages through the
 * mesas when they do not fit on the screen. */

const main = document.getElementById("projector");
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

showPage();
document.addEventListener("live:updated", showPage);
setInterval(() => { page += 1; showPage(); }, pageSeconds);
