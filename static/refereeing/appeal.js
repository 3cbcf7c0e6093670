/* Filing an appeal at the table: the representative's name follows the pair
 * chosen (unless typed by hand), and the form is sent only once signed. */
(function () {
  "use strict";
  var form = document.getElementById("appeal-form");
  if (!form) return;
  var representatives = JSON.parse(document.getElementById("representatives").textContent);
  var name = form.elements.name;
  var prefilled = name.value;
  form.querySelectorAll("input[name=pair]").forEach(function (radio) {
    radio.addEventListener("change", function () {
      if (name.value === prefilled) {
        name.value = prefilled = representatives[radio.value] || "";
      }
    });
  });
  var canvas = document.getElementById("appeal-pad");
  var padError = document.getElementById("pad-error");
  var pad = new window.SignaturePad(canvas);
  canvas.addEventListener("pointerdown", function () { padError.hidden = true; });
  // The form came back with an error: the signature already drawn stays.
  if (form.elements.signature.value) {
    var drawn = new Image();
    drawn.onload = function () {
      pad.ctx.drawImage(drawn, 0, 0, canvas.width, canvas.height);
      pad.strokes = 1;
    };
    drawn.src = form.elements.signature.value;
  }
  document.getElementById("pad-clear").addEventListener("click", function () { pad.clear(); });
  // A second tap, or a retry after the wifi dropped the answer, sends the
  // same client id: the server files the appeal once.
  form.addEventListener("submit", function (e) {
    var unsigned = pad.isEmpty();
    padError.hidden = !unsigned;
    if (unsigned) {
      e.preventDefault();
      return;
    }
    form.elements.signature.value = pad.toDataURL();
  });
})();
