// The dice race's maps in the view of every game (js/game.js): over both scores, the win probability of the player
// to move and the optimal number of dice (GET /api/dicerace/heatmap), the position circled.
import {api, counted, fmt} from "../api.js";
import {heatmap, ramp} from "../heat.js";

const maps = new Map();  // setup (JSON) -> the maps' answer, or the error that says why there are none
// Blue (1 die) to red (the most dice), pale where the optimal strategy mixes several numbers of dice.
const diceColour = (d, most, mixed) => `hsl(${220 - 220 * (d - 1) / Math.max(1, most - 1)},70%,${mixed ? 80 : 48}%)`;
const FIGURES = `<div class="maps"><figure><figcaption class="dr-title"></figcaption><canvas class="dr-win" role="img"
 aria-label="win probability map"></canvas></figure><figure><figcaption>Optimal number of dice (pale: several)
 </figcaption><canvas class="dr-dice" role="img" aria-label="optimal number of dice map"></canvas></figure></div>`;

export async function draw(box, answer, {setup}) {
  const key = JSON.stringify(setup), {dice, target, mode} = setup;
  if (!maps.has(key)) maps.set(key, api(`dicerace/heatmap?dice=${dice}&target=${target}&mode=${mode}`).catch((e) => e));
  const hm = await maps.get(key);
  if (hm instanceof Error) { box.innerHTML = `<p class="legend">No maps: ${hm.message}</p>`; return; }
  if (!box.querySelector(".dr-win")) box.innerHTML = FIGURES;
  const me = mode === "simultaneous" ? 0 : answer.state.to_move, {scores} = answer.state;
  const axes = {x: {label: "opponent's score", start: 0, step: 1}, y: {label: "my score", start: 0, step: 1},
                mark: answer.over ? null : [scores[me], scores[1 - me]]};
  box.querySelector(".dr-title").textContent = `${hm.win_meaning} of ${mode === "simultaneous" ? "player 1" :
    "the player to move"} (optimal play by both)`;
  heatmap(box.querySelector(".dr-win"), hm.win, {...axes, color: ramp,
    scale: {label: hm.win_meaning, min: 0, max: 1, color: ramp},
    describe: (v, i, j) => `me ${i}, opponent ${j}: ${hm.win_meaning} ${fmt(v, 4)}`});
  heatmap(box.querySelector(".dr-dice"), hm.best, {...axes, color: (d, i, j) => diceColour(d, dice, hm.mixed[i][j]),
    describe: (d, i, j) => `me ${i}, opponent ${j}: ${counted(d, "die")}${hm.mixed[i][j] ? " (one of several)" : ""}`,
    scale: {label: "number of dice", min: 1, max: dice, integer: true, color: (d) => diceColour(Math.round(d), dice)}});
}
