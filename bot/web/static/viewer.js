// The board page of Skirmish's web viewer. Everything shown comes from the server: resolved
// positions as tiles, the report, the standings and the engine's legal moves. This script only
// places them; it decides no rule. User text (names) is only ever set as textContent.
"use strict";

(function () {
  const TILE = 256;
  const gameId = Number(location.pathname.split("/")[2]);
  const api = "/api/games/" + gameId;
  const params = new URLSearchParams(location.search);
  const $ = (id) => document.getElementById(id);

  let map = null;
  let tiles = null;
  let described = null;       // the update shown (its frame, report, ...)
  let marks = null;           // the clicked square and its piece's legal destinations
  let loading = 0;            // the last update asked for (answers to earlier asks are dropped)
  // the private page's script (play.js) hooks in here: square(x, y, found) after a square is shown,
  // click(x, y) before (true: it took the click), shown(described) after an update is drawn
  const hooks = {};

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function say(text, trouble = true) {
    $("message").textContent = text || "";
    $("message").classList.toggle("trouble", trouble);
  }

  async function getJson(url) {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    return body;
  }

  // squares and the map's coordinates (CRS.Simple: one unit a pixel at zoom 0, y down as -lat)
  function unit() { return TILE / described.frame.side; }
  function squareCentre(x, y) {
    const f = described.frame, u = unit();
    return L.latLng(-(f.top - y + 0.5) * u, (x - f.left + 0.5) * u);
  }
  function squareBounds(x0, y0, x1, y1) {
    const f = described.frame, u = unit();
    return L.latLngBounds([-(f.top - y0 + 1) * u, (x0 - f.left) * u], [-(f.top - y1) * u, (x1 - f.left + 1) * u]);
  }
  function squareAt(latlng) {
    const f = described.frame, u = unit();
    return [f.left + Math.floor(latlng.lng / u), f.top - Math.floor(-latlng.lat / u)];
  }
  function worldBounds() { return L.latLngBounds([-TILE, 0], [0, TILE]); }

  function remember() {
    if (!map || !described) return;
    const [x, y] = squareAt(map.getCenter());
    const query = new URLSearchParams({ update: described.update, at: x + "," + y, zoom: map.getZoom() });
    history.replaceState(null, "", location.pathname + "?" + query.toString());
  }

  function zoomFor(region) {
    const [x0, y0, x1, y1] = region;
    return Math.min(map.getBoundsZoom(squareBounds(x0, y0, x1, y1)), described.frame.max_zoom);
  }

  function centre(x, y, zoom) {
    map.setView(squareCentre(x, y), zoom === undefined ? map.getZoom() : zoom);
  }

  function showTiles() {
    const f = described.frame;
    const url = api + "/tiles/" + described.update + "/" + described.revision + "/{z}/{x}/{y}.png";
    const fresh = L.tileLayer(url, {
      tileSize: TILE, minZoom: 0, maxZoom: f.max_zoom, maxNativeZoom: f.max_zoom, noWrap: true,
      bounds: worldBounds(), keepBuffer: 1, updateWhenZooming: false,
    });
    fresh.addTo(map);
    if (tiles) {
      const old = tiles;
      fresh.once("load", () => map.removeLayer(old));
    }
    tiles = fresh;
    map.setMaxZoom(f.max_zoom);
  }

  function fillSide() {
    const d = described;
    document.title = d.game.name + ": " + d.position + " (Skirmish)";
    $("title").textContent = d.game.name + " (" + d.game.ruleset + ")";
    $("position").textContent = "Update " + d.update + " of " + d.latest + ": " + d.position;
    $("slider").max = d.latest;
    $("slider").value = d.update;
    $("previous").disabled = d.update <= 0;
    $("next").disabled = d.update >= d.latest;

    const report = $("report");
    report.replaceChildren();
    $("report-title").textContent = d.update === 0 ? "Report (none before the first update)" : "Report of update " + d.update;
    for (const line of d.report) {
      const item = element("li");
      if (line.squares.length) {
        const link = element("a", line.text);
        const [x, y] = line.squares[0];
        link.href = location.pathname + "?" + new URLSearchParams({ update: d.update, at: x + "," + y, zoom: d.frame.max_zoom });
        link.addEventListener("click", (event) => {
          event.preventDefault();
          const xs = line.squares.map((s) => s[0]), ys = line.squares.map((s) => s[1]);
          const region = [Math.min(...xs) - 2, Math.min(...ys) - 2, Math.max(...xs) + 2, Math.max(...ys) + 2];
          centre(Math.round((region[0] + region[2]) / 2), Math.round((region[1] + region[3]) / 2), zoomFor(region));
        });
        item.append(link);
      } else {
        item.textContent = line.text;
      }
      report.append(item);
    }

    $("standings-title").textContent = d.standings.title;
    $("standings").replaceChildren(...d.standings.lines.map((line) => element("li", line)));

    $("players").replaceChildren(...d.legend.players.map((player) => {
      const item = element("li");
      for (const tone of player.rgb) {
        const swatch = element("span", undefined, "swatch");
        swatch.style.backgroundColor = tone;
        item.append(swatch);
      }
      const link = element("a", player.name);
      link.href = "#";
      link.addEventListener("click", (event) => { event.preventDefault(); find(player.name); });
      item.append(link, document.createTextNode(" (" + player.colour + (player.team ? ", " + player.team : "") +
                                                "): " + player.pieces + " pieces"));
      return item;
    }));
    $("pieces").replaceChildren(...d.legend.pieces.map((piece) => element("li", piece.letter + ": " + piece.name)));

    const panels = $("panels");
    panels.replaceChildren();
    for (const panel of d.panels) {
      const section = element("section");
      section.append(element("h2", panel.title));
      const list = element("ul");
      list.replaceChildren(...panel.lines.map((line) => element("li", line)));
      section.append(list);
      panels.append(section);
    }
  }

  // the update's description, or null (the reason said on the page)
  async function describe(update) {
    try {
      return await getJson(api + "/updates/" + (update === null ? "latest" : update));
    } catch (error) {
      say(error.message);
      return null;
    }
  }

  async function load(update, keepView) {
    const asked = ++loading;
    say("");
    const fresh = await describe(update);
    if (!fresh || asked !== loading) return;
    let at = null, zoom = null;
    if (keepView && described) {
      at = squareAt(map.getCenter());
      // the same size of square, on a frame that may have grown
      zoom = map.getZoom() + (fresh.frame.k - described.frame.k);
    }
    described = fresh;
    clearMarks();
    fillSide();
    showTiles();
    if (at) centre(at[0], at[1], Math.max(0, Math.min(zoom, described.frame.max_zoom)));
    remember();
    if (hooks.shown) hooks.shown(described);
  }

  function clearMarks() {
    if (marks) { map.removeLayer(marks); marks = null; }
    $("square-panel").hidden = true;
  }

  async function showSquare(x, y) {
    clearMarks();
    let found;
    try {
      found = await getJson(api + "/updates/" + described.update + "/squares/" + x + "/" + y);
    } catch (error) {
      say(error.message);
      return;
    }
    const box = $("square");
    box.replaceChildren(element("p", "(" + x + "," + y + ")" + (found.pieces.length ? "" : ": empty")));
    marks = L.layerGroup();
    marks.addLayer(L.rectangle(squareBounds(x, y, x, y), { color: "#00aac8", weight: 3, fill: false, interactive: false }));
    for (const piece of found.pieces) {
      const item = element("div", undefined, "piece");
      const owner = piece.owner === null ? "nobody's" : piece.owner + "'s";
      item.append(element("strong", owner + " " + piece.kind + " (" + piece.letter + ")"));
      if (piece.states.length) item.append(element("div", piece.states.join(", ")));
      const moves = piece.destinations;
      item.append(element("div", moves.length ? "May move to " + moves.length + " squares: " +
        moves.slice(0, 40).map((s) => "(" + s[0] + "," + s[1] + ")").join(" ") + (moves.length > 40 ? " …" : "")
        : "No legal move from here."));
      item.classList.add("legal-moves");
      box.append(item);
      for (const [dx, dy] of moves.slice(0, 2000)) {
        marks.addLayer(L.rectangle(squareBounds(dx, dy, dx, dy),
          { color: "#00aac8", weight: 1, fillOpacity: 0.35, interactive: false }));
      }
    }
    marks.addTo(map);
    $("square-panel").hidden = false;
    if (hooks.square) hooks.square(x, y, found);
  }

  async function find(text) {
    if (!text.trim()) return;
    try {
      const found = await getJson(api + "/updates/" + described.update + "/search?" + new URLSearchParams({ q: text }));
      const [x, y] = found.square;
      if (found.region) {
        centre(x, y, zoomFor(found.region));
      } else {
        centre(x, y, Math.max(map.getZoom(), described.frame.max_zoom - 1));
        showSquare(x, y);
      }
      say(found.found ? "Showing " + found.found : "", false);
    } catch (error) {
      say(error.message);
    }
  }

  async function start() {
    map = L.map("board", { crs: L.CRS.Simple, minZoom: 0, zoomSnap: 1, zoomDelta: 1, attributionControl: false });
    described = await describe(params.has("update") ? Number(params.get("update")) : null);
    if (!described) return;
    if (params.has("at")) {
      const [x, y] = params.get("at").split(",").map(Number);
      const zoom = params.has("zoom") ? Number(params.get("zoom")) : described.frame.max_zoom - 1;
      centre(x, y, zoom);
    } else if (params.has("zoom")) {
      map.setView(worldBounds().getCenter(), Number(params.get("zoom")));
    } else {
      map.fitBounds(worldBounds());
    }
    fillSide();
    showTiles();
    remember();
    map.on("moveend", remember);
    map.on("click", (event) => {
      const [x, y] = squareAt(event.latlng);
      if (!(hooks.click && hooks.click(x, y))) showSquare(x, y);
    });
    $("slider").addEventListener("change", () => load(Number($("slider").value), true));
    $("previous").addEventListener("click", () => described.update > 0 && load(described.update - 1, true));
    $("next").addEventListener("click", () => described.update < described.latest && load(described.update + 1, true));
    document.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLTextAreaElement) return;       // the private page's order box
      if (event.target instanceof HTMLInputElement && event.target.type === "search") return;
      if (event.key === "[" && described.update > 0) load(described.update - 1, true);
      else if (event.key === "]" && described.update < described.latest) load(described.update + 1, true);
      else if (event.key === "Escape") clearMarks();
    });
    $("search").addEventListener("submit", (event) => { event.preventDefault(); find($("search-text").value); });
    if (hooks.shown) hooks.shown(described);
    document.body.dataset.ready = "true";
  }

  window.SkirmishViewer = {
    hooks, say, element, squareBounds, squareCentre, clearMarks,
    map: () => map, described: () => described, load: (update) => load(update, true),
  };

  document.addEventListener("DOMContentLoaded", start);
})();
