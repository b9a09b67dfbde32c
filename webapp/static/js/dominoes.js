// The dominoes view: a game against an opponent model (POST /api/dominoes/play: the page sends the deal number
// and every move so far, the server deals again, plays the model and values the player's moves), and one
// decision from a hand and the moves so far (POST /api/dominoes/decide). The page only draws.
import {$, api, fmt, stylesheet} from "./api.js";

const HTML = `
<div class="cols dm-cols">
 <div class="panel">
  <h2>Play against a model <small>(the other hand stays hidden until the end)</small></h2>
  <div class="row"><label>Deal number <input id="dm-deal" type="number" min="0" value="1"></label>
   <label>You <select id="dm-you"><option value="0">open (seat 0)</option><option value="1">move second (seat 1)</option></select></label>
   <label>Opponent model <select id="dm-model"></select></label>
   <label>Advice by <select id="dm-player" class="dm-players"></select> player</label>
   <button id="dm-new">New game</button></div>
  <div id="dm-error" class="error" role="alert"></div>
  <div id="dm-game"></div>
 </div>
 <div class="panel">
  <h2>One decision <small>(tiles as 3-5; moves 6-6, 6-3R, 5-2L, draw, pass; your draws draw:2-4)</small></h2>
  <div class="row"><label>Your 7 dealt tiles <input id="dm-hand" class="dm-wide" value="6-6,1-2,3-5,0-4,2-2,5-6,1-1"></label></div>
  <div class="row"><label>Moves so far <input id="dm-history" class="dm-wide" value="6-6 6-3L"></label></div>
  <div class="row"><label>Your seat <select id="dm-seat"><option value="0">0 (opened)</option><option value="1">1</option></select></label>
   <label>Player <select id="dm-dplayer" class="dm-players"></select></label>
   <label>Model (predictive) <select id="dm-dmodel"></select></label>
   <button id="dm-decide">Values</button></div>
  <div id="dm-derror" class="error" role="alert"></div>
  <div id="dm-dout"></div>
 </div>
</div>
<p class="legend">A move's value is your expected result (+1 win, 0 draw, -1 loss) over the other hands that
 fit the moves so far, weighed by the opponent models, searched 3 placements deep (then the engine's estimate).
 The star marks the advised move; green: better for you, red: worse.</p>`;

let game = null;  // {deal, you, model, player, moves}: all the server needs to play the game on

const colour = (v) => `hsl(${60 + 60 * Math.max(-1, Math.min(1, v))},70%,80%)`;
const signed = (v) => (v >= 0 ? "+" : "") + fmt(v, 4);
const tiles = (list) => list.map((t) => `<span class="dm-tile">${t.replace("-", "|")}</span>`).join("");

function optionsTable(options, id) {
  return `<table id="${id}"><tr><th>move</th><th>value for you</th></tr>${options.map((o) =>
    `<tr data-move="${o.move}" class="${o.best ? "best" : ""}"><td>${o.move}${o.best ? " ★" : ""}</td>
     <td class="v" style="background:${colour(o.value)}">${signed(o.value)}</td></tr>`).join("")}</table>`;
}

function drawGame(d) {
  const line = d.line.map(([a, b]) => `<span class="dm-tile">${a}|${b}</span>`).join("") || "(empty)";
  let html = `<p>Line: <span id="dm-line" class="dm-line">${line}</span></p>
    <p>Your hand: <span id="dm-myhand">${tiles(d.hand)}</span></p>
    <p>The model holds ${d.opponent_tiles} tile(s); the boneyard ${d.boneyard}.</p>`;
  if (d.over) {
    html += `<p id="dm-result" data-result="${d.result}"><b>${{win: "You won.", loss: "You lost.", draw: "Draw."}[d.result]}</b>
      The model's hand: ${tiles(d.opponent_hand) || "empty"}</p>`;
  } else {
    html += `<p>Your move (click one):</p><div class="dm-moves">${d.options.map((o) =>
      `<button data-move="${o.move}" class="${o.best ? "best" : ""}" style="background:${colour(o.value)}">${o.move}
       <small>${signed(o.value)}</small>${o.best ? " ★" : ""}</button>`).join("")}</div>`;
  }
  html += `<details><summary>Moves so far (${d.log.length})</summary><ol>${d.log.map((e) =>
    `<li>${e.player}: ${e.move}</li>`).join("")}</ol></details>`;
  $("dm-game").innerHTML = html;
  $("dm-game").querySelectorAll(".dm-moves button").forEach((b) => { b.onclick = () => send([...game.moves, b.dataset.move]); });
}

async function send(moves) {
  $("dm-error").textContent = "";
  try {
    const d = await api("dominoes/play", {...game, moves});
    game.moves = d.moves;
    drawGame(d);
  } catch (err) { $("dm-error").textContent = err.message; }
}

function newGame() {
  game = {deal: Number($("dm-deal").value), you: Number($("dm-you").value), model: $("dm-model").value,
          player: $("dm-player").value, moves: []};
  return send([]);
}

async function decide() {
  $("dm-derror").textContent = "";
  const player = $("dm-dplayer").value;
  const q = {hand: $("dm-hand").value.split(/[\s,]+/).filter((t) => t),
             history: $("dm-history").value.split(/\s+/).filter((t) => t),
             seat: Number($("dm-seat").value), player, model: player === "predictive" ? $("dm-dmodel").value : null};
  try {
    const d = await api("dominoes/decide", q);
    $("dm-dout").innerHTML = `<p>Play <b id="dm-advice">${d.move}</b>.</p>` + optionsTable(d.options, "dm-values");
  } catch (err) { $("dm-derror").textContent = err.message; $("dm-dout").innerHTML = ""; }
}

export async function mount() {
  await stylesheet("dominoes");
  $("tab-dominoes").innerHTML = HTML;
  try {
    const {models, players} = await api("dominoes/models");
    for (const id of ["dm-model", "dm-dmodel"]) $(id).innerHTML = models.map((m) => `<option>${m}</option>`).join("");
    document.querySelectorAll(".dm-players").forEach((s) => {
      s.innerHTML = players.map((p) => `<option${p === "realistic" ? " selected" : ""}>${p}</option>`).join("");
    });
  } catch (err) { $("dm-error").textContent = err.message; return; }
  $("dm-new").onclick = newGame;
  $("dm-decide").onclick = decide;
  await newGame();
}
