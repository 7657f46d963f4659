// Statistics kept in this browser (localStorage): on the table, each finished hand and match is
// counted once, keyed by match id and hand number, so a reload or a repeated swap of the same
// result screen never counts it again; on /stats, the numbers are shown and can be reset, after
// a confirmation step in the page. They are kept per level (the record names it), so a person can
// see how they fare against each; the page shows one level's figures or all of them added up.
(function () {
  "use strict";
  var KEY = "gin-rummy.stats";
  var KEEP_KEYS = 500; // counted hand keys remembered: far more than any unfinished match can revisit
  // Format 1 kept one set of counts for every level. Which level each of those hands was played at is
  // not known, so they stay apart under this name ("Level not recorded" on the page, the same value
  // there), and in the totals: nothing counted before is lost.
  var UNRECORDED = "unrecorded";
  var COUNTS = ["hands", "matches", "gins", "knocks", "undercuts", "knockDeadwood", "best"];

  function pair() { return { you: 0, computer: 0 }; }

  function counts() {
    return {
      hands: { you: 0, computer: 0, void: 0 },
      matches: pair(),
      gins: pair(),
      knocks: pair(),
      undercuts: pair(),
      knockDeadwood: { total: 0, count: 0 },
      best: null,
    };
  }

  function fresh(counted) { return { version: 2, levels: {}, counted: counted || [] }; }

  function migrated(old) {
    var stats = fresh(old.counted);
    var kept = counts();
    COUNTS.forEach(function (name) { if (old[name] !== undefined) kept[name] = old[name]; });
    stats.levels[UNRECORDED] = kept;
    return stats;
  }

  function load() {
    var value = window.ginStore.getJSON(KEY);
    if (value && value.version === 2 && value.levels && Array.isArray(value.counted)) return value;
    if (value && value.version === 1 && value.hands && Array.isArray(value.counted)) return migrated(value);
    return fresh(); // none, blocked or garbled: start afresh
  }

  function save(stats) { window.ginStore.setJSON(KEY, stats); }

  function isSide(who) { return who === "you" || who === "computer"; }

  // One finished hand (and the match, when it ended there); false if it was counted already.
  function record(entry) {
    var stats = load();
    var changed = false;
    var level = typeof entry.level === "string" && entry.level ? entry.level : UNRECORDED;
    if (!Object.prototype.hasOwnProperty.call(stats.levels, level)) stats.levels[level] = counts();
    var at = stats.levels[level];
    if (entry.key && stats.counted.indexOf(entry.key) < 0) {
      stats.counted.push(entry.key);
      changed = true;
      if (entry.kind === "void") at.hands.void += 1;
      else if (isSide(entry.winner)) at.hands[entry.winner] += 1;
      if (isSide(entry.knocker)) {
        if (entry.kind === "gin") at.gins[entry.knocker] += 1;
        if (entry.kind === "knock" || entry.kind === "undercut") {
          at.knocks[entry.knocker] += 1;
          if (entry.knocker === "you" && typeof entry.knockerDeadwood === "number") {
            at.knockDeadwood.total += entry.knockerDeadwood;
            at.knockDeadwood.count += 1;
          }
        }
      }
      if (entry.kind === "undercut" && isSide(entry.winner)) at.undercuts[entry.winner] += 1;
    }
    var match = entry.match;
    var matchKey = match && "match:" + match.key;
    if (match && stats.counted.indexOf(matchKey) < 0 && isSide(match.winner)) {
      stats.counted.push(matchKey);
      changed = true;
      at.matches[match.winner] += 1;
      var margin = match.you - match.computer;
      if (!at.best || margin > at.best.you - at.best.computer) {
        at.best = { you: match.you, computer: match.computer };
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

  // The counts of every level added up (the best match: the widest margin at any level).
  function total(stats) {
    var sum = counts();
    Object.keys(stats.levels).forEach(function (level) {
      var c = stats.levels[level];
      ["hands", "matches", "gins", "knocks", "undercuts", "knockDeadwood"].forEach(function (name) {
        Object.keys(sum[name]).forEach(function (part) { sum[name][part] += (c[name] && c[name][part]) || 0; });
      });
      if (c.best && (!sum.best || c.best.you - c.best.computer > sum.best.you - sum.best.computer)) sum.best = c.best;
    });
    return sum;
  }

  // One level's counts, or all of them added up ("all").
  function scope(stats, level) {
    if (level === "all") return total(stats);
    return Object.prototype.hasOwnProperty.call(stats.levels, level) ? stats.levels[level] : counts();
  }

  function played(c) { return c.hands.you + c.hands.computer + c.hands.void; }

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
    if (parts[1] === "both") return (v ? v.you || 0 : 0) + " to " + (v ? v.computer || 0 : 0);
    return v ? String(v[parts[1]] || 0) : "0";
  }

  function show() {
    var stats = load();
    var chooser = document.getElementById("stats-level");
    // Hands from before levels were recorded get a row and a choice of their own; without any, neither shows.
    var old = scope(stats, UNRECORDED);
    var hasOld = played(old) + old.matches.you + old.matches.computer > 0;
    var marked = document.querySelectorAll("[data-unrecorded]");
    for (var j = 0; j < marked.length; j++) {
      marked[j].hidden = !hasOld;
      if (marked[j].tagName === "OPTION") marked[j].disabled = !hasOld;
    }
    if (chooser && chooser.value === UNRECORDED && !hasOld) chooser.value = "all";
    var chosen = chooser ? chooser.value : "all";
    var cells = document.querySelectorAll("[data-stat]");
    for (var i = 0; i < cells.length; i++) {
      var level = cells[i].getAttribute("data-level") || chosen;
      cells[i].textContent = value(scope(stats, level), cells[i].getAttribute("data-stat"));
    }
    var empty = document.getElementById("stats-empty");
    if (empty) empty.hidden = played(total(stats)) > 0;
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
      var chooser = document.getElementById("stats-level");
      if (chooser) chooser.addEventListener("change", show);
    }
  });
  // Counted as soon as the result is in the page, as the save is kept (table.js), not after htmx's
  // settle delay: a page left within those milliseconds (a tap on Statistics) lost the hand's count.
  // Counting is idempotent (each hand once), so every swapped element may call it.
  document.addEventListener("htmx:afterSwap", recordShown);
  // Another tab finished a hand or reset: keep this page current.
  window.addEventListener("storage", function (event) {
    if (event.key === KEY && document.querySelector("[data-stat]")) show();
  });
})();
