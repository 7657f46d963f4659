// The review of a finished hand: the arrow keys press Previous and Next, as a click would (one htmx
// request each). Not while typing, not on the slider (its own arrows move it), not with a modifier held.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    var table = document.getElementById("table");
    if (!table || !table.classList.contains("review")) return;
    var target = event.target;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    var id = event.key === "ArrowLeft" ? "review-prev" : event.key === "ArrowRight" ? "review-next" : null;
    var button = id && document.getElementById(id);
    if (!button || button.disabled) return;
    event.preventDefault();
    button.click();
  });
})();
