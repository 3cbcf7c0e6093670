/* Behaviour every page shares, bound here rather than in on...= attributes
   (the Content Security Policy allows no inline script):
   - a <select data-autosubmit> sends its form when changed (the language menu);
   - a <button data-print> prints the page (the table's PIN card);
   - an <input data-filter-rows="selector"> hides, as one types, the rows whose text lacks what is typed;
   - an element with data-poll="url" shows the HTML fragment at url, fetched now and every data-every seconds
     (a failed fetch keeps what it showed);
   - a <form data-in-place> in a table row (or a list's item) is sent without leaving the page: the server answers with the
     row again and the other parts of the page it changed, by id ({"row": html, "parts": {id: html}}), which
     replace theirs; should that fail, the form is sent as a plain form (its intent is explicit, so sending it
     again is harmless). */
(function () {
  "use strict";
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
  document.querySelectorAll("button[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
  document.querySelectorAll("input[data-filter-rows]").forEach(function (input) {
    input.addEventListener("input", function () {
      var wanted = input.value.trim().toLocaleLowerCase();
      document.querySelectorAll(input.dataset.filterRows).forEach(function (row) {
        row.hidden = wanted !== "" && row.textContent.toLocaleLowerCase().indexOf(wanted) === -1;
      });
    });
  });
  document.querySelectorAll("[data-poll]").forEach(function (element) {
    function fetchIt() {
      fetch(element.dataset.poll, { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
        .then(function (html) { element.innerHTML = html; })
        .catch(function () {});
    }
    fetchIt();
    setInterval(fetchIt, 1000 * Number(element.dataset.every || 10));
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-in-place]")) { return; }
    event.preventDefault();
    var body = new FormData(form);
    if (event.submitter && event.submitter.name) { body.append(event.submitter.name, event.submitter.value); }
    form.querySelectorAll("button").forEach(function (button) { button.disabled = true; });
    fetch(form.action, { method: "POST", body: body, headers: { "X-Requested-With": "fetch" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error(response.status); }
        return response.json();
      })
      .then(function (answer) {
        var row = form.closest("tr, li");
        row.insertAdjacentHTML("afterend", answer.row);
        var fresh = row.nextElementSibling;
        row.remove();
        Object.keys(answer.parts || {}).forEach(function (id) {
          var part = document.getElementById(id);
          if (part) { part.outerHTML = answer.parts[id]; }
        });
        // The queue's next pair is typed into the search box: it is ready, its text selected.
        var search = document.querySelector("input[data-filter-rows]");
        if (search && search.value) { search.focus(); search.select(); }
        fresh.classList.add("table-success");
      })
      .catch(function () {
        // Sent the plain way: the redirect brings the page back at this row.
        var fallback = document.createElement("input");
        fallback.type = "hidden";
        fallback.name = event.submitter ? event.submitter.name : "";
        fallback.value = event.submitter ? event.submitter.value : "";
        form.appendChild(fallback);
        HTMLFormElement.prototype.submit.call(form);
      });
  });
})();
