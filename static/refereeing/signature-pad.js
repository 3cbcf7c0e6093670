/* A signature pad on a <canvas>: drawn with a finger, a stylus or a mouse.
 *
 * Pointer events cover touch and mouse alike; the canvas has
 * `touch-action: none` so a stroke never scrolls the page. The picture is
 * read back as a PNG data URL, which is what the planilla stores (Art. 16).
 */
(function (global) {
  "use strict";

  function SignaturePad(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.strokes = 0;
    this.last = null;
    this.clear();
    var pad = this;
    canvas.addEventListener("pointerdown", function (e) {
      e.preventDefault();
      canvas.setPointerCapture(e.pointerId);
      pad.last = pad.point(e);
      pad.dot(pad.last);
      pad.strokes += 1;
    });
    canvas.addEventListener("pointermove", function (e) {
      if (!pad.last) return;
      e.preventDefault();
      var p = pad.point(e);
      pad.ctx.beginPath();
      pad.ctx.moveTo(pad.last.x, pad.last.y);
      pad.ctx.lineTo(p.x, p.y);
      pad.ctx.stroke();
      pad.last = p;
    });
    ["pointerup", "pointercancel", "pointerleave"].forEach(function (type) {
      canvas.addEventListener(type, function () { pad.last = null; });
    });
  }

  /* The event's position in the canvas's own pixels (it is drawn larger
   * or smaller than its width and height attributes by CSS). */
  SignaturePad.prototype.point = function (e) {
    var r = this.canvas.getBoundingClientRect();
    return {
      x: (e.clientX - r.left) * (this.canvas.width / r.width),
      y: (e.clientY - r.top) * (this.canvas.height / r.height),
    };
  };

  SignaturePad.prototype.dot = function (p) {
    this.ctx.beginPath();
    this.ctx.arc(p.x, p.y, this.ctx.lineWidth / 2, 0, 2 * Math.PI);
    this.ctx.fill();
  };

  SignaturePad.prototype.clear = function () {
    var ctx = this.ctx;
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.strokeStyle = ctx.fillStyle = "#0b1f4a";
    ctx.lineWidth = 4;
    ctx.lineCap = ctx.lineJoin = "round";
    this.strokes = 0;
  };

  SignaturePad.prototype.isEmpty = function () { return this.strokes === 0; };

  SignaturePad.prototype.toDataURL = function () { return this.canvas.toDataURL("image/png"); };

  global.SignaturePad = SignaturePad;
})(window);
