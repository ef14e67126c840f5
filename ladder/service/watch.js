// The game page's stepping: it loads a game's steps once (GET /api/games/{id}/steps)
// and shows one step at a time, its drawing and what happened since the step before,
// without another page load. The step is kept in the address (#step=N) so that a link
// opens at it.
(function () {
  "use strict";
  var root = document.getElementById("watch");
  var el = function (id) { return document.getElementById(id); };
  var game = null, cur = 0, timer = null;

  function item(list, text, cls) {
    var li = document.createElement("li");
    li.textContent = text;
    if (cls) { li.className = cls; }
    list.appendChild(li);
  }

  function seatName(s) { return "seat " + s + " (" + game.bots[s] + ")"; }

  function show(i) {
    if (!game || game.steps.length === 0) { return; }
    cur = Math.max(0, Math.min(i, game.steps.length - 1));
    var st = game.steps[cur];
    // The drawing is the server's SVG of this step's view: every text in it is escaped,
    // and the page's policy runs no inline script.
    el("table").innerHTML = st.table;
    el("slider").value = cur;
    el("step").textContent = cur;
    var title = cur === 0 ? "the deal" : "after decision " + (cur - 1) + ", by " + seatName(st.decided.seat);
    if (st.decided && st.decided.text) { title += ": " + st.decided.text; }
    el("title").textContent = title;
    var list = el("happened");
    list.textContent = "";
    st.happened.forEach(function (h) { item(list, h); });
    (st.forfeits || []).forEach(function (f) {
      item(list, seatName(f.seat) + " forfeits: " + f.ending + " " + f.detail, "forfeit");
    });
    if (st.happened.length === 0 && !st.forfeits) { item(list, "nothing this point of view could see", "note"); }
    var asked = el("asked");
    asked.textContent = "";
    if (st.asked) {
      // A person's own decision, not yet made, is asked with a button per option.
      var open = root.dataset.person && cur === game.steps.length - 1 && !game.result && !st.answered;
      var h = document.createElement("h3");
      if (root.dataset.person) {
        h.textContent = open ? "your turn: choose" : "your decision";
      } else {
        h.textContent = "its decision: " + (st.asked.fallback ? "played by the fallback (the seat had forfeited)" : st.asked.ms + " ms");
      }
      asked.appendChild(h);
      var ol = document.createElement("ol");
      ol.start = 0;
      st.asked.options.forEach(function (o, k) {
        if (!open) { item(ol, o, st.answered !== false && k === st.asked.chosen ? "chosen" : ""); return; }
        var li = document.createElement("li"), b = document.createElement("button");
        b.type = "button";
        b.className = "option";
        b.textContent = o;
        b.onclick = function () { choose(cur, k); };
        li.appendChild(b);
        ol.appendChild(li);
      });
      asked.appendChild(ol);
      // A long list scrolls inside its box, to the option chosen.
      var chosen = ol.children[st.asked.chosen];
      if (chosen) { ol.scrollTop = chosen.offsetTop - ol.offsetTop - ol.clientHeight / 2; }
    }
    el("result").textContent = "";
    if (cur === game.steps.length - 1 && game.result) {
      el("result").textContent = game.result.place.map(function (p, s) {
        return seatName(s) + " placed " + (p + 1) + " (score " + game.result.score[s] + ")";
      }).join("; ");
    }
    history.replaceState(null, "", "#step=" + cur);
  }

  function hashStep() {
    var m = /step=(\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 0;
  }

  // find returns the first step after the current one that test accepts, or -1.
  function find(test) {
    for (var i = cur + 1; i < game.steps.length; i++) {
      if (test(game.steps[i])) { return i; }
    }
    return -1;
  }

  function jump(test) {
    var i = find(test);
    if (i >= 0) { show(i); }
  }

  function play() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      el("play").textContent = "play";
      return;
    }
    el("play").textContent = "pause";
    timer = setInterval(function () {
      if (cur >= game.steps.length - 1) { play(); return; }
      show(cur + 1);
    }, parseInt(el("speed").value, 10));
  }

  el("prev").onclick = function () { show(cur - 1); };
  el("next").onclick = function () { show(cur + 1); };
  el("slider").oninput = function () { show(parseInt(el("slider").value, 10)); };
  el("play").onclick = play;
  el("speed").onchange = function () { if (timer) { play(); play(); } };
  el("nextseat").onclick = function () {
    var seat = parseInt(el("seatpick").value, 10);
    jump(function (st) { return st.to_move === seat; });
  };
  el("nextforfeit").onclick = function () { jump(function (st) { return st.forfeits && st.forfeits.length > 0; }); };
  window.addEventListener("hashchange", function () { if (hashStep() !== cur) { show(hashStep()); } });
  document.addEventListener("keydown", function (e) {
    if (!game || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") { return; }
    var to = {ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: game.steps.length - 1}[e.key];
    if (to !== undefined) { show(to); e.preventDefault(); }
    if (e.key === " ") { play(); e.preventDefault(); }
  });

  // live follows a game in progress through its stream of server-sent events: the
  // page shows each new step as it comes while it is at the last one (stepped back,
  // it stays where it is), and opens the replay once the game is recorded.
  function live(src) {
    var es = new EventSource(src);
    var status = el("status");
    var data = function (e) { return JSON.parse(e.data); };
    es.addEventListener("game", function (e) {
      // Sent first, and again after a reconnection, which sends every step again.
      game = data(e);
      game.steps = [];
      game.result = null;
    });
    es.addEventListener("step", function (e) {
      var follow = cur >= game.steps.length - 1 && !timer;
      game.steps.push(data(e));
      el("slider").max = game.steps.length - 1;
      el("last").textContent = game.steps.length - 1;
      status.textContent = (game.steps.length - 1) + " decisions so far";
      if (follow) { show(game.steps.length - 1); }
    });
    es.addEventListener("forfeit", function (e) {
      var f = data(e), st = game.steps[f.n];
      if (!st) { return; }
      st.forfeits = (st.forfeits || []).concat([{seat: f.seat, ending: f.ending, detail: "(the detail is shown once the game is recorded)"}]);
      if (cur === f.n) { show(cur); }
    });
    es.addEventListener("result", function (e) {
      game.result = data(e);
      status.textContent = "the game is over and is being recorded";
      if (root.dataset.person) {
        status.textContent = "the game is over (not rated)";
        es.close();
      }
      show(cur);
    });
    es.addEventListener("recorded", function (e) {
      var d = data(e);
      es.close();
      status.textContent = "recorded as game #" + d.id + ": opening its replay";
      location.assign(d.page + "#step=" + cur);
    });
    es.addEventListener("ended", function (e) {
      es.close();
      game.over = true;
      status.textContent = data(e);
      show(cur);
    });
    es.addEventListener("gone", function (e) {
      es.close();
      status.textContent = data(e);
    });
  }

  // choose sends the person's choice of option k at step n; the next step comes by
  // the stream once the game took it.
  function choose(n, k) {
    var st = game.steps[n];
    st.answered = true;
    show(cur);
    el("status").textContent = "you chose: " + st.asked.options[k] + "; the bots play…";
    fetch(root.dataset.person + "/choose", {method: "POST",
      body: new URLSearchParams({csrf: root.dataset.csrf, step: n, option: k})}).then(function (r) {
      if (!r.ok) { return r.text().then(function (t) { throw new Error(t); }); }
      st.asked.chosen = k;
      show(cur);
    }).catch(function (err) {
      st.answered = false;
      el("status").textContent = "not taken: " + err.message;
      show(cur);
    });
  }

  if (root.dataset.live || root.dataset.person) {
    live(root.dataset.live || root.dataset.person + "/events");
    return;
  }
  fetch(root.dataset.src).then(function (r) {
    if (!r.ok) { return r.text().then(function (t) { throw new Error(t); }); }
    return r.json();
  }).then(function (g) {
    game = g;
    el("slider").max = game.steps.length - 1;
    el("last").textContent = game.steps.length - 1;
    show(hashStep());
  }).catch(function (err) {
    el("table").textContent = "The game could not be loaded: " + err.message;
  });
})();
