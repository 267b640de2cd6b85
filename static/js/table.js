/* The scoresheet on the table's phone (issue 16): a game in a few taps, sent with a key of its
   own and kept in the browser's storage until the server has confirmed it, so that a dropped
   connection, a reload or a server restart loses nothing and stores nothing twice. */
(function () {
  "use strict";
  var body = document.body;
  var code = body.dataset.code;
  var T = JSON.parse(document.getElementById("texts").textContent);
  var QUEUE = "tisch:" + code + ":queue", REFUSED = "tisch:" + code + ":refused", SHEET = "tisch:" + code + ":sheet";
  var state = readState();
  // The rules from the server's engine, once with the page: what needs a call, the point values.
  var RULES = JSON.parse(document.getElementById("rules").textContent);
  var known = state.version;      // the sheet's version as this phone last heard it from the server
  var queue = load(QUEUE), refusals = load(REFUSED);
  var sending = false, online = true, gone = false;
  var entry = null;               // the game being entered: {number, replace, base, contract, ...}
  var history = [];               // the steps taken, for "back"

  function load(name) { try { return JSON.parse(localStorage.getItem(name)) || []; } catch (e) { return []; } }
  function store() {
    try {
      localStorage.setItem(QUEUE, JSON.stringify(queue));
      localStorage.setItem(REFUSED, JSON.stringify(refusals));
    } catch (e) { /* storage full or forbidden: the queue still lives in this page */ }
  }
  function readState() { var el = document.getElementById("state"); return el ? JSON.parse(el.textContent) : {}; }
  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);  // also without HTTPS, unlike crypto.randomUUID
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function fill(text, values) {
    return text.replace(/%(name|n|p|c|b|t)/g, function (all, name) { return values[name] !== undefined ? values[name] : all; });
  }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function seatName(position) {
    var seat = state.seats.filter(function (s) { return s.position === position; })[0];
    return seat ? seat.name : String(position);
  }

  // The sheet as the server last sent it

  function applySheet(html, newState, keep) {
    if (!html) return;
    document.getElementById("sheet-box").innerHTML = html;
    state = newState && newState.seats ? newState : readState();
    if (keep !== false) {
      // The newest sheet heard, for a reload without a connection (the kept page may be older).
      try { localStorage.setItem(SHEET, JSON.stringify({ html: html, state: state })); } catch (e) { /* full */ }
    }
    if (state.version !== undefined && (known === undefined || state.version > known)) known = state.version;
    wireSheet();
    renderEntry();
    drawUnsent();
    foldHowto();
  }

  // "So geht's" (issue 31) is for the first game: once a game is on the sheet it folds, once.
  var howtoFolded = false;
  function foldHowto() {
    var howto = document.querySelector("details.howto");
    if (howtoFolded || !howto || !document.querySelector("#sheet tr[data-game]")) return;
    howto.open = false;
    howtoFolded = true;
  }

  function wireSheet() {
    document.querySelectorAll("#sheet tr[data-game]").forEach(function (row) {
      row.addEventListener("click", function () { askChange(parseInt(row.dataset.game, 10)); });
    });
    var signSection = document.getElementById("sign");
    signSection.hidden = !(state.status === "complete" && nextSigner());
    // The final totals ("check the sheet, then sign") above the pad, not below it; back at the
    // top of the sheet when the pad is not shown. A sheet drawn anew brings its own.
    var shown = signSection.querySelector(".final"), inSheet = document.querySelector("#sheet .final");
    var sheetBox = document.getElementById("sheet");
    if (shown && inSheet) { shown.remove(); shown = null; }
    var final = inSheet || shown;
    if (final && !signSection.hidden) signSection.insertBefore(final, signSection.firstChild);
    else if (final && sheetBox) sheetBox.insertBefore(final, sheetBox.firstChild);
    if (!signSection.hidden) {
      var seat = nextSigner();
      document.getElementById("sign-title").textContent = fill(T.sign_for, { p: seat.position, name: signerName(seat) });
    }
    if (state.status === "signed") {
      document.getElementById("entry").hidden = true;
      signSection.hidden = true;
    }
  }

  // Who signs for a seat: who plays its last game, a substitute where one took over (5.2.11).
  function signerName(seat) { return seat.signer || seat.name; }

  function nextSigner() {
    if (!state.seats) return null;
    var pending = queue.filter(function (i) { return i.action === "sign"; }).map(function (i) { return i.data.position; });
    return state.seats.filter(function (s) {
      return state.signed.indexOf(s.position) < 0 && pending.indexOf(s.position) < 0;
    })[0] || null;
  }

  // What is waiting to be sent

  function renderQueue() {
    var box = document.getElementById("queue");
    box.hidden = queue.length === 0;
    box.textContent = "";
    if (queue.length) {
      box.appendChild(el("strong", {}, queue.length === 1 ? T.waiting_one : fill(T.waiting_many, { n: queue.length })));
      var list = el("ul");
      queue.forEach(function (item) { list.appendChild(el("li", {}, item.label)); });
      box.appendChild(list);
    }
    var refused = document.getElementById("refusals");
    refused.textContent = "";
    refusals.forEach(function (item, index) {
      var p = el("p", { "class": "problem" });
      p.appendChild(el("strong", {}, T.refused + " " + item.label + ". "));
      p.appendChild(document.createTextNode(item.message + (item.details && item.details.length ? " " + item.details.join(" ") : "")));
      var ok = el("button", { type: "button", "class": "plain" }, T.dismiss);
      ok.addEventListener("click", function () { refusals.splice(index, 1); store(); renderQueue(); });
      p.appendChild(ok);
      refused.appendChild(p);
    });
    drawUnsent();
    var net = document.getElementById("net");
    net.textContent = gone ? (state.status === "signed" ? T.locked : T.code_dead) : online ? T.online : T.offline;
    net.className = "net " + (online && !gone ? "on" : "off");
  }

  // The games waiting to be sent, as rows of the sheet (issue 28, item 15): marked unsent, with
  // the points the phone gave them (scored with the rules' values the server sent, RULES.points)
  // and each round's totals and checksum; the next game's row numbered as the panel is.
  function drawUnsent() {
    var sheet = document.querySelector("#sheet table.grid");
    if (!sheet) return;
    var rows = sheet.tBodies[0];
    sheet.querySelectorAll("tr.unsent").forEach(function (tr) { tr.remove(); });
    var next = rows.querySelector("tr.next");
    var games = queue.filter(function (i) { return i.action === "game" && !i.data.replace && i.points; })
      .sort(function (a, b) { return a.data.number - b.data.number; });
    var size = state.size || 4;
    var running = (state.totals || []).slice();
    games.forEach(function (item) {
      var tr = el("tr", { "class": "game unsent", "data-unsent": String(item.data.number) });
      tr.appendChild(el("td", { "class": "n num" }, String(item.data.number)));
      var text = el("td", { "class": "g played" });
      text.appendChild(el("span", { "class": "game" }, item.text || item.label));
      text.appendChild(document.createTextNode(" "));
      text.appendChild(el("span", { "class": "flag unsent-flag" }, T.unsent));
      tr.appendChild(text);
      item.points.forEach(function (value, index) {
        running[index] = (running[index] || 0) + value;
        var td = el("td", { "class": "p num" });
        td.appendChild(el("span", {}, String(value)));
        tr.appendChild(td);
      });
      rows.insertBefore(tr, next);
      if (item.data.number % size === 0) {  // the round's last game: its totals and checksum
        var sum = running.reduce(function (a, b) { return a + b; }, 0);
        var round = el("tr", { "class": "round unsent" + (sum ? " bad" : "") });
        round.appendChild(el("td", { "class": "g", colspan: "2" },
          fill(T.round, { n: item.data.number / size }) + " · " + T.total + " · " + T.checksum + " " + (sum ? sum + " ✗" : "0 ✓")));
        running.forEach(function (value) { round.appendChild(el("td", { "class": "p num total" }, String(value))); });
        rows.insertBefore(round, next);
      }
    });
    if (next) {
      var number = nextNumber();
      if (number) next.firstElementChild.textContent = String(number);
      next.hidden = !number;
    }
  }

  // A game's points as the rules score it (the server's values for this profile, game 1 apart:
  // a Tout or a Schwarz there is a plain Solo); a game that needed approval and had none is
  // struck, 0 for everybody (5.2.17).
  function pointsOf(e) {
    var values = (RULES.points[e.number === 1 ? "first" : "later"] || {})[
      e.contract + ":" + (e.contract === "sie" ? "won" : e.result) + ":" + (e.level || "")];
    if (!values) return null;
    var size = state.size || 4, out = size === 5 ? ((e.number - 1) % size) + 1 : 0;
    var struck = needsApproval(e) && !approved(e);
    var points = [];
    for (var seat = 1; seat <= size; seat++) {
      var side = seat === e.declarer || (e.contract === "rufer" && seat === e.partner);
      points.push(seat === out || struck ? 0 : side ? values[0] : values[1]);
    }
    return points;
  }

  function push(action, data, label, extra) {
    queue.push(Object.assign({ key: newKey(), action: action, data: data, label: label }, extra || {}));
    store();
    renderQueue();
    renderEntry();
    flush();
  }

  function flush() {
    if (sending || gone || !queue.length) return;
    sending = true;
    var item = queue[0];
    fetch(body.dataset.send, {
      method: "POST",
      cache: "no-store",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify({ key: item.key, action: item.action, data: item.data })
    }).then(function (response) {
      // 429: too many wrong codes from this address; the entries stay queued for later.
      if (response.status >= 500 || response.status === 429) throw new Error("server");
      return response.json().then(function (answer) { return [response, answer]; });
    }).then(function (pair) {
      var answer = pair[1];
      online = true;
      if (answer.gone) {  // signed meanwhile, drawn again or the code renewed
        queue.forEach(function (i) { refusals.push({ label: i.label, message: answer.message }); });
        queue = [];
        store();
        codeDead(answer.message, answer.html, answer.state, true);
        return;
      }
      if (queue.length && queue[0].key === item.key) queue.shift();
      if (answer.version !== undefined) {
        // Only this phone's own writes came between: the games typed after it saw the same sheet.
        if (answer.previous === known) {
          queue.forEach(function (i) { if (i.data.base === known) i.data.base = answer.version; });
        }
        known = Math.max(known || 0, answer.version);
      }
      if (answer.ok === false) {
        refusals.push({ label: item.label, message: answer.message, details: answer.details || [] });
      } else if (answer.message) {
        say(answer.message, false, answer.effects);
      }
      store();
      if (answer.html) applySheet(answer.html, answer.state);
    }).catch(function () {
      online = false;
    }).then(function () {
      sending = false;
      renderQueue();
      if (online && queue.length && !gone) flush();
    });
  }

  // The answer, and every other game the write changed (a later Solo struck, a game counting
  // again), each on its own line: the rules' changes to other games are never silent.
  function say(text, bad, effects) {
    var box = document.getElementById("answer");
    box.textContent = text;
    box.className = "answer" + (bad ? " bad" : "");
    if (effects && effects.length) {
      var list = el("ul", { "class": "effects" });
      effects.forEach(function (effect) { list.appendChild(el("li", {}, effect)); });
      box.appendChild(list);
    }
  }

  function callText(call) {
    var values = { n: call.number, c: call.label, b: call.by, t: call.since };
    if (call.status === "waiting") return fill(T.waiting_call, values);
    var text = fill(call.status === "approved" ? T.approved_call : call.status === "refused" ? T.refused_call : T.withdrawn_call, values);
    if (!call.reason) return text;
    // "… refused by X: the hand is too weak." (the reason goes before the sentence's full stop)
    return text.replace(/\.$/, "") + ": " + call.reason + (/[.!?]$/.test(call.reason) ? "" : ".");
  }

  function codeDead(message, html, newState, told) {
    gone = true;
    // A sheet signed meanwhile (at another phone, say): its final totals, as the signing phone shows them.
    if (html) applySheet(html, newState, false);
    say(told ? "" : message, !html);  // told: each write refused says it in the list above
    document.getElementById("entry").hidden = true;
    document.getElementById("sign").hidden = true;
    online = true;
  }

  // The phone asks for changes every 10 s, and every 4 s while a call waits for the supervisor:
  // 500 tables at 4 s would be 125 requests a second on the hall's server for nothing.
  var POLL_IDLE = 10000, POLL_CALLING = 4000, lastPoll = 0, polling = false;

  function calling() {
    return (state.calls || []).some(function (c) { return c.status === "waiting"; });
  }

  function poll() {
    if (sending || gone || queue.length || polling) return;
    polling = true;
    lastPoll = Date.now();
    // A request the hall's Wi-Fi swallowed must not stop the asking: given up after 15 s.
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, 15000) : null;
    var asked = state.version;
    fetch(body.dataset.part + "?seen=" + encodeURIComponent(state.etag || ""), {
      cache: "no-store", headers: { "Accept": "application/json" }, signal: controller ? controller.signal : undefined
    }).then(function (response) {
      online = true;
      if (response.status === 204) return null;
      if (response.status === 404 || response.status === 410) {
        return response.json().then(function (answer) { codeDead(answer.message, answer.html, answer.state); return null; });
      }
      if (!response.ok) throw new Error("server");
      return response.json();
    }).then(function (part) {
      // An answer overtaken by a write of this phone meanwhile would show an older sheet.
      if (part && state.version === asked) {
        var before = (state.calls || []).filter(function (c) { return c.status === "waiting"; });
        applySheet(part.html, part.state);
        before.forEach(function (call) {  // the supervisor answered: the table hears it at once
          var now = state.calls.filter(function (c) { return c.number === call.number; })[0];
          if (now && now.status !== "waiting") {
            say(callText(now), now.status === "refused");
            if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
          }
        });
      }
    }).catch(function () { online = false; }).then(function () {
      if (timer) clearTimeout(timer);
      polling = false;
      renderQueue();
    });
  }

  // Entering a game by taps

  var SUITS = ["e", "g", "h", "s"];
  var SUIT_NAME = { e: "suit_e", g: "suit_g", h: "suit_h", s: "suit_s" };

  function nextNumber() {
    var taken = {};
    Object.keys(state.kinds || {}).forEach(function (n) { taken[n] = true; });
    queue.forEach(function (i) { if (i.action === "game" && !i.data.replace) taken[i.data.number] = true; });
    for (var n = 1; n <= state.games; n++) if (!taken[n]) return n;
    return null;
  }

  function soloCount() {
    // Solo, Wenz and Tout games waiting to be sent (a Sie, "sie…", is none of them: 5.2.16)
    var extra = queue.filter(function (i) {
      return i.action === "game" && !i.data.replace && /^(s[eghs]|t|w)/.test(i.data.notation);
    }).length;
    return state.solo_count + extra;
  }

  // What the contract asks of the table before play, as the server's rules engine says
  // (RULES.need): "none", "approval", or "refused" (cannot count in this game: a Sie in game 1).
  function need(e) {
    var tables = RULES.need;
    var table = e.number === 1 ? tables.first : soloCount() >= state.approval_from - 1 ? tables.late : tables.later;
    return (table || {})[e.contract] || "none";
  }

  function needsApproval(e) {
    if (e.replace) return false;  // a game already played: the desk sorts out its approval
    return need(e) === "approval";
  }

  // A contract chosen: on to its declarer, or told at once that it cannot count (RULINGS 5).
  function chosen(e, contract, suit) {
    e.contract = contract; e.suit = suit;
    go(!e.replace && need(e) === "refused" ? "never" : "declarer");
  }

  function approved(e) {
    return (state.approvals || {})[String(e.number)] === e.contract;
  }

  function contractLabel(e) {
    if (e.contract === "rufer") return T.sauspiel + " " + T[SUIT_NAME[e.suit]];
    if (e.contract === "solo") return T[SUIT_NAME[e.suit]] + "-" + T.solo;
    if (e.contract === "solo_tout") return T[SUIT_NAME[e.suit]] + "-" + T.tout;
    if (e.contract === "wenz") return T.wenz;
    if (e.contract === "wenz_tout") return T.wenz_tout;
    return T.sie;
  }

  function notation(e) {
    var outcome = (e.result === "won" ? "+" : "-") + (e.level || "");
    switch (e.contract) {
      case "rufer": return "r" + e.suit + e.declarer + e.partner + outcome;
      case "solo": return "s" + e.suit + e.declarer + outcome;
      case "wenz": return "w" + e.declarer + outcome;
      case "solo_tout": return "t" + e.suit + e.declarer + (e.result === "won" ? "+" : "-");
      case "wenz_tout": return "wt" + e.declarer + (e.result === "won" ? "+" : "-");
      default: return "sie" + e.declarer;
    }
  }

  function label(e) {
    var players = seatName(e.declarer) + (e.partner ? " & " + seatName(e.partner) : "");
    var text = fill(e.replace ? T.change : T.contract, { n: e.number }) + ": " + contractLabel(e) + " · " + players;
    if (e.result) text += " · " + T[e.result];
    if (e.level === "s") text += " " + T.schneider;
    if (e.level === "x") text += " " + T.schwarz;
    return text;
  }

  function start(preset) {
    var number = nextNumber();
    entry = preset || (number ? { number: number, step: "contract" } : null);
    history = [];
    renderEntry();
  }

  function go(step) {
    history.push(JSON.stringify(entry));
    entry.step = step;
    renderEntry();
  }

  function choice(text, handler, extraClass) {
    var button = el("button", { type: "button", "class": "choice" + (extraClass ? " " + extraClass : "") }, text);
    button.addEventListener("click", handler);
    return button;
  }

  function row(buttons, extraClass) {
    var div = el("div", { "class": "choices" + (extraClass ? " " + extraClass : "") });
    buttons.forEach(function (b) { div.appendChild(b); });
    return div;
  }

  var drawn = null;  // what the panel shows: it is drawn again only when that changes
  function renderEntry() {
    var section = document.getElementById("entry");
    var step = document.getElementById("step");
    var title = document.getElementById("entry-title");
    if (state.status === "signed" || gone) { section.hidden = true; return; }
    if (!entry || (!entry.replace && entry.step === "contract" && entry.number !== nextNumber())) {
      var number = nextNumber();
      entry = number ? { number: number, step: "contract" } : null;
      history = [];
    }
    var shown = JSON.stringify([entry, history.length, state.status, state.calls, state.approvals, state.seats,
      queue.filter(function (i) { return i.action === "call"; }).length]);
    if (shown === drawn) return;  // a tap on the panel is never lost to a redraw
    drawn = shown;
    step.dataset.drawn = String((parseInt(step.dataset.drawn || "0", 10)) + 1);
    step.textContent = "";
    document.getElementById("back").hidden = !history.length;
    document.getElementById("cancel").hidden = !(entry && (entry.replace || history.length));
    if (!entry) {
      section.hidden = state.status !== "open";
      title.textContent = T.complete;
      return;
    }
    section.hidden = false;
    var size = state.size || 4;  // at a table of five the dealer sits his game out
    var dealer = ((entry.number - 1) % size) + 1;
    var out = size === 5 ? dealer : 0;
    // The sheet marks the dealer of the game the panel is at (also with games still waiting).
    document.querySelectorAll("#sheet thead th.p").forEach(function (th, index) {
      th.classList.toggle("deals", index + 1 === dealer);
    });
    title.textContent = fill(entry.replace ? T.change : T.contract, { n: entry.number }) + " · " + seatName(dealer) + " " + (out ? T.dealer_out : T.dealer);
    var e = entry;
    if (e.step === "contract" && !e.replace) {
      var waitingCall = (state.calls || []).filter(function (c) { return c.number === e.number && c.status === "waiting"; })[0];
      var pendingCall = queue.filter(function (i) { return i.action === "call" && i.data.number === e.number; })[0];
      if (waitingCall || pendingCall) {  // the table waits for the supervisor before playing
        step.appendChild(el("p", { "class": "waiting" }, waitingCall ? callText(waitingCall) : pendingCall.label));
        if (waitingCall) {
          step.appendChild(row([choice(T.withdraw, function () {
            push("withdraw_call", { number: e.number }, T.withdraw + " · " + fill(T.contract, { n: e.number }));
          }, "plain")]));
        }
        return;
      }
      var refusedCall = (state.calls || []).filter(function (c) { return c.number === e.number && c.status === "refused"; })[0];
      if (refusedCall) step.appendChild(el("p", { "class": "problem" }, callText(refusedCall)));
    }
    if (e.step === "contract") {
      var approvedCall = (state.calls || []).filter(function (c) { return c.number === e.number && c.status === "approved"; })[0];
      if (approvedCall && !e.replace) {
        var preset = { number: e.number, contract: approvedCall.contract, suit: approvedCall.suit ? approvedCall.suit[0] : "", declarer: approvedCall.declarer };
        step.appendChild(el("p", { "class": "ok" }, contractLabel(preset) + " · " + seatName(preset.declarer) + ": " + T.play_now));
        step.appendChild(row([choice(T.enter_result, function () {
          Object.assign(entry, preset); go(preset.contract === "sie" ? "save" : "result");
          if (preset.contract === "sie") save();
        }, "wide")]));
      }
      step.appendChild(row(["e", "g", "s"].map(function (s) {
        return choice(T.sauspiel + " " + T[SUIT_NAME[s]], function () { e.contract = "rufer"; e.suit = s; go("declarer"); }, "suit-" + s);
      }), "sauspiel"));
      step.appendChild(row(SUITS.map(function (s) {
        return choice(T[SUIT_NAME[s]] + "-" + T.solo, function () { chosen(e, "solo", s); }, "suit-" + s);
      }).concat([choice(T.wenz, function () { chosen(e, "wenz", ""); })])));
      step.appendChild(row(SUITS.map(function (s) {
        return choice(T[SUIT_NAME[s]] + "-" + T.tout, function () { chosen(e, "solo_tout", s); }, "suit-" + s);
      }).concat([
        choice(T.wenz_tout, function () { chosen(e, "wenz_tout", ""); }),
        choice(T.sie, function () { chosen(e, "sie", ""); })
      ]), "rare"));
    } else if (e.step === "never") {
      step.appendChild(el("p", { "class": "prompt" }, contractLabel(e)));
      step.appendChild(el("p", { "class": "problem" }, (RULES.need.why || {})[e.contract] || ""));
    } else if (e.step === "declarer") {
      step.appendChild(el("p", { "class": "prompt" }, contractLabel(e) + " · " + T.declarer));
      step.appendChild(row(state.seats.filter(function (s) { return s.position !== out; }).map(function (s) {
        return choice(s.position + " · " + s.name, function () {
          e.declarer = s.position;
          if (needsApproval(e) && !approved(e)) go("call");
          else if (e.contract === "rufer") go("partner");
          else if (e.contract === "sie") save();
          else go("result");
        }, "seat");
      }), "seats"));
    } else if (e.step === "partner") {
      step.appendChild(el("p", { "class": "prompt" }, contractLabel(e) + " · " + seatName(e.declarer) + " · " + T.partner));
      step.appendChild(row(state.seats.filter(function (s) { return s.position !== e.declarer && s.position !== out; }).map(function (s) {
        return choice(s.position + " · " + s.name, function () { e.partner = s.position; go("result"); }, "seat");
      }), "seats"));
    } else if (e.step === "result") {
      step.appendChild(el("p", { "class": "prompt" }, label(e) + " · " + T.result));
      step.appendChild(row([
        choice(T.won, function () { e.result = "won"; if (/tout/.test(e.contract)) save(); else go("level"); }, "won"),
        choice(T.lost, function () { e.result = "lost"; if (/tout/.test(e.contract)) save(); else go("level"); }, "lost")
      ]));
    } else if (e.step === "level") {
      step.appendChild(el("p", { "class": "prompt" }, label(e) + " · " + T.level));
      step.appendChild(row([
        choice(T.plain, function () { e.level = ""; save(); }),
        choice(T.schneider, function () { e.level = "s"; save(); }),
        choice(T.schwarz, function () { e.level = "x"; save(); })
      ]));
    } else if (e.step === "call") {
      step.appendChild(el("p", { "class": "prompt" }, contractLabel(e) + " · " + seatName(e.declarer)));
      step.appendChild(el("p", {}, T.needs_call));
      step.appendChild(el("p", { "class": "meta" }, T.cards));
      e.hand = e.hand || [];
      var cards = el("div", { "class": "cards" });
      SUITS.forEach(function (s) {
        ["A", "10", "K", "O", "U", "9", "8", "7"].forEach(function (rank) {
          var card = s.toUpperCase() + rank;
          var b = choice(card, function () {
            var at = e.hand.indexOf(card);
            if (at >= 0) e.hand.splice(at, 1); else if (e.hand.length < 8) e.hand.push(card);
            b.classList.toggle("picked", e.hand.indexOf(card) >= 0);
          }, "card suit-" + s + (e.hand.indexOf(card) >= 0 ? " picked" : ""));
          cards.appendChild(b);
        });
      });
      step.appendChild(cards);
      step.appendChild(row([choice(T.call, function () {
        var data = { number: e.number, contract: e.contract, suit: suitValue(e.suit), declarer: e.declarer };
        if (e.hand.length) data.hand = e.hand.slice();
        push("call", data, T.call + ": " + fill(T.contract, { n: e.number }) + " · " + contractLabel(e));
        entry = null; start();
      }, "wide call")]));
      step.appendChild(row([choice(T.enter_anyway, function () {
        if (e.contract === "rufer") go("partner");
        else if (e.contract === "sie") save();
        else go("result");
      }, "plain")]));
    } else if (e.step === "changewhat") {
      step.appendChild(el("p", { "class": "prompt" }, fill(T.change_what, { n: e.number })));
      step.appendChild(row([
        choice(T.change_btn, function () { e.step = "contract"; renderEntry(); }),
        choice(T.delete_btn, function () {
          if (!confirm(fill(T.delete_confirm, { n: e.number }))) return;
          push("delete", { number: e.number, base: e.base }, fill(T.delete_confirm, { n: e.number }).split("?")[0]);
          start();
        }, "lost")
      ]));
    }
  }

  function suitValue(letter) {
    return { e: "eichel", g: "gras", h: "herz", s: "schellen" }[letter] || "";
  }

  function save() {
    var e = entry;
    var data = { number: e.number, notation: notation(e) };
    if (e.replace) { data.replace = true; data.base = e.base; }
    var extra = e.replace ? {} : { points: pointsOf(e), text: label(e).split(": ").slice(1).join(": ") };
    push("game", data, label(e), extra);
    entry = null;  // back to the next new game, whatever was changed (issue 14's lesson)
    start();
  }

  function askChange(number) {
    if (state.status === "signed" || gone) return;
    entry = { number: number, replace: true, base: known, step: "changewhat" };
    history = [];
    renderEntry();
    document.getElementById("entry").scrollIntoView({ block: "start" });
  }

  document.getElementById("back").addEventListener("click", function () {
    if (history.length) { entry = JSON.parse(history.pop()); renderEntry(); }
  });
  document.getElementById("cancel").addEventListener("click", function () { entry = null; start(); });

  // Signing on the phone (5.3.2)

  var canvas = document.querySelector("#sign canvas");
  var ctx = canvas.getContext("2d");
  var drawing = false, inked = false;
  ctx.lineWidth = 2.5; ctx.lineCap = "round"; ctx.lineJoin = "round"; ctx.strokeStyle = "#111";
  function at(ev) {
    var r = canvas.getBoundingClientRect();
    return [(ev.clientX - r.left) * canvas.width / r.width, (ev.clientY - r.top) * canvas.height / r.height];
  }
  canvas.addEventListener("pointerdown", function (ev) {
    drawing = true; canvas.setPointerCapture(ev.pointerId);
    var p = at(ev); ctx.beginPath(); ctx.moveTo(p[0], p[1]);
  });
  canvas.addEventListener("pointermove", function (ev) {
    if (!drawing) return;
    var p = at(ev); ctx.lineTo(p[0], p[1]); ctx.stroke(); inked = true;
  });
  ["pointerup", "pointercancel"].forEach(function (name) { canvas.addEventListener(name, function () { drawing = false; }); });
  function clearPad() { ctx.clearRect(0, 0, canvas.width, canvas.height); inked = false; }
  document.getElementById("sign-clear").addEventListener("click", clearPad);
  document.getElementById("sign-save").addEventListener("click", function () {
    var seat = nextSigner();
    if (!seat) return;
    if (!inked) { say(T.sign_empty); return; }
    push("sign", { position: seat.position, image: canvas.toDataURL("image/png"), base: known },
      fill(T.sign_for, { p: seat.position, name: signerName(seat) }));
    clearPad();
    wireSheet();
  });

  document.querySelectorAll("[data-keeper]").forEach(function (button) {
    button.addEventListener("click", function () {
      var position = parseInt(button.dataset.keeper, 10);
      if (!confirm(fill(T.keeper_confirm, { name: seatName(position) }))) return;
      push("scorekeeper", { position: position }, fill(T.keeper_confirm, { name: seatName(position) }).replace("?", ""));
    });
  });

  window.addEventListener("online", flush);
  setInterval(function () {
    if (queue.length) flush();
    else if (Date.now() - lastPoll >= (calling() ? POLL_CALLING : POLL_IDLE) - 500) poll();
  }, 2000);
  if ("serviceWorker" in navigator && body.dataset.sw) {
    // Where the browser allows it (HTTPS, or the server's own machine): the page and its files
    // are kept, so that a reload without a connection still shows the sheet and the waiting games.
    navigator.serviceWorker.register(body.dataset.sw, { scope: "/tisch/" }).catch(function () {});
    if (window.caches) {
      var files = [location.pathname].concat(Array.prototype.map.call(
        document.querySelectorAll("link[rel=stylesheet], script[src]"),
        function (node) { return node.href || node.src; }));
      caches.open("tisch-v1").then(function (cache) { return cache.addAll(files); }).catch(function () {});
    }
  }
  var newest = null;
  try { newest = JSON.parse(localStorage.getItem(SHEET)); } catch (e) { /* none */ }
  if (newest && newest.state && newest.state.version > state.version) applySheet(newest.html, newest.state, false);
  wireSheet();
  renderQueue();
  start();
  flush();
})();
