// The map of a game's strategy in the view for every game (js/game.js), for a game that declares one
// (lookup/maps.py; POST /api/games/{game}/map): the tables' action and the value of the player to move over two
// coordinates of the position, the rest held, the position circled. Drawn at a decision; while chance moves and
// once the game is over the last map stays.
import {api, fmt} from "./api.js";
import {heatmap, ramp} from "./heat.js";

const NONE = "#ffffff";  // a cell with no decision of the player (past the target, a forced roll)
const FIGURES = `<div class="maps"><figure><figcaption class="map-act"></figcaption><canvas class="map-action"
 role="img" aria-label="map of the tables' action"></canvas></figure><figure><figcaption class="map-val"></figcaption>
 <canvas class="map-value" role="img" aria-label="map of the value"></canvas></figure></div>`;
// The actions in the game's order from blue to red; pale where several are optimal.
const hue = (k, n, pale) => `hsl(${220 - 220 * k / Math.max(1, n - 1)},70%,${pale ? 80 : 48}%)`;

export async function draw(box, answer, game) {
  if (answer.over || answer.to_move < 0) return;
  let m;
  try {
    m = await api(`games/${game}/map`, {record: answer.record});
  } catch (e) { box.innerHTML = `<p class="legend">No map: ${e.message}</p>`; return; }
  if (!box.querySelector(".map-action")) box.innerHTML = FIGURES;
  const axes = {x: m.x, y: m.y, mark: m.at}, n = m.actions.length;
  const cell = (i, j) => `${m.y.label} ${m.y.start + i * m.y.step}, ${m.x.label} ${m.x.start + j * m.x.step}`;
  box.querySelector(".map-act").textContent = `The tables' play of player ${m.seat + 1} (pale: several optimal)`;
  heatmap(box.querySelector(".map-action"), m.action, {...axes,
    color: (k, i, j) => (k === null ? NONE : hue(k, n, m.several[i][j])),
    scale: {items: m.actions.map((a, k) => [hue(k, n, false), a.name])},
    describe: (k, i, j) => `${cell(i, j)}: ${k === null ? "no decision" : m.actions[k].name}` +
      (m.several[i][j] ? " (one of several)" : "")});
  // The value: darker is better for the player (lower is better where the unit says so: 151's turns).
  const values = m.value.flat().filter((v) => v !== null);
  const lo = Math.min(...values), hi = Math.max(...values), span = hi - lo || 1;
  const shade = (v) => ramp(m.higher ? (v - lo) / span : (hi - v) / span);
  box.querySelector(".map-val").textContent = `Value of player ${m.seat + 1} (${m.unit})`;
  heatmap(box.querySelector(".map-value"), m.value, {...axes, color: (v) => (v === null ? NONE : shade(v)),
    scale: {label: m.unit, min: lo, max: hi, color: shade},
    describe: (v, i, j) => `${cell(i, j)}: ${v === null ? "no decision" : fmt(v, 4)}`});
}
