// The dominoes view: a game (the view for every game, js/game.js, on the protocol's routes: the deal and every draw
// by chance, the other hand hidden until the end, a mistake's cost at once, undo, the record saved and loaded, the
// review; its setups "you 0" / "you 1" are the game at a real table, seen from that seat, whose other hand nobody
// sees), and one decision from a hand and the moves so far (POST /api/dominoes/decide). The page only draws.
import {$, api, fmt, stylesheet} from "./api.js";
import {mount as mountGame} from "./game.js";

const HTML = `
<div class="cols dm-cols">
 <div class="dm-game"></div>
 <div class="panel">
  <h2>One decision <small>(tiles as 3-5; moves 6-6, 6-3R, 5-2L, draw, pass; your draws draw:2-4)</small></h2>
  <div class="row"><label>Your 7 dealt tiles <input id="dm-hand" class="dm-wide" value="6-6,1-2,3-5,0-4,2-2,5-6,1-1"></label></div>
  <div class="row"><label>Moves so far <input id="dm-history" class="dm-wide" value="6-6 6-3L"></label></div>
  <div class="row"><label>Your seat <select id="dm-seat"><option value="0">0 (opened)</option><option value="1">1</option></select></label>
   <label>Player <select id="dm-dplayer"></select></label>
   <label>Model (predictive) <select id="dm-dmodel"></select></label>
   <button id="dm-decide" data-main>Values</button></div>
  <div id="dm-derror" class="error" role="alert"></div>
  <div id="dm-dout"></div>
  <p class="legend">A move's value is your expected result (+1 win, 0 draw, -1 loss) over the other hands that
   fit the moves so far, weighed by the opponent models, searched 3 placements deep (then the engine's estimate).
   The star marks the advised move; green: better for you, red: worse.</p>
 </div>
</div>`;

const colour = (v) => `hsl(${60 + 60 * Math.max(-1, Math.min(1, v))},70%,80%)`;
const signed = (v) => (v >= 0 ? "+" : "") + fmt(v, 4);

function optionsTable(options, id) {
  return `<table id="${id}"><tr><th>move</th><th>value for you</th></tr>${options.map((o) =>
    `<tr data-move="${o.move}" class="${o.best ? "best" : ""}"><td>${o.move}${o.best ? " ★" : ""}</td>
     <td class="v" style="background:${colour(o.value)}">${signed(o.value)}</td></tr>`).join("")}</table>`;
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

export async function mount(section, game) {
  await stylesheet("dominoes");
  section.innerHTML = HTML;
  $("dm-decide").onclick = decide;
  try {
    const {models, players} = await api("dominoes/models");
    $("dm-dmodel").innerHTML = models.map((m) => `<option>${m}</option>`).join("");
    $("dm-dplayer").innerHTML = players.map((p) => `<option${p === "realistic" ? " selected" : ""}>${p}</option>`).join("");
  } catch (err) { $("dm-derror").textContent = err.message; }
  await mountGame(section.querySelector(".dm-game"), game);
}
