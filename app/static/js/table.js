// The few things htmx cannot do: keep the sealed game in localStorage and send it with every request.
// This browser's copy is the save; it is replaced only by a response to this page's own htmx
// request that carries a token (an error screen carries none, so a bad save stays until the
// person starts a new match). A page the browser was navigated to never writes it: a form on
// another site could otherwise post to this one and have its answer stored.
(function () {
  "use strict";
  var SAVE = "gin-rummy.save";
  var SORT = "gin-rummy.sort";
  var read = window.ginStore.get; // with storage blocked (private modes) the game lasts as long as the tab
  var write = window.ginStore.set;

  function keepToken() {
    var table = document.getElementById("table");
    var token = table && table.getAttribute("data-token");
    if (token) write(SAVE, token);
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    var sort = elt.getAttribute("data-sort") || (elt.name === "sort" ? elt.value : null);
    if (sort) write(SORT, sort);
    event.detail.parameters.token = read(SAVE) || "";
    event.detail.parameters.sort = read(SORT) || "rank";
  });

  document.addEventListener("htmx:afterSwap", keepToken);

  document.addEventListener("htmx:sendError", function () {
    var offline = document.getElementById("offline");
    if (offline) offline.hidden = false;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var offline = document.getElementById("offline");
    if (offline && event.detail.xhr && event.detail.xhr.status) offline.hidden = true;
  });
})();
