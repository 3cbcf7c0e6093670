/* Behaviour every page shares, bound here rather than in on...= attributes
   (the Content Security Policy allows no inline script):
   - a <select data-autosubmit> sends its form when changed (the language menu);
   - a <button data-print> prints the page (the table's PIN card);
   - an <input data-filter-rows="selector"> hides, as one types, the rows whose text lacks what is typed. */
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
})();
