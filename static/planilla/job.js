/* The progress of a batch of planillas (templates/planilla/job.html): polls the
   job's record until it is done or failed. The count's wording comes from the
   page (data-template, with DONE and TOTAL to fill in), in the page's language. */
(function () {
  "use strict";
  const box = document.getElementById("job");
  const bar = document.getElementById("bar");
  const count = document.getElementById("count");
  const template = box.dataset.template;
  function poll() {
    fetch(box.dataset.statusUrl, {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (s) {
        bar.style.width = (s.total ? 100 * s.done / s.total : 100) + "%";
        bar.parentElement.setAttribute("aria-valuenow", s.done);
        count.textContent = template.replace("DONE", s.done).replace("TOTAL", s.total);
        if (s.status === "done") { document.getElementById("download").classList.remove("d-none"); return; }
        if (s.status === "failed") { document.getElementById("failed").classList.remove("d-none"); return; }
        setTimeout(poll, 700);
      })
      .catch(function () { setTimeout(poll, 2000); });
  }
  if (box.dataset.running === "true") { poll(); }
})();
