// The private page of Skirmish's web viewer (/games/{id}/me#t=TOKEN): the public board (viewer.js)
// plus the player's seat, and orders by clicking. The token is read from the address's fragment
// (never sent in an address, so no server log or Referer holds it), kept for this tab only and
// sent back in the X-Skirmish-Token header. Every rule is the server's: the legal destinations are
// the engine's, each change of the order box is checked by the same check as /move, and Send is
// /move's own submission. User text is only ever set as textContent.
"use strict";

(function () {
  const V = window.SkirmishViewer;
  const POLL_MS = 3000;               // no more often than every 2 s (docs/web.md)
  const gameId = Number(location.pathname.split("/")[2]);
  const api = "/api/games/" + gameId + "/me";
  const kept = "skirmish-token-" + gameId;
  const $ = (id) => document.getElementById(id);

  let token = new URLSearchParams(location.hash.slice(1)).get("t");
  if (token) {
    sessionStorage.setItem(kept, token);
    history.replaceState(null, "", location.pathname + location.search);   // out of the address bar
  } else {
    token = sessionStorage.getItem(kept);
  }

  let seat = null;            // what /me answered last
  let selected = null;        // the player's piece clicked: {x, y, letter, to: Set of "x,y"}
  let placing = null;         // the reserve piece chosen to place: its letter
  let drawn = null;           // the army, the pending order and the draft, drawn on the board
  let checkTimer = null;
  let checkAsked = 0;
  let polling = false;

  async function ask(path, body) {
    const options = { headers: { Accept: "application/json", "X-Skirmish-Token": token || "" } };
    if (body !== undefined) {
      options.method = "POST";
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(api + path, options);
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || response.statusText);
    return answer;
  }

  function refused(text) {
    $("seat-title").textContent = "Your seat: not available";
    $("may-order").textContent = text;
    $("may-order").className = "refused";
    $("order-form").hidden = true;
  }

  function fillSeat() {
    $("seat-title").textContent = "Your seat: " + seat.player;
    $("seat-facts").textContent = seat.colour + (seat.team ? ", team " + seat.team : "") + ". " +
      seat.currency.charAt(0).toUpperCase() + seat.currency.slice(1) + ": " + seat.balance + ". " +
      seat.pieces + " pieces on the board.";
    $("may-order").className = "";
    const who = seat.who_may_order.length ? " Who may order now: " + seat.who_may_order.join(", ") + "." : "";
    $("may-order").textContent = seat.may_order
      ? "You may order now, for update " + seat.update + "." + who +
        (seat.secret ? " Your order is secret: the channel is told only that you ordered." : "")
      : "Not now: " + seat.not_now + "." + who;
    $("shape").replaceChildren(...seat.shape.map((line) => V.element("li", line)));
    $("order-update").textContent = seat.update;
    $("pending").textContent = seat.order || "none";
    $("fallback-choice").hidden = !seat.fallbacks;
    $("send").disabled = !seat.may_order;
    $("order-form").hidden = false;
    $("reserve-part").hidden = !seat.reserve.length;
    $("reserve").replaceChildren(...seat.reserve.map((kind) => {
      const button = V.element("button", kind.name + " (" + kind.letter + ")");
      button.type = "button";
      button.dataset.letter = kind.letter;
      button.classList.toggle("chosen", placing === kind.letter);
      button.addEventListener("click", () => {
        placing = placing === kind.letter ? null : kind.letter;
        for (const other of $("reserve").children) other.classList.toggle("chosen", other.dataset.letter === placing);
        V.say(placing ? "Click a square to place your " + kind.name + " there." : "", false);
      });
      return button;
    }));
    $("draft-part").hidden = !seat.draft_area.length;
    $("draft").replaceChildren(...seat.draft_area.map((kind) => {
      const button = V.element("button", kind.name + " (" + kind.letter + ")");
      button.type = "button";
      button.addEventListener("click", () => addDraft(kind.letter));
      return button;
    }));
  }

  // a placement or a draft is the turn's second part: after the action, joined with ";"
  function addPart(part) {
    const box = $("order");
    const text = box.value.trim();
    box.value = text ? text + (seat.several ? "\n" : "; ") + part : part;
    changed(true);
  }

  function addDraft(letter) {
    const box = $("order");
    const drafted = /(^|;\s*|\n)draft ([^;\n]*)$/.exec(box.value.trim());
    if (drafted) {
      box.value = box.value.trim() + ", " + letter;
      changed(true);
    } else {
      addPart("draft " + letter);
    }
  }

  async function refresh() {
    if (!token) {
      refused("This page needs your private link: ask /board in Discord (or its My board button) for it.");
      return;
    }
    try {
      seat = await ask("");
    } catch (error) {
      refused(error.message);
      return;
    }
    fillSeat();
    draw();
  }

  function movesIn(text) {
    const found = [];
    const move = /\((-?\d+),(-?\d+)\)-\((-?\d+),(-?\d+)\)/g;
    let m;
    while ((m = move.exec(text)) && found.length < 500) found.push([+m[1], +m[2], +m[3], +m[4]]);
    return found;
  }

  function arrow(layer, [x0, y0, x1, y1], colour, dashed) {
    const style = { color: colour, weight: 4, opacity: 0.9, interactive: false };
    if (dashed) style.dashArray = "6 6";
    layer.addLayer(L.polyline([V.squareCentre(x0, y0), V.squareCentre(x1, y1)], style));
    layer.addLayer(L.circleMarker(V.squareCentre(x1, y1), { radius: 5, color: colour, fillOpacity: 1, interactive: false }));
  }

  // the army, the pending order (solid) and the order being written (dashed), on the latest update only
  function draw() {
    const map = V.map(), d = V.described();
    if (!map || !d || !seat) return;
    if (drawn) map.removeLayer(drawn);
    drawn = L.layerGroup();
    if (d.update === d.latest) {
      for (const [x, y] of seat.army.slice(0, 2000)) {
        drawn.addLayer(L.rectangle(V.squareBounds(x, y, x, y), { color: "#f0b400", weight: 2, fill: false, interactive: false }));
      }
      for (const move of movesIn(seat.order || "")) arrow(drawn, move, "#c0287a", false);
      for (const move of movesIn($("order").value)) arrow(drawn, move, "#1f5fd0", true);
    }
    drawn.addTo(map);
  }

  function setCheck(kind, text) {
    $("check").className = kind;
    $("check").textContent = text;
  }

  async function runCheck() {
    const text = $("order").value;
    const asked = ++checkAsked;
    if (!text.trim()) {
      setCheck("", "");
      return;
    }
    try {
      const answer = await ask("/check", { text });
      if (asked !== checkAsked) return;
      if (answer.ok) setCheck("ok", "Valid: " + answer.canonical);
      else setCheck("refused", answer.error);
    } catch (error) {
      if (asked === checkAsked) setCheck("refused", error.message);
    }
  }

  function changed(now) {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(runCheck, now ? 0 : 400);
    draw();
  }

  function addLine(line) {
    const box = $("order");
    const text = box.value.trim();
    if ($("as-fallback").checked && text) {
      box.value = text + " else " + line;
      $("as-fallback").checked = false;
    } else if (seat.several && text) {
      box.value = text + "\n" + line;
    } else {
      box.value = line;
    }
    changed(true);
  }

  function ordering() {
    const d = V.described();
    return seat && seat.may_order && d && d.update === d.latest;
  }

  // a square shown: one of the player's pieces with somewhere to go is selected
  V.hooks.square = (x, y, found) => {
    selected = null;
    if (!ordering()) return;
    const mine = found.pieces.find((piece) => piece.owner === seat.player && piece.destinations.length);
    if (!mine) return;
    selected = { x, y, letter: mine.letter, to: new Set(mine.destinations.map((s) => s[0] + "," + s[1])) };
    V.say("Your " + mine.kind + " at (" + x + "," + y + "): click a lit square to move it there.", false);
  };

  // a click: a lit square of the selected piece writes the move; with no piece on the board, a
  // click places the king (joining); anything else shows the square as on the public page
  V.hooks.click = (x, y) => {
    if (!ordering()) return false;
    if (placing) {
      addPart("+" + placing + "(" + x + "," + y + ")");
      placing = null;
      for (const other of $("reserve").children) other.classList.remove("chosen");
      V.say("", false);
      return true;
    }
    if (selected && selected.to.has(x + "," + y)) {
      addLine(selected.letter + "(" + selected.x + "," + selected.y + ")-(" + x + "," + y + ")");
      selected = null;
      V.clearMarks();
      V.say("", false);
      return true;
    }
    if (!seat.army.length && seat.royal) {
      addLine("+" + seat.royal + "(" + x + "," + y + ")");
      return true;
    }
    return false;
  };

  V.hooks.shown = () => draw();

  async function send(event) {
    event.preventDefault();
    $("send").disabled = true;
    try {
      const receipt = await ask("/orders", { text: $("order").value });
      $("receipt").className = "";
      $("receipt").textContent = receipt.text;
      $("pending").textContent = receipt.canonical;
      $("order").value = "";
      setCheck("", "");
      await refresh();
    } catch (error) {
      $("receipt").className = "refused";
      $("receipt").textContent = error.message;
      $("send").disabled = !(seat && seat.may_order);
    }
  }

  // a new update: the page learns of it by asking, and shows the new position without a reload
  async function poll() {
    if (polling || document.hidden || !token) return;
    polling = true;
    try {
      const before = seat;
      await refresh();
      const d = V.described();
      if (seat && d && seat.latest !== null && seat.latest > d.latest) {
        await V.load(null);
        if (before && before.update !== seat.update) $("receipt").textContent = "";
      }
    } finally {
      polling = false;
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("order").addEventListener("input", () => changed(false));
    $("order-form").addEventListener("submit", send);
    $("clear-order").addEventListener("click", () => { $("order").value = ""; changed(true); });
    refresh();
    setInterval(poll, POLL_MS);
  });
})();
