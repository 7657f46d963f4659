// The hand is a radio group styled as cards: choosing a card is the browser's own business (no
// request), and CSS shows the moves the server rendered for the chosen card. This script adds
// what HTML can't:
// - a card is chosen when the finger (or mouse button) goes down on it, not when the browser
//   later turns the tap into a click: the card rises under the finger in the next frame;
// - a touch that turns into a scroll (pointercancel) puts the choice back as it was;
// - a tap on the chosen card puts it back;
// - the chosen card's moves and prompt line show ("shown"), whatever chose it (a tap, the arrow
//   keys, the page's shortcuts, a form state the browser restored);
// - a move that redraws the table (a draw, a hint, a sort) posts the chosen card so that it
//   stays chosen.
(function () {
  "use strict";

  function chosen() {
    return document.querySelector('#table .cards input[name="card"]:checked');
  }

  function isCard(target) {
    return !!target && target.name === "card" && target.type === "radio";
  }

  // The n-th card's moves and line are the n-th of each (rendered in the hand's order).
  function show() {
    var table = document.getElementById("table");
    if (!table) return;
    var card = chosen();
    var inputs = Array.prototype.slice.call(table.querySelectorAll('.cards input[name="card"]'));
    var at = inputs.indexOf(card);
    var moves = table.querySelectorAll(".actions > .moves");
    var says = table.querySelectorAll(".prompt > .says");
    [moves, says].forEach(function (list) {
      for (var i = 0; i < list.length; i++) list[i].classList.toggle("shown", i === at);
    });
    var prompt = table.querySelector(".prompt");
    if (prompt) prompt.classList.toggle("choosing", at >= 0 && says.length > 0);
  }

  // The latest press on a card: which card, whether it ends chosen, and what was chosen before.
  // Kept until that card's click, so a late click of an earlier tap can't undo a later one.
  var pressed = null;

  document.addEventListener("pointerdown", function (event) {
    if (!isCard(event.target) || event.button !== 0) return;
    var input = event.target;
    pressed = { input: input, checked: !input.checked, before: chosen() };
    input.checked = pressed.checked;
    show();
  }, true);

  document.addEventListener("pointercancel", function (event) {
    if (!pressed || event.target !== pressed.input) return;
    pressed.input.checked = false;
    if (pressed.before) pressed.before.checked = true;
    pressed = null;
    show();
  }, true);

  // The click's own default has just checked its radio: the press decided, so its decision stands.
  // A click with no press behind it (detail 0: the keyboard's Space, a screen reader) is left alone.
  document.addEventListener("click", function (event) {
    if (!isCard(event.target) || !pressed) return;
    if (event.detail === 0) {
      pressed = null;
      return;
    }
    if (event.target === pressed.input) {
      pressed.input.checked = pressed.checked;
      pressed = null;
    } else if (pressed.checked) {
      pressed.input.checked = true;
    } else {
      event.target.checked = false;
    }
    show();
  });

  // The arrow keys (the browser's radio group) and keys.js announce their choice with "change".
  document.addEventListener("change", function (event) {
    if (isCard(event.target)) show();
  });
  window.addEventListener("pageshow", show);
  document.addEventListener("htmx:afterSettle", show);

  document.addEventListener("htmx:configRequest", function (event) {
    var card = chosen();
    event.detail.parameters.selected = card ? card.value : "";
  });
})();
