// The poker view: a hand from the deal to the showdown against random hands (the view for every game, js/game.js,
// on the protocol's routes: call or fold with its cost at once, undo, the record saved and loaded, the review), the
// equity of known hands (POST /api/poker/equity), a hand or range against a range with call or fold (POST
// /api/poker/range; a 4x13 card picker fills the hand, board and dead fields) and the preflop chart of every
// starting hand against random opponents (GET /api/poker/preflop). Every number comes from the API.
import {$, api, counted, fmt, stylesheet} from "./api.js";
import {mount as mountGame} from "./game.js";

const HTML = `
<div class="cols pk-cols">
 <div class="panel">
  <h2>Equity <small>(cards as text: AsKh, Td 9d; ranks 23456789TJQKA, suits c d h s)</small></h2>
  <div id="pk-hands"></div>
  <div class="row"><button id="pk-add">Add a hand</button>
   <label>Random opponents <input id="pk-opp" type="number" min="0" max="8" placeholder="1 with one hand, else 0"></label></div>
  <div class="row"><label>Board (0, 3, 4 or 5 cards) <input id="pk-board" class="pk-cards" placeholder="2c 7d 9h"></label>
   <label>Dead cards <input id="pk-dead" class="pk-cards" placeholder="none"></label>
   <button id="pk-go" data-main>Equity</button></div>
  <p id="pk-status" class="legend" aria-live="polite"></p>
  <div id="pk-error" class="error" role="alert"></div>
  <div id="pk-out"></div>
 </div>
 <div class="panel">
  <h2>Preflop chart <small>(equity of each starting hand; pairs on the diagonal, suited above, offsuit below)</small></h2>
  <div class="row"><label>Random opponents <select id="pk-rows"></select></label></div>
  <div id="pk-chart-error" class="error" role="alert"></div>
  <div class="pk-chart-wrap"><table id="pk-chart"></table></div>
  <div class="legend" id="pk-legend"></div>
  <div id="pk-cell" aria-live="polite"></div>
 </div>
</div>`;

// Against a range: defaults as the library's (no random opponents besides the range, seed 0, the Monte Carlo deals the
// budget allows) and the game's setup (pot 100, 50 to call). Neither panel sends a budget or a number of deals: the
// API's defaults are the library's and the command line's (docs/web.md, "Poker"), so an answer may take seconds.
const RANGE_HTML = `
<div class="cols pk-cols">
 <div class="panel" id="pk-range-panel">
  <h2>Against a range <small>(ranges: QQ+, AKs, AK, A2s+, KTo+, 76s+, 99-66, AsKs, AKs:0.5 with a weight)</small></h2>
  <div class="row"><label>Your hand (or range) <input id="pk-r-hero" class="pk-cards pk-pick" value="AsAh"></label>
   <label>Opponent's range <input id="pk-r-range" class="pk-range" value="QQ+, AKs"></label></div>
  <div class="row"><label>Board <input id="pk-r-board" class="pk-cards pk-pick" placeholder="none"></label>
   <label>Dead <input id="pk-r-dead" class="pk-cards pk-pick" placeholder="none"></label>
   <label>More random opponents <input id="pk-r-opp" type="number" min="0" max="8" value="0"></label></div>
  <div class="row"><label>Pot <input id="pk-r-pot" type="number" min="0" step="any" value="100"></label>
   <label>To call <input id="pk-r-call" type="number" min="0" step="any" value="50"></label>
   <button id="pk-r-go" data-main>Call or fold?</button></div>
  <p class="legend">Cards picked into <b id="pk-r-target">your hand</b> (click a field to pick into it; click a picked
   card to take it back)</p>
  <div id="pk-picker"></div>
  <p id="pk-r-status" class="legend" aria-live="polite"></p>
  <div id="pk-r-error" class="error" role="alert"></div>
  <div id="pk-r-out" aria-live="polite"></div>
 </div>
</div>`;

// One request at a time per panel: its button disabled (Enter and clicks then do nothing), the panel aria-busy and
// data-busy="1" (the tests wait for "0"), and a status line counting the seconds until the answer comes.
async function counting(button, status, panel, fn) {
  if (button.disabled) return;
  const start = performance.now();
  const tick = () => {
    $(status).textContent = `Counting… ${fmt((performance.now() - start) / 1000, 0)} s (every deal where the ` +
      "library's time budget allows, else an estimate from the library's number of random deals: a few seconds)";
  };
  button.disabled = true;
  panel.dataset.busy = "1";
  panel.setAttribute("aria-busy", "true");
  tick();
  const timer = setInterval(tick, 500);
  try { await fn(); } finally {
    clearInterval(timer);
    $(status).textContent = "";
    button.disabled = false;
    panel.dataset.busy = "0";
    panel.setAttribute("aria-busy", "false");
  }
}

