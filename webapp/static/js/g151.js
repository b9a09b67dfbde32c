// The 151 view: roll on or bank at one state, and the map of that decision over banked points and turn total
// (the variants and targets offered are the ones built on the server: GET /api/g151/games).
import {$, api, fmt} from "./api.js";
import {clearHeatmap, heatmap} from "./heat.js";

const ROLL = "#3a9a5b", BANK = "#b8bec7", NONE = "#ffffff";
let games = [];

function chooseVariant() {
  const g = games.find((x) => x.rules === $("g-rules").value);
  const keep = $("g-target").value;
  $("g-target").innerHTML = g.targets.map((t) => `<option>${t}</option>`).join("");
  if (g.targets.map(String).includes(keep)) $("g-target").value = keep;
}

async function g151() {
  $("g-error").textContent = "";
  const other = $("g-other").value === "" ? null : Number($("g-other").value);
  const q = {banked: Number($("g-banked").value), turn_total: Number($("g-turn").value), other_banked: other,
             target: Number($("g-target").value), rules: $("g-rules").value};
  try {
    const d = await api("g151/decide", q);
    const vals = Object.entries(d.action_values).map(([a, v]) => `${a}: ${fmt(v, 6)}`).join(", ");
    const hm = await api(`g151/heatmap?target=${q.target}&rules=${q.rules}` + (other === null ? "" : `&other_banked=${other}`));
    $("g-out").innerHTML = `<p id="g-best"><b>${d.action}</b> (${vals}; ${other === null ? "expected turns" : "win probability"})</p>`;
    const unit = hm.unit;
    heatmap($("g-heat"), hm.roll, {
      x: {label: "turn total (points)", start: 0, step: unit}, y: {label: "banked (points)", start: 0, step: unit},
      color: (v) => (v === null ? NONE : v ? ROLL : BANK),
      scale: {items: [[ROLL, "roll on"], [BANK, "bank"], [NONE, "past target"]]},
      mark: [q.banked / unit, q.turn_total / unit],
      describe: (v, i, j) => `banked ${i * unit}, turn total ${j * unit}: ` +
        (v === null ? "past the target" : v ? "roll on" : "bank")});
    $("g-legend").textContent = `Rows: points banked before this turn (upwards); columns: this turn's total. ` +
      `Circled: this state. ${other === null ? "Alone: fewest turns to the target." : `Against an opponent with ${other} banked.`}`;
  } catch (err) {
    $("g-out").innerHTML = "";
    clearHeatmap($("g-heat"));
    $("g-legend").textContent = "";
    $("g-error").textContent = err.message;
  }
}

export async function mount() {
  $("g-go").onclick = g151;
  try {
    games = (await api("g151/games")).games;
  } catch (err) { $("g-error").textContent = err.message; return; }
  if (!games.length) { $("g-error").textContent = "no 151 variant is built on this server"; return; }
  $("g-rules").innerHTML = games.map((g) => `<option>${g.rules}</option>`).join("");
  $("g-rules").onchange = chooseVariant;
  chooseVariant();
}
