// The poker view: the equity of known hands (POST /api/poker/equity) and the preflop chart of every starting
// hand against random opponents (GET /api/poker/preflop). Every number comes from the API.
import {$, api, counted, fmt, stylesheet} from "./api.js";

const HTML = `
<div class="cols pk-cols">
 <div class="panel">
  <h2>Equity <small>(cards as text: AsKh, Td 9d; ranks 23456789TJQKA, suits c d h s)</small></h2>
  <div id="pk-hands"></div>
  <div class="row"><button id="pk-add">Add a hand</button>
   <label>Random opponents <input id="pk-opp" type="number" min="0" max="8" placeholder="1 with one hand, else 0"></label></div>
  <div class="row"><label>Board (0, 3, 4 or 5 cards) <input id="pk-board" class="pk-cards" placeholder="2c 7d 9h"></label>
   <label>Dead cards <input id="pk-dead" class="pk-cards" placeholder="none"></label>
   <button id="pk-go">Equity</button></div>
  <div id="pk-error" class="error" role="alert"></div>
  <div id="pk-out"></div>
 </div>
 <div class="panel">
  <h2>Preflop chart <small>(equity of each starting hand; pairs on the diagonal, suited above, offsuit below)</small></h2>
  <div class="row"><label>Against <select id="pk-rows"></select> random hand(s)</label></div>
  <div id="pk-chart-error" class="error" role="alert"></div>
  <div class="pk-chart-wrap"><table id="pk-chart"></table></div>
  <div class="legend" id="pk-legend"></div>
  <div id="pk-cell" aria-live="polite"></div>
 </div>
</div>`;

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
    const kind = e.exact ? `<b>exact</b>: every one of ${counted(e.deals, "equally likely deal")} counted`
      : `<b>estimate</b>: ${counted(e.deals, "sampled deal")} (± is one standard error)`;
    const rows = e.players.map((p) => `<tr data-hand="${p.hand}"><td>${p.hand}</td><td>${percent(p.win)}</td>
      <td>${percent(p.tie)}</td><td class="eq">${fmt(p.equity, 6)}</td><td>${e.exact ? "exact" : "± " + fmt(p.se, 6)}</td></tr>`);
    $("pk-out").innerHTML = `<p id="pk-kind">${kind} (${e.source}${e.opponents ? `; ${counted(e.opponents, "random opponent")}` : ""})</p>
      <table id="pk-table"><tr><th>hand</th><th>win</th><th>tie</th><th>equity (share of the pot)</th><th>error</th></tr>
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

export async function mount() {
  await stylesheet("poker");
  $("tab-poker").innerHTML = HTML;
  addHand("AsAh");
  addHand("KdKc");
  $("pk-add").onclick = () => addHand();
  $("pk-go").onclick = computeEquity;
  $("pk-rows").onchange = drawChart;
  try {
    const first = await api("poker/preflop?opponents=1");
    $("pk-rows").innerHTML = first.rows.map((n) => `<option>${n}</option>`).join("");
  } catch (err) { $("pk-chart-error").textContent = err.message; return; }
  await drawChart();
}
