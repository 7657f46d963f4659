// Statistics kept in this browser (localStorage): on the table, each finished hand and match is
// counted once, keyed by match id and hand number, so a reload or a repeated swap of the same
// result screen never counts it again; on /stats, the numbers are shown and can be reset, after
// a confirmation step in the page.
(function () {
  "use strict";
  var KEY = "gin-rummy.stats";
  var KEEP_KEYS = 500; // counted hand keys remembered: far more than any unfinished match can revisit

  function pair() { return { you: 0, computer: 0 }; }

  function fresh(counted) {
    return {
      version: 1,
      hands: { you: 0, computer: 0, void: 0 },
      matches: pair(),
      gins: pair(),
      knocks: pair(),
      undercuts: pair(),
      knockDeadwood: { total: 0, count: 0 },
      best: null,
      counted: counted || [],
    };
  }

  function load() {
    var value = window.ginStore.getJSON(KEY);
    if (value && value.version === 1 && value.hands && Array.isArray(value.counted)) return value;
    return fresh(); // none, blocked or garbled: start afresh
  }

  function save(stats) { window.ginStore.setJSON(KEY, stats); }

  function isSide(who) { return who === "you" || who === "computer"; }

  // One finished hand (and the match, when it ended there); false if it was counted already.
  function record(entry) {
    var stats = load();
    var changed = false;
    if (entry.key && stats.counted.indexOf(entry.key) < 0) {
      stats.counted.push(entry.key);
      changed = true;
      if (entry.kind === "void") stats.hands.void += 1;
      else if (isSide(entry.winner)) stats.hands[entry.winner] += 1;
      if (isSide(entry.knocker)) {
        if (entry.kind === "gin") stats.gins[entry.knocker] += 1;
        if (entry.kind === "knock" || entry.kind === "undercut") {
          stats.knocks[entry.knocker] += 1;
          if (entry.knocker === "you" && typeof entry.knockerDeadwood === "number") {
            stats.knockDeadwood.total += entry.knockerDeadwood;
            stats.knockDeadwood.count += 1;
          }
        }
      }
      if (entry.kind === "undercut" && isSide(entry.winner)) stats.undercuts[entry.winner] += 1;
    }
    var match = entry.match;
    var matchKey = match && "match:" + match.key;
    if (match && stats.counted.indexOf(matchKey) < 0 && isSide(match.winner)) {
      stats.counted.push(matchKey);
      changed = true;
      stats.matches[match.winner] += 1;
      var margin = match.you - match.computer;
      if (!stats.best || margin > stats.best.you - stats.best.computer) {
        stats.best = { you: match.you, computer: match.computer };
      }
    }
    if (!changed) return false;
    stats.counted = stats.counted.slice(-KEEP_KEYS);
    save(stats);
    return true;
  }

  function recordShown() {
    var result = document.querySelector("#table [data-record]");
    if (!result) return;
    try {
      record(JSON.parse(result.getAttribute("data-record")));
    } catch (e) { /* a malformed record counts nothing */ }
  }

  // ---- the statistics page ----

  function value(stats, path) {
    if (path === "knockAverage") {
      var k = stats.knockDeadwood;
      return k.count ? (k.total / k.count).toFixed(1) + " over " + k.count + " knock" + (k.count === 1 ? "" : "s") : "No knock yet";
    }
    if (path === "best") {
      var b = stats.best;
      if (!b) return "No match finished yet";
      return (b.you > b.computer ? "Won " : "Lost ") + b.you + " to " + b.computer;
    }
    var parts = path.split(".");
    var v = stats[parts[0]];
    return v ? String(v[parts[1]] || 0) : "0";
  }

  function show() {
    var stats = load();
    var cells = document.querySelectorAll("[data-stat]");
    for (var i = 0; i < cells.length; i++) cells[i].textContent = value(stats, cells[i].getAttribute("data-stat"));
    var empty = document.getElementById("stats-empty");
    var played = stats.hands.you + stats.hands.computer + stats.hands.void;
    if (empty) empty.hidden = played > 0;
  }

  function wireReset() {
    var ask = document.getElementById("reset-ask");
    var confirmBox = document.getElementById("reset-confirm");
    var yes = document.getElementById("reset-yes");
    var no = document.getElementById("reset-no");
    var done = document.getElementById("reset-done");
    if (!ask || !confirmBox || !yes || !no) return;
    function close(focus) {
      confirmBox.hidden = true;
      ask.setAttribute("aria-expanded", "false");
      if (focus) ask.focus();
    }
    ask.addEventListener("click", function () {
      confirmBox.hidden = false;
      ask.setAttribute("aria-expanded", "true");
      if (done) done.textContent = "";
      document.getElementById("reset-question").focus();
    });
    no.addEventListener("click", function () {
      close(true);
      if (done) done.textContent = "Nothing was reset.";
    });
    yes.addEventListener("click", function () {
      // The counted keys stay: a result screen still open elsewhere must not be counted again.
      save(fresh(load().counted));
      show();
      close(true);
      if (done) done.textContent = "Statistics reset to zero.";
    });
    confirmBox.addEventListener("keydown", function (event) {
      if (event.key === "Escape") close(true);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    recordShown();
    if (document.querySelector("[data-stat]")) {
      show();
      wireReset();
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target && event.target.id === "table") recordShown();
  });
  // Another tab finished a hand or reset: keep this page current.
  window.addEventListener("storage", function (event) {
    if (event.key === KEY && document.querySelector("[data-stat]")) show();
  });
})();
