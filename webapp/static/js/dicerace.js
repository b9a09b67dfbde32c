// The dice-race view: the advice for one state and the map of optimal numbers of dice.
import {$, api, fmt} from "./api.js";
import {heat} from "./heat.js";

async function diceRace() {
  $("dr-error").textContent = "";
  const q = {my_score: Number($("dr-my").value), other_score: Number($("dr-other").value),
             dice: Number($("dr-dice").value), target: Number($("dr-target").value), mode: $("dr-mode").value};
  try {
    const e = await api("dicerace/explain", q);
    const strat = Object.entries(e.strategy).map(([d, p]) => `${d} dice (${fmt(p, 3)})`).join(", ");
    $("dr-out").innerHTML = `<p id="dr-best"><b>Roll ${strat}</b>; expected gain ${fmt(e.value, 6)}</p>`;
    const hm = await api(`dicerace/heatmap?dice=${q.dice}&target=${q.target}&mode=${q.mode}`);
    heat($("dr-heat"), hm.best, (v, i, j) => (i === q.my_score && j === q.other_score ? "#000" :
      `hsl(${220 - 200 * (v - 1) / Math.max(1, q.dice - 1)},70%,${hm.mixed[i][j] ? 80 : 50}%)`));
    $("dr-legend").textContent = `optimal number of dice: blue = 1 ... red = ${q.dice}; rows: my score, columns: other's score; pale: several optimal; black: this state`;
  } catch (err) { $("dr-error").textContent = err.message; }
}

export async function mount() { $("dr-go").onclick = diceRace; }