// How an answer was found: exact over its deals, or an estimate from its sampled deals with its standard error.
// Deals weighted by ranges may be a fraction, sent as the text "numerator/denominator".
function kindOf(e, weighted) {
  const deals = (noun) => typeof e.deals === "string" ? `${e.deals} ${noun}s` : counted(e.deals, noun);
  const time = `in ${fmt(e.seconds, 2)} s`;
  return e.exact ? `<b>exact</b>: every one of <span class="pk-deals">${deals("equally likely deal")}</span> ` +
      `counted${weighted ? " (weighted by the ranges)" : ""}, ${time}`
    : `<b>estimate</b> from <span class="pk-deals">${deals("sampled deal")}</span>, ${time} (± is one standard error)`;
}

const seText = (exact, se) => exact ? "0 (exact)" : `<span class="pk-se">± ${fmt(se, 6)}</span>`;

const CARD = /^\s*([2-9TJQKA][cdhs][\s,]*)*$/i;
const PICK = {"pk-r-hero": ["your hand", 2], "pk-r-board": ["the board", 5], "pk-r-dead": ["dead cards", 48]};
let target = "pk-r-hero";

// The cards of a field, or null when it is not a list of cards (a range in the hand field).
function cardsIn(id) {
  const text = $(id).value;
  if (!CARD.test(text)) return null;
  return (text.match(/[2-9TJQKA][cdhs]/gi) || []).map((c) => c[0].toUpperCase() + c[1].toLowerCase());
}

function setTarget(id) {
  target = id;
  $("pk-r-target").textContent = PICK[id][0];
}

function markPicked() {
  const used = new Set(Object.keys(PICK).flatMap((id) => cardsIn(id) || []));
  for (const b of $("pk-picker").querySelectorAll("button")) {
    b.classList.toggle("picked", used.has(b.dataset.card));
    b.setAttribute("aria-pressed", used.has(b.dataset.card));
  }
}

function pick(card) {
  for (const id of Object.keys(PICK)) {  // a picked card: take it back
    const cards = cardsIn(id);
    if (cards && cards.includes(card)) {
      $(id).value = cards.filter((c) => c !== card).join(" ");
      markPicked();
      return;
    }
  }
  const hand = cardsIn("pk-r-hero");
  if (target === "pk-r-hero" && (hand === null || hand.length >= 2)) setTarget("pk-r-board");  // full, or a range
  const cards = cardsIn(target);
  if (cards === null || cards.length >= PICK[target][1]) return;  // not a list of cards, or full
  $(target).value = [...cards, card].join(" ");
  if (target === "pk-r-hero" && cards.length === 1) setTarget("pk-r-board");
  markPicked();
}

function drawPicker() {
  const picker = $("pk-picker");
  const symbol = {s: "♠", h: "♥", d: "♦", c: "♣"};
  for (const suit of "shdc") {
    for (const rank of "AKQJT98765432") {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.card = rank + suit;
      b.className = "pk-card pk-" + suit;
      b.textContent = rank + symbol[suit];
      b.title = rank + suit;
      b.onclick = () => pick(rank + suit);
      picker.append(b);
    }
  }
  for (const id of Object.keys(PICK)) {
    $(id).addEventListener("focus", () => setTarget(id));
    $(id).addEventListener("input", markPicked);
  }
  markPicked();
}

async function computeRange() {
  $("pk-r-error").textContent = "";
  const players = [$("pk-r-hero").value.trim(), $("pk-r-range").value.trim()].filter((v) => v);
  const q = {players, opponents: Number($("pk-r-opp").value), board: $("pk-r-board").value, dead: $("pk-r-dead").value};
  const pot = $("pk-r-pot").value, toCall = $("pk-r-call").value;
  if (pot !== "" || toCall !== "") Object.assign(q, {pot: Number(pot), to_call: Number(toCall)});
  try {
    const e = await api("poker/range", q);
    const kind = kindOf(e, true);
    const rows = e.players.map((p, i) => `<tr data-player="${i}"><td>${p}</td><td>${e.hands[i]}</td>
      <td class="eq">${fmt(e.equity[i], 6)}</td><td>${seText(e.exact, e.se[i])}</td></tr>`);
    let decision = "";
    const d = e.decision;
    if (d) {
      decision = `<p id="pk-r-decision"><b class="pk-${d.action}">${d.action.toUpperCase()}</b>: the call needs
        <span id="pk-r-needs">${fmt(100 * d.break_even, 2)} %</span> equity (${d.to_call} to call into ${d.pot});
        yours is <span id="pk-r-has">${fmt(100 * d.equity, 2)} %</span>${d.exact ? "" : " (estimated)"}; calling
        ${d.gain > 0 ? "wins" : "loses"} ${fmt(Math.abs(d.gain), 2)} chips on average against folding</p>`;
    }
    $("pk-r-out").innerHTML = `${decision}<p id="pk-r-kind">${kind} (${e.source}${e.opponents ? `; ${counted(e.opponents, "more random opponent", "more random opponents")}` : ""})</p>
      <table id="pk-r-table"><tr><th>player</th><th>hands</th><th>equity</th><th>standard error</th></tr>${rows.join("")}</table>
      <p class="legend">${e.method}${e.notes.length ? "; " + e.notes.join("; ") : ""}</p>`;
  } catch (err) { $("pk-r-error").textContent = err.message; $("pk-r-out").innerHTML = ""; }
}

