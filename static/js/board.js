// The play board's keyboard and pointer handling, and the replay's arrow keys.
// Without this file every action still works: the typed move box, the list of
// legal edges and plain links post or navigate as ordinary forms.
(function () {
  "use strict";

  var keyboardEdge = null; // the edge last focused from the keyboard, to keep focus across swaps

  function slots(svg) { return Array.prototype.slice.call(svg.querySelectorAll(".slot")); }

  function centre(slot) {
    var line = slot.querySelector(".slot-line");
    return {
      x: (+line.getAttribute("x1") + +line.getAttribute("x2")) / 2,
      y: (+line.getAttribute("y1") + +line.getAttribute("y2")) / 2,
    };
  }

  function nearest(list, point) {
    var best = null, bestD = Infinity;
    list.forEach(function (s) {
      var c = centre(s), d = Math.hypot(c.x - point.x, c.y - point.y);
      if (d < bestD) { bestD = d; best = s; }
    });
    return best;
  }

  // The next slot in a direction: ahead of the current one, preferring straight lines.
  function step(list, from, dx, dy) {
    var a = centre(from), best = null, bestScore = Infinity;
    list.forEach(function (s) {
      if (s === from) return;
      var c = centre(s), along = (c.x - a.x) * dx + (c.y - a.y) * dy;
      if (along <= 0) return;
      var across = Math.abs((c.x - a.x) * dy) + Math.abs((c.y - a.y) * dx);
      var score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = s; }
    });
    return best;
  }

  function focusSlot(list, slot) {
    list.forEach(function (s) { s.setAttribute("tabindex", s === slot ? "0" : "-1"); });
    if (slot) slot.focus();
  }

  function draw(slot) {
    var form = slot.closest("form");
    if (!form || form.dataset.sending) return;
    form.dataset.sending = "1";
    form.querySelector("input[name=edge]").value = slot.dataset.edge;
    slot.classList.add("pending");
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }

  function initBoard(root) {
    var svg = root.querySelector(".board-wrap.playable .board-svg");
    if (!svg || svg.dataset.ready) return;
    svg.dataset.ready = "1";
    var list = slots(svg);
    if (!list.length) return;
    // One tab stop for the whole board (roving tabindex); arrows move inside it.
    var start = null;
    if (keyboardEdge) {
      start = svg.querySelector('.slot[data-edge="' + keyboardEdge.edge + '"]') ||
        nearest(list, keyboardEdge.point);
    }
    list.forEach(function (s) { s.setAttribute("tabindex", "-1"); });
    (start || list[0]).setAttribute("tabindex", "0");
    if (start && keyboardEdge.refocus) start.focus();
  }

  // Delegated from the document, so a board swapped in a moment ago answers at once.
  function slotOf(event) {
    var slot = event.target.closest && event.target.closest(".board-wrap.playable .slot");
    return slot || null;
  }
  document.addEventListener("click", function (event) {
    var slot = slotOf(event);
    if (slot) { keyboardEdge = null; draw(slot); }
  });
  document.addEventListener("keydown", function (event) {
    var slot = slotOf(event);
    if (!slot) return;
    var list = slots(slot.ownerSVGElement);
    var dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[event.key]) {
      event.preventDefault();
      var next = step(list, slot, dirs[event.key][0], dirs[event.key][1]);
      if (next) focusSlot(list, next);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      keyboardEdge = { edge: slot.dataset.edge, point: centre(slot), refocus: true };
      draw(slot);
    }
  });
  document.addEventListener("focusin", function (event) {
    var slot = slotOf(event);
    if (slot) slots(slot.ownerSVGElement).forEach(function (s) {
      s.setAttribute("tabindex", s === slot ? "0" : "-1");
    });
  });

  // Replay: arrow keys step through the game unless the user is typing.  While
  // one step is on its way the next key waits for it to settle, then follows the
  // new position's links: a quick key press is never lost or sent to a stale link.
  var replayBusy = false, replayQueued = [];
  function replayStep(name) {
    var replay = document.getElementById("replay");
    var link = replay && replay.querySelector('[data-nav="' + name + '"]');
    if (!link) return false;
    // A step that never settles (a lost response) stops holding keys after 3 s.
    if (replayBusy && window.htmx && Date.now() - replayBusy < 3000) {
      if (replayQueued.length < 20) replayQueued.push(name);
      return true;
    }
    replayBusy = window.htmx ? Date.now() : false;
    link.click();
    return true;
  }
  function replaySettled(event) {
    // One swap can settle several elements: only the new #replay itself ends a step.
    if (!replayBusy || (event.type === "htmx:afterSettle" && event.target.id !== "replay")) return;
    replayBusy = false;
    var next = replayQueued.shift();
    if (next) replayStep(next);
  }
  document.addEventListener("htmx:afterSettle", replaySettled);
  document.addEventListener("htmx:responseError", replaySettled);
  document.addEventListener("htmx:sendError", replaySettled);
  function replayKeys(event) {
    var replay = document.getElementById("replay");
    if (!replay || event.altKey || event.ctrlKey || event.metaKey) return;
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") return;
    var name = {
      ArrowLeft: event.shiftKey ? "prev-turn" : "prev",
      ArrowRight: event.shiftKey ? "next-turn" : "next",
      Home: "first",
      End: "last",
    }[event.key];
    if (!name) return;
    if (replayStep(name)) event.preventDefault();
  }

  // A turn log keeps the newest turns in view (column-reverse). On a replay of an
  // earlier position, scroll the log (never the page) to the turn shown, so its
  // edges and their analysis marks are the ones in view.
  function showCurrentTurn(root) {
    root.querySelectorAll(".log-scroll").forEach(function (box) {
      var row = box.querySelector(".log-current");
      if (!row) return;
      var b = box.getBoundingClientRect(), r = row.getBoundingClientRect();
      if (r.top >= b.top && r.bottom <= b.bottom) return;
      box.scrollTop += r.top - b.top - (b.height - r.height) / 2;
    });
  }

  function init(root) {
    initBoard(root || document);
    showCurrentTurn(root || document);
  }

  // A failed request (server error, lost connection): let the player try again.
  function failed(event) {
    var form = event.target.closest && event.target.closest("form");
    if (form) delete form.dataset.sending;
    document.querySelectorAll(".slot.pending").forEach(function (s) { s.classList.remove("pending"); });
    var status = document.getElementById("game-status");
    if (status && !event.target.closest(".thinking")) {
      var xhr = event.detail && event.detail.xhr;
      // The words come from the page (data-t-*), in the reader's language.
      status.textContent = xhr && xhr.status === 404
        ? status.getAttribute("data-t-gone") || "There is no such game any more: nothing was drawn."
        : status.getAttribute("data-t-failed") || "That did not reach the server; please try again.";
    }
  }
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:sendError", failed);

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("keydown", replayKeys);
  document.addEventListener("htmx:afterSettle", function () { init(document); });
  // Keep the keyboard user's place while the computer replies (no slots then).
  var typing = false; // the typed move box had focus: give it back after the swap
  document.addEventListener("htmx:afterSettle", function () {
    var box = document.getElementById("edge-text");
    if (typing && box) { box.focus(); typing = false; }
  });
  document.addEventListener("htmx:beforeSwap", function () {
    var active = document.activeElement;
    if (active && active.id === "edge-text") typing = true;
    else if (active && active !== document.body) typing = false;
    if (active && active.classList && active.classList.contains("slot")) {
      keyboardEdge = { edge: active.dataset.edge, point: centre(active), refocus: true };
    }
  });
})();
