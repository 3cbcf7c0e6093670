/* Behaviour every page shares, bound here rather than in on...= attributes
   (the Content Security Policy allows no inline script):
   - a <select data-autosubmit> sends its form when changed (the language menu);
   - a <button data-print> prints the page (the table's PIN card). */
(function () {
  "use strict";
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
  document.querySelectorAll("button[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
