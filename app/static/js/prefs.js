// Display preferences: theme, four-colour deck, large cards, card movement. Kept in localStorage (store.js).
// Loaded without defer in <head> (a file: the CSP allows no inline script) so that the attributes
// the stylesheets read are on <html> before the first paint; the Display menu is wired once the
// page has loaded. "Like this device" follows prefers-color-scheme, also when it changes.
(function () {
  "use strict";
  var KEY = "gin-rummy.prefs";
  var root = document.documentElement;
  var darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var THEME_COLOURS = { dark: "#123f2a", light: "#155a37" };

  function load() {
    var value = window.ginStore.getJSON(KEY);
    return value && typeof value === "object" ? value : {}; // none, blocked or garbled: the defaults
  }

  var prefs = load();

  function save() { window.ginStore.setJSON(KEY, prefs); }

  function theme() {
    if (prefs.theme === "light" || prefs.theme === "dark") return prefs.theme;
    return darkQuery && darkQuery.matches ? "dark" : "light";
  }

  function apply() {
    var chosen = theme();
    root.setAttribute("data-theme", chosen);
    root.setAttribute("data-deck", prefs.deck === "four" ? "four" : "two");
    root.setAttribute("data-cards", prefs.cards === "large" ? "large" : "normal");
    root.setAttribute("data-motion", prefs.motion === "off" ? "off" : "on");
    var meta = document.querySelector('meta[name="theme-color"]');
    if (meta) meta.setAttribute("content", THEME_COLOURS[chosen]);
  }

  function showChoices() {
    var radios = document.querySelectorAll('input[name="pref-theme"]');
    for (var i = 0; i < radios.length; i++) radios[i].checked = radios[i].value === (prefs.theme || "auto");
    var boxes = { "pref-deck": prefs.deck === "four", "pref-cards": prefs.cards === "large", "pref-motion": prefs.motion === "off" };
    Object.keys(boxes).forEach(function (name) {
      var box = document.querySelector('input[name="' + name + '"]');
      if (box) box.checked = boxes[name];
    });
  }

  function choose(event) {
    var input = event.target;
    if (!input || !input.name || input.name.indexOf("pref-") !== 0) return;
    if (input.name === "pref-theme") prefs.theme = input.value;
    if (input.name === "pref-deck") prefs.deck = input.checked ? "four" : "two";
    if (input.name === "pref-cards") prefs.cards = input.checked ? "large" : "normal";
    if (input.name === "pref-motion") prefs.motion = input.checked ? "off" : "on";
    save();
    apply();
  }

  apply();
  if (darkQuery) {
    var follow = function () { apply(); };
    if (darkQuery.addEventListener) darkQuery.addEventListener("change", follow);
    else if (darkQuery.addListener) darkQuery.addListener(follow);
  }
  // Another tab changed them: follow it.
  window.addEventListener("storage", function (event) {
    if (event.key !== KEY) return;
    prefs = load();
    apply();
    showChoices();
  });

  document.addEventListener("DOMContentLoaded", function () {
    showChoices();
    document.addEventListener("change", choose);
    var menu = document.getElementById("display");
    if (!menu) return;
    // A menu closes with Escape (focus back on its button) or a tap elsewhere.
    menu.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && menu.open) {
        menu.open = false;
        menu.querySelector("summary").focus();
      }
    });
    document.addEventListener("click", function (event) {
      if (menu.open && !menu.contains(event.target)) menu.open = false;
    });
  });
})();
