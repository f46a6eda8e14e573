/* Tournament page: count the countdown down each second between pushes (the
   server's text stays correct without JavaScript; a push replaces it). */
(function () {
  "use strict";
  function format(s) {
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return (h ? h + ":" + pad(m) : m) + ":" + pad(sec);
  }
  setInterval(function () {
    document.querySelectorAll(".countdown[data-seconds]").forEach(function (el) {
      if (!el.dataset.start) { el.dataset.start = String(Date.now()); }
      var left = Math.max(0, Number(el.dataset.seconds) - Math.floor((Date.now() - Number(el.dataset.start)) / 1000));
      var time = el.querySelector("time");
      if (time) { time.textContent = format(left); }
    });
  }, 1000);
})();
