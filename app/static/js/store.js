// The one place the scripts keep things in this browser: localStorage, or this tab's memory when
// storage is blocked (private modes, a full quota), so that nothing throws and the game goes on for as
// long as the tab does. Loaded first, in <head>; the other scripts use window.ginStore.
(function () {
  "use strict";
  var memory = {};

  function get(key) {
    try {
      var value = window.localStorage.getItem(key);
      if (value !== null) return value;
    } catch (e) { /* blocked: fall back to memory */ }
    return Object.prototype.hasOwnProperty.call(memory, key) ? memory[key] : null;
  }

  function set(key, value) {
    memory[key] = value;
    try { window.localStorage.setItem(key, value); } catch (e) { /* memory keeps it for this tab */ }
  }

  // A stored JSON value, or null when there is none or it is garbled.
  function getJSON(key) {
    try { return JSON.parse(get(key) || "null"); } catch (e) { return null; }
  }

  function setJSON(key, value) { set(key, JSON.stringify(value)); }

  window.ginStore = { get: get, set: set, getJSON: getJSON, setJSON: setJSON };
})();
