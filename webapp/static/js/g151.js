// The 151 view: roll on or bank, and the map of the decision over banked points and turn total.
import {$, api, fmt} from "./api.js";
import {heat} from "./heat.js";

async function g151() {
  $("g-error").textContent = "";
  const other = $("g-other").value === "" ? null : Number($("g-other").value);
  const q = {banked: Number($("g-banked").value), turn_total: Number($("g-turn").value), other_banked: other,
             target: Number($("g-target").value), rules: $("g-rules").value};
  try {
    const d = await api("g151/decide", q);
    const vals = Object.entries(d.action_values).map(([a, v]) => `${a}: ${fmt(v, 6)}`).join(", ");
    $("g-out").innerHTML = `<p id="g-best"><b>${d.action}</b> (${vals}; ${other === null ? "expected turns" : "win probability"})</p>`;
    const hm = await api(`g151/heatmap?target=${q.target}&rules=${q.rules}` + (other === null ? "" : `&other_banked=${other}`));
    heat($("g-heat"), hm.roll, (v, i, j) => (i * 50 === q.banked && j * 50 === q.turn_total ? "#000" :
      v === null ? "#fff" : v ? "#3a9a5b" : "#b8bec7"));
  } catch (err) { $("g-error").textContent = err.message; }
}

export async function mount() { $("g-go").onclick = g151; }
