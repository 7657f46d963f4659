// Keyboard play on the table. Each shortcut presses the very button a tap would press, so every
// move goes through the same htmx request (and the same checks) as a click. Which key presses which
// button comes from the page (the body's data-shortcuts, from app/web/table/shortcuts.py, which
// also labels the buttons and writes the rules page's list); the arrows move the selection, Escape
// unselects.
// The hand is a radio group (choosing a card sends nothing): on a card, the arrows are the browser's own.
// Shortcuts never fire while typing in a form field or with Ctrl, Alt or Cmd held. After a swap
// that removed the focused control, focus moves to the control the person most likely wants next.
(function () {
  "use strict";

  function table() { return document.getElementById("table"); }
  function find(selector) { return document.querySelector(selector); }
  function cards() { return Array.prototype.slice.call(document.querySelectorAll('#table .cards input[name="card"]')); }
  function isCard(element) { return !!element && element.name === "card" && !!element.closest("#table .cards"); }

  function typing(element) {
    if (!element || element === document.body || isCard(element)) return false;
    return /^(INPUT|SELECT|TEXTAREA)$/.test(element.tagName) || element.isContentEditable;
  }

  var noteTimer = null;
  // A short visible note that is also read out (role=status), for a key that can do nothing now.
  function note(text) {
    var box = document.getElementById("keynote");
    if (!box) {
      box = document.createElement("p");
      box.id = "keynote";
      box.className = "keynote";
      box.setAttribute("role", "status");
      document.body.appendChild(box);
    }
    box.textContent = text;
    box.classList.add("shown");
    window.clearTimeout(noteTimer);
    noteTimer = window.setTimeout(function () { box.classList.remove("shown"); }, 4000);
  }

  // The shown control that matches (each card's moves are in the page; only the chosen card's show).
  function press(selector) {
    var controls = document.querySelectorAll(selector);
    for (var i = 0; i < controls.length; i++) {
      var control = controls[i];
      if (control.tagName === "BUTTON" && !control.disabled && control.getClientRects().length) {
        control.click();
        return true;
      }
    }
    return false;
  }

  function selected() { return find('#table .cards input[name="card"]:checked'); }

  // Chooses (or puts back) a card as a tap would, so that hand.js shows its moves.
  function choose(card, on) {
    card.checked = on;
    card.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function moveSelection(step) {
    var all = cards();
    if (!all.length) return false;
    var from = all.indexOf(selected());
    if (from < 0) from = all.indexOf(document.activeElement);
    var next = from < 0 ? (step > 0 ? 0 : all.length - 1) : (from + step + all.length) % all.length;
    all[next].focus();
    choose(all[next], true);
    return true;
  }

  // The table's shortcuts: {key: {controls: [button ids or card moves], note: "why it can't act now"}}.
  function shortcuts() {
    try { return JSON.parse(document.body.getAttribute("data-shortcuts") || "{}"); } catch (e) { return {}; }
  }

  function pressAny(shortcut) {
    var controls = shortcut ? shortcut.controls : [];
    for (var i = 0; i < controls.length; i++) {
      if (press("button#" + controls[i] + ', #table [data-move="' + controls[i] + '"]')) return true;
    }
    return false;
  }

  function discard(onCard) {
    if (pressAny(shortcuts().Enter)) return;
    var prompt = find("#prompt");
    var taken = onCard && onCard.labels.length && onCard.labels[0].classList.contains("taken");
    if (taken) note(prompt ? prompt.textContent.trim() : "That card can't be discarded this turn.");
    else if (!selected()) note("Choose a card first: the arrow keys move through your hand.");
    else note("You can't discard now.");
  }

  function cannotKnock() {
    if (!selected()) note("Choose the card to knock with first (arrow keys), then press K.");
    else note("No knock with that card: Knock appears when your discard leaves " + document.body.getAttribute("data-knock-limit") + " deadwood or less.");
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    // Only at the table in play or showing a result (not the new-match screen, where Enter means New match).
    if (!table() || table().className.indexOf("phase-") < 0) return;
    if (typing(target) || (target.closest && target.closest(".display"))) return;
    var key = event.key;
    var onCard = isCard(target) ? target : null;
    var onControl = target !== document.body && target.closest && target.closest("button, a, summary, [tabindex]");
    if (key === "ArrowLeft" || key === "ArrowUp" || key === "ArrowRight" || key === "ArrowDown") {
      if (onCard || onControl) return; // on a card the radio group moves the choice; elsewhere arrows keep their meaning
      if (moveSelection(key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1)) event.preventDefault();
      return;
    }
    if (key === "Enter") {
      // On another control Enter keeps its usual meaning; on a card it chooses it, then discards it.
      if (!onCard && onControl) return;
      event.preventDefault();
      if (onCard && !onCard.checked) choose(onCard, true);
      else discard(onCard);
      return;
    }
    if (key === "Escape" && selected()) {
      choose(selected(), false);
      return;
    }
    var letter = key.length === 1 ? key.toUpperCase() : "";
    var shortcut = letter ? shortcuts()[letter] : null;
    if (shortcut) {
      event.preventDefault();
      if (pressAny(shortcut)) return;
      if (letter === "K") cannotKnock();
      else note(shortcut.note);
    }
  });

  // Keep focus on the table when a swap removes the focused control (a Discard that is gone, a pile
  // that can no longer be drawn from): without this, keyboard users land back at the top of the page.
  var focusWasInTable = false;
  document.addEventListener("htmx:beforeSwap", function () {
    var active = document.activeElement;
    var t = table();
    focusWasInTable = !!(t && active && active !== document.body && t.contains(active));
  });
  var NEXT = ["#act-next", "#act-take", "button#stock", "#table .cards li:has(.arrive) > input",
    '#table .cards input[name="card"]:checked', "#act-new", '#table .cards input[name="card"]', "#act-resume", "#table button"];
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!focusWasInTable || !event.target || event.target.id !== "table") return;
    focusWasInTable = false;
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return; // htmx kept it (same id)
    for (var i = 0; i < NEXT.length; i++) {
      var control = find(NEXT[i]);
      if (control) {
        control.focus({ preventScroll: true });
        return;
      }
    }
  });
})();
