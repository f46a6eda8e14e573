/* Online rooms: version checks on pushes, connection indicator, board clicks,
   countdowns, copy button, chat toggle.  Pushes are htmx out-of-band fragments
   over the ws extension; this file only decides whether to apply them. */
(function () {
  "use strict";
  var room = document.getElementById("room");
  var conn = document.getElementById("conn");
  var opened = false;
  var clockOffset = 0; // server time minus this browser's time, in ms

  function syncEl() { return document.getElementById("room-sync"); }
  function version() { var s = syncEl(); return s ? Number(s.dataset.version) : 0; }
  function attr(html, name) {
    var m = html.match(new RegExp("^\\s*<div id=\"room-sync\"[^>]*\\s" + name + "=\"([^\"]*)\""));
    return m ? m[1] : null;
  }

  // Words the script writes come from the page (data-t-* attributes, in the
  // reader's language); the English here is only a fallback.
  function t(el, key, english) {
    return (el && el.getAttribute("data-t-" + key)) || english;
  }

  function setConn(state, text) {
    if (!conn) return;
    conn.dataset.state = state;
    conn.textContent = text;
  }

  function resync() {
    if (!room) return;
    htmx.ajax("GET", room.dataset.stateUrl, { target: "#room-sync", swap: "none" });
  }

  // A socket refused for too many connections is closed with 4429 and the wait, in
  // words, as its reason: show it until a socket opens again (the extension keeps
  // retrying with its back-off; each retry would otherwise say "Reconnecting…").
  var refused = "";
  // The chat box empties once its line was sent (not inline: the page's CSP forbids eval).
  document.addEventListener("htmx:afterRequest", function (evt) {
    var form = evt.detail.elt;
    if (evt.detail.successful && form && form.matches && form.matches("form.chat-form")) form.reset();
  });

  // A change that counted but could not be read back (the database connection died
  // after the commit): the server says so with this event; fetch the room soon.
  document.body.addEventListener("room-resync", function () { setTimeout(resync, 500); });

  document.addEventListener("htmx:wsConnecting", function () {
    if (refused) return;
    setConn("connecting", opened ? t(conn, "reconnecting", "Reconnecting…") : t(conn, "connecting", "Connecting…"));
  });
  document.addEventListener("htmx:wsOpen", function () {
    refused = "";
    setConn("connected", t(conn, "connected", "Connected"));
    if (opened) resync(); // we may have missed pushes while away
    opened = true;
  });
  document.addEventListener("htmx:wsClose", function (evt) {
    var closing = evt.detail && evt.detail.event;
    if (closing && closing.code === 4429) {
      refused = closing.reason || t(conn, "refused", "Too many connections from this browser or network: please wait a minute, then reload the page.");
      setConn("refused", refused);
      return;
    }
    if (!refused) setConn("reconnecting", t(conn, "reconnecting", "Reconnecting…"));
  });

  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var html = evt.detail.message;
    if (typeof html !== "string" || !room) return;
    var redirect = attr(html, "data-redirect");
    if (redirect) { evt.preventDefault(); window.location.assign(redirect); return; }
    var v = Number(attr(html, "data-version"));
    var kind = attr(html, "data-kind");
    var mine = version();
    if (kind === "hello") { evt.preventDefault(); if (v > mine) resync(); return; }
    if (kind === "game") {
      if (v <= mine) { evt.preventDefault(); return; }        // already shown (our own POST)
      if (v > mine + 1) { evt.preventDefault(); resync(); return; } // a gap: fetch the truth
      return;
    }
    // Presence and chat: one ahead of us, or one rendered before a change we already
    // show (published after that change's push), would mix versions: applied, an older
    // one put back the older status and version, and our next edge was refused.
    if (v !== mine) { evt.preventDefault(); resync(); }
  });

  // The mover's own response carries the same fragments as the push: a move push
  // appends edges, so whichever of the two arrives second must not be applied again,
  // and one that skips a version fetches the truth instead.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var html = evt.detail.serverResponse;
    var config = evt.detail.requestConfig;
    if (!config || config.verb !== "post") return; // a re-fetch is always applied
    if (typeof html !== "string" || attr(html, "data-kind") !== "game") return;
    var v = Number(attr(html, "data-version"));
    var mine = version();
    if (v <= mine) { evt.detail.shouldSwap = false; return; }
    if (v > mine + 1) { evt.detail.shouldSwap = false; resync(); }
  });

  // A lean push leaves the action forms as they were: they send the version the page shows.
  document.addEventListener("htmx:configRequest", function (evt) {
    var p = evt.detail.parameters;
    var form = evt.detail.elt && evt.detail.elt.closest && evt.detail.elt.closest("#room-actions");
    if (form && p && p.version != null) p.version = String(version());
  });

  // Server time, so countdowns agree with the server's deadline; whose turn it is, for
  // the board and the seats (a move's push sends it with the version, not with the
  // whole board and players).  A push that changes more (the game's end, a seat taken)
  // sends the players whole, after the marker, so an empty turn leaves them alone.
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (!evt.detail.target || evt.detail.target.id !== "room-sync") return;
    noteServerTime();
    var board = document.getElementById("room-board");
    var turn = syncEl().dataset.turn;
    if (board && turn !== undefined) board.dataset.turn = turn;
    if (!turn) return;
    document.querySelectorAll("#room-players .seat").forEach(function (seat) {
      seat.classList.toggle("to-move", seat.dataset.side === turn);
    });
  });
  function noteServerTime() {
    var s = syncEl();
    if (s && s.dataset.now) clockOffset = Date.parse(s.dataset.now) - Date.now();
  }
  noteServerTime();

  function tick() {
    var now = Date.now() + clockOffset;
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Date.parse(el.dataset.deadline) - now) / 1000));
      var secs = el.querySelector(".secs");
      if (secs && secs.textContent !== String(left)) secs.textContent = String(left);
      el.classList.toggle("urgent", left <= 10);
    });
  }
  setInterval(tick, 250);
  tick();

  // Board: a click (or Enter/Space) on an edge posts the move with the version we show.
  function myTurn() {
    var board = document.getElementById("room-board");
    return room && board && board.dataset.turn && board.dataset.turn === room.dataset.me;
  }
  function play(target) {
    if (!myTurn()) return;
    var form = document.getElementById("move-form");
    form.elements.edge.value = target.dataset.edge;
    form.elements.version.value = String(version());
    target.classList.add("pending");
    htmx.trigger(form, "submit");
  }
  document.addEventListener("click", function (evt) {
    var target = evt.target.closest && evt.target.closest(".edge-target");
    if (target) play(target);
  });
  document.addEventListener("keydown", function (evt) {
    var target = evt.target.closest && evt.target.closest(".edge-target");
    if (target && (evt.key === "Enter" || evt.key === " ")) { evt.preventDefault(); play(target); }
  });
  function markTargets() {
    var allowed = myTurn();
    document.querySelectorAll(".edge-target").forEach(function (t) {
      t.setAttribute("tabindex", allowed ? "0" : "-1");
    });
  }
  document.addEventListener("htmx:afterSettle", markTargets);
  document.addEventListener("htmx:oobAfterSwap", markTargets);
  markTargets();

  // Errors fade after a while; a refusal never leaves stale text behind.
  var errorTimer = null;
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (!evt.detail.target || evt.detail.target.id !== "room-error") return;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(function () {
      var e = document.getElementById("room-error");
      if (e) e.textContent = "";
    }, 6000);
  });

  // Copy the invite link.
  document.addEventListener("click", function (evt) {
    var btn = evt.target.closest && evt.target.closest("[data-copy]");
    if (!btn) return;
    var input = document.querySelector(btn.dataset.copy);
    var label = btn.textContent;
    var done = function () { btn.textContent = t(btn, "copied", "Copied!"); setTimeout(function () { btn.textContent = label; }, 2000); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { input.select(); document.execCommand("copy"); done(); });
    } else { input.select(); document.execCommand("copy"); done(); }
  });

  // Hide or show chat lines (system lines of the log stay), remembered per browser.
  var toggle = document.getElementById("chat-toggle");
  function applyChat(hidden) {
    if (!room || !toggle) return;
    room.classList.toggle("chat-hidden", hidden);
    toggle.setAttribute("aria-pressed", hidden ? "true" : "false");
    toggle.textContent = hidden ? t(toggle, "show", "Show chat") : t(toggle, "hide", "Hide chat");
  }
  if (toggle) {
    applyChat(localStorage.getItem("rooms-chat-hidden") === "1");
    toggle.addEventListener("click", function () {
      var hidden = !room.classList.contains("chat-hidden");
      localStorage.setItem("rooms-chat-hidden", hidden ? "1" : "0");
      applyChat(hidden);
    });
  }
})();
