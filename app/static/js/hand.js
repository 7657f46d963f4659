// The hand is a radio group styled as cards: choosing a card is the browser's own business (no
// request), and CSS shows the moves the server rendered for the chosen card. This script adds the
// two things HTML can't: a tap on the chosen card puts it back, and a move that redraws the table
// (a draw, a hint, a sort) posts the chosen card so that it stays chosen.
(function () {
  "use strict";

  function chosen() {
    return document.querySelector('#table .cards input[name="card"]:checked');
  }

  // A tap on the card that is already chosen puts it back. Whether it was chosen is read when the
  // finger (or mouse) goes down, before the click checks it.
  var wasChosen = null;
  document.addEventListener("pointerdown", function (event) {
    var input = event.target;
    wasChosen = input && input.name === "card" && input.checked ? input : null;
  }, true);
  document.addEventListener("click", function (event) {
    if (wasChosen && event.target === wasChosen) wasChosen.checked = false;
    wasChosen = null;
  });

  document.addEventListener("htmx:configRequest", function (event) {
    var card = chosen();
    event.detail.parameters.selected = card ? card.value : "";
  });
})();