function addHand(value = "") {
  const i = $("pk-hands").children.length;
  const row = document.createElement("div");
  row.className = "row";
  row.innerHTML = `<label>Hand ${i + 1} <input id="pk-hand-${i}" class="pk-cards" value="${value}"></label>`;
  $("pk-hands").append(row);
}

function percent(x) { return x === null ? "–" : fmt(100 * x, 3) + " %"; }

async function computeEquity() {
  $("pk-error").textContent = "";
  const hands = [...$("pk-hands").querySelectorAll("input")].map((i) => i.value.trim()).filter((v) => v);
  // Random opponents left empty: the API's default, as the library's and the command line's (1 with one hand, else 0).
  const opp = $("pk-opp").value.trim();
  const q = {hands, ...(opp === "" ? {} : {opponents: Number(opp)}), board: $("pk-board").value, dead: $("pk-dead").value};
  try {
    const e = await api("poker/equity", q);
    const kind = kindOf(e, false);
    const rows = e.players.map((p) => `<tr data-hand="${p.hand}"><td>${p.hand}</td><td>${percent(p.win)}</td>
      <td>${percent(p.tie)}</td><td class="eq">${fmt(p.equity, 6)}</td><td>${seText(e.exact, p.se)}</td></tr>`);
    $("pk-out").innerHTML = `<p id="pk-kind">${kind} (${e.source}${e.opponents ? `; ${counted(e.opponents, "random opponent")}` : ""})</p>
      <table id="pk-table"><tr><th>hand</th><th>win</th><th>tie</th><th>equity (share of the pot)</th><th>standard error</th></tr>
      ${rows.join("")}</table><p class="legend">${e.method}${e.notes.length ? "; " + e.notes.join("; ") : ""}</p>`;
  } catch (err) { $("pk-error").textContent = err.message; $("pk-out").innerHTML = ""; }
}

// Blue (lowest equity on the chart) through yellow to red (highest).
const colour = (t) => `hsl(${240 - 240 * t},75%,${62 + 12 * Math.sin(Math.PI * t)}%)`;

function showCell(c, chart) {
  const how = c.exact ? `exact${c.fraction ? ` (${c.fraction})` : ""}` : `estimate, standard error ${fmt(c.se, 6)}`;
  const counts = c.wins === null ? "" : `; ${counted(c.wins, "win")} and ${counted(c.ties, "tie")} in ${counted(c.deals, "deal")}`;
  $("pk-cell").innerHTML = `<p><b>${c.hand}</b> against ${chart.against}: equity <span id="pk-cell-equity">${fmt(c.equity, 6)}</span> (${how}${counts})</p>`;
}

async function drawChart() {
  $("pk-chart-error").textContent = "";
  try {
    const chart = await api(`poker/preflop?opponents=${$("pk-rows").value}`);
    const eq = chart.cells.map((c) => c.equity);
    const lo = Math.min(...eq), hi = Math.max(...eq);
    const table = $("pk-chart");
    table.innerHTML = "";
    for (let i = 0; i < 13; i++) {
      const tr = table.insertRow();
      for (let j = 0; j < 13; j++) {
        const c = chart.cells[13 * i + j];
        const b = document.createElement("button");
        b.textContent = c.hand;
        b.dataset.hand = c.hand;
        b.title = `${c.hand}: ${fmt(c.equity, 4)}`;
        b.style.background = colour((c.equity - lo) / (hi - lo || 1));
        b.onclick = () => showCell(c, chart);
        tr.insertCell().append(b);
      }
    }
    const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => `${colour(t)} ${100 * t}%`).join(",");
    $("pk-legend").innerHTML = `<span class="pk-scale" style="background:linear-gradient(to right,${stops})"></span>
      equity against ${chart.against}: ${fmt(lo, 3)} (blue) to ${fmt(hi, 3)} (red); ${chart.exact ? "exact" : "estimated (click a cell for its standard error)"}`;
  } catch (err) { $("pk-chart-error").textContent = err.message; }
}

export async function mount(section, game) {
  await stylesheet("poker");
  section.innerHTML = `<div class="pk-game"></div>` + HTML + RANGE_HTML;
  const hand = mountGame(section.querySelector(".pk-game"), game);
  addHand("AsAh");
  addHand("KdKc");
  $("pk-add").onclick = () => addHand();
  $("pk-go").onclick = () => counting($("pk-go"), "pk-status", $("pk-go").closest(".panel"), computeEquity);
  drawPicker();
  $("pk-r-go").onclick = () => counting($("pk-r-go"), "pk-r-status", $("pk-range-panel"), computeRange);
  $("pk-rows").onchange = drawChart;
  try {
    const first = await api("poker/preflop?opponents=1");
    $("pk-rows").innerHTML = first.rows.map((n) => `<option>${n}</option>`).join("");
  } catch (err) { $("pk-chart-error").textContent = err.message; return hand; }
  await Promise.all([drawChart(), hand]);
}
