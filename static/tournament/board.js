// The control board reloads its rows every few seconds, without moving the page.
(function () {
  var body = document.querySelector("tbody[data-refresh]");
  if (!body) return;
  var stamp = document.getElementById("board-updated");
  function refresh() {
    fetch(body.dataset.refresh, {credentials: "same-origin"})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        body.innerHTML = html;
        if (stamp) stamp.textContent = new Date().toLocaleTimeString();
      })
      .catch(function () { if (stamp) stamp.textContent = "⚠"; })
      .finally(function () { setTimeout(refresh, 5000); });
  }
  setTimeout(refresh, 5000);
})();
