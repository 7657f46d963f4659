// The fair-deal check. When a hand is dealt, the table shows the SHA-256 fingerprint of the shuffled
// deck and a random salt. This browser keeps the first fingerprint it sees for each hand (by match id
// and hand number), so a server could not quietly swap it later. When the hand ends, the deck and
// salt are revealed: the page hashes them with Web Crypto and compares the result with the
// fingerprint it kept, then says plainly whether they agree.
(function () {
  "use strict";
  var KEY = "gin-rummy.deals";
  var KEEP = 40; // hands remembered: enough for a long match, small enough for any storage quota
  // With storage blocked, the fingerprints last as long as the tab (store.js).
  function load() {
    var value = window.ginStore.getJSON(KEY);
    return value && value.prints && value.order ? value : { order: [], prints: {} }; // none or garbled: afresh
  }

  function save(deals) { window.ginStore.setJSON(KEY, deals); }

  function kept(key) {
    var deals = load();
    return Object.prototype.hasOwnProperty.call(deals.prints, key) ? deals.prints[key] : null;
  }

  function remember(key, fingerprint) {
    var deals = load();
    deals.prints[key] = fingerprint;
    deals.order.push(key);
    while (deals.order.length > KEEP) delete deals.prints[deals.order.shift()];
    save(deals);
  }

  function short(fingerprint) { return fingerprint.slice(0, 16); }

  function announce(text) {
    var region = document.getElementById("announce");
    if (!region) return;
    var line = document.createElement("p");
    line.textContent = text;
    region.appendChild(line);
  }

  // The result shows the verdict in a few words; the sentence and the proof open from it.
  var VERDICTS = { verified: "Deal verified ✓", failed: "Deal check failed ✗", unknown: "Deal not confirmed" };

  function report(text, verdict) {
    var status = document.getElementById("deal-status");
    if (!status) return;
    status.textContent = text;
    status.className = "deal-status " + verdict;
    status.setAttribute("data-verdict", verdict);
    var short = document.getElementById("deal-verdict");
    if (short) {
      short.textContent = VERDICTS[verdict];
      short.className = "deal-verdict " + verdict;
    }
    if (verdict !== "verified") {
      var proof = document.getElementById("deal-check");
      if (proof) proof.open = true;
    }
    announce(text);
  }

  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function verify(box, key, shown) {
    var deal = box.getAttribute("data-deal") || "";
    var earlier = kept(key);
    if (!(window.crypto && window.crypto.subtle && window.TextEncoder)) {
      report("This browser can't compute SHA-256 on this page (Web Crypto needs https or localhost). " +
        "You can check the deal yourself with the steps below.", "unknown");
      return;
    }
    window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(deal)).then(function (digest) {
      var got = hex(digest);
      if (earlier && got === earlier) {
        report("Deal verified: the deck and salt revealed now give the fingerprint " + short(got) +
          "…, the one shown when this hand was dealt.", "verified");
      } else if (earlier) {
        report("Deal check failed: the deck revealed now gives the fingerprint " + short(got) + "…, but this hand " +
          "was dealt under " + short(earlier) + "…. The deal is not the one that was sealed.", "failed");
      } else if (got === shown) {
        report("The deck revealed now matches the fingerprint " + short(got) + "…, but this browser did not see " +
          "that fingerprint before the hand ended, so it can't confirm the deal was sealed in advance.", "unknown");
      } else {
        report("Deal check failed: the deck revealed now gives the fingerprint " + short(got) + "…, not the " +
          short(shown) + "… shown for this hand.", "failed");
      }
    }, function () {
      report("This browser could not compute the fingerprint. You can check the deal yourself below.", "unknown");
    });
  }

  function check() {
    var table = document.getElementById("table");
    var key = table && table.getAttribute("data-hand");
    var shown = table && table.getAttribute("data-fingerprint");
    if (!key || !shown) return;
    var box = document.getElementById("deal-check");
    if (box) {
      verify(box, key, shown);
      return;
    }
    var earlier = kept(key);
    if (!earlier) {
      remember(key, shown);
    } else if (earlier !== shown) {
      // Mid-hand, the fingerprint must never change: say so at once, and keep the first one.
      var print = table.querySelector(".deal-print");
      if (print) print.classList.add("changed");
      var text = "Warning: this hand's fingerprint changed since it was dealt (it was " + short(earlier) +
        "…, now " + short(shown) + "…).";
      var message = document.createElement("p");
      message.className = "message";
      message.setAttribute("role", "alert");
      message.textContent = text;
      var board = table.querySelector(".scoreboard");
      if (board) board.insertAdjacentElement("afterend", message);
    }
  }

  document.addEventListener("DOMContentLoaded", check);
  // htmx fires afterSettle on every element a response swapped (the live region too): check once, for the table.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target && event.target.id === "table") check();
  });
})();
