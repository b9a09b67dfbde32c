// The dice-race view: the advice at one state, and two maps of the whole game over both scores: the win
// probability of the player to move, and the optimal number of dice. The games offered are the ones built on
// the server (GET /api/dicerace/games); every number comes from the API.
import {$, api, fmt} from "./api.js";
import {clearHeatmap, heatmap, ramp} from "./heat.js";

let games = [];

const game = () => games[Number($("dr-game").value)];

// Dice colours: blue (1 die) to red (the most dice), pale where the optimal strategy mixes several d.
const diceColour = (d, most, mixed) => `hsl(${220 - 220 * (d - 1) / Math.max(1, most - 1)},70%,${mixed ? 80 : 48}%)`;

function chooseGame() {
  const g = game();
  $("dr-mode").innerHTML = g.modes.map((m) => `<option>${m}</option>`).join("");
  for (const id of ["dr-my", "dr-other"]) {  // the scores a game of this target has: 0..target-1
    const input = $(id);
    input.max = g.target - 1;
    input.value = Math.min(Number(input.value), g.target - 1);
  }
}

function clearPictures() {
  clearHeatmap($("dr-win"));
  clearHeatmap($("dr-dice"));
  $("dr-legend").textContent = "";
}

async function diceRace() {
  $("dr-error").textContent = "";
  const g = game();
  if (!g) return;
  const mode = $("dr-mode").value;
  const q = {my_score: Number($("dr-my").value), other_score: Number($("dr-other").value),
             dice: g.dice, target: g.target, mode};
  try {
    const e = await api("dicerace/explain", q);
    const strat = Object.entries(e.strategy).map(([d, p]) => `${d} dice (${fmt(p, 3)})`).join(", ");
    let text = `<p id="dr-best"><b>Roll ${strat}</b>; expected gain P(win) &minus; P(loss): ${fmt(e.value, 6)}</p>`;
    if (!g.map) {
      clearPictures();
      $("dr-out").innerHTML = text + `<p>No maps for a target over 200: this game is answered state by state.</p>`;
      return;
    }
    const hm = await api(`dicerace/heatmap?dice=${g.dice}&target=${g.target}&mode=${mode}`);
    const pwin = hm.win[q.my_score][q.other_score];
    text += `<p>${hm.win_meaning} of the player to move at this state: <b id="dr-pwin">${fmt(pwin, 6)}</b></p>`;
    $("dr-out").innerHTML = text;
    const axes = {x: {label: "opponent's score", start: 0, step: 1}, y: {label: "my score", start: 0, step: 1},
                  mark: [q.my_score, q.other_score]};
    $("dr-win-title").textContent = `${hm.win_meaning} of the player to move (optimal play by both)`;
    heatmap($("dr-win"), hm.win, {...axes, color: ramp, scale: {label: hm.win_meaning, min: 0, max: 1, color: ramp},
      describe: (v, i, j) => `me ${i}, opponent ${j}: ${hm.win_meaning} ${fmt(v, 4)}`});
    heatmap($("dr-dice"), hm.best, {...axes, color: (d, i, j) => diceColour(d, g.dice, hm.mixed[i][j]),
      describe: (d, i, j) => `me ${i}, opponent ${j}: ${d} dice${hm.mixed[i][j] ? " (one of several)" : ""}`,
      scale: {label: "number of dice", min: 1, max: g.dice, integer: true, color: (d) => diceColour(Math.round(d), g.dice, false)}});
    $("dr-legend").textContent = "Rows: my score (upwards); columns: the opponent's score. Circled: this state. " +
      "Dice map: the most likely optimal number of dice (ties: the fewest); pale cells: several numbers are optimal" +
      (mode === "simultaneous" ? " (a mixed strategy)." : ".");
  } catch (err) {
    $("dr-out").innerHTML = "";
    clearPictures();
    $("dr-error").textContent = err.message;
  }
}

export async function mount() {
  $("dr-go").onclick = diceRace;
  try {
    games = (await api("dicerace/games")).games;
  } catch (err) { $("dr-error").textContent = err.message; return; }
  if (!games.length) { $("dr-error").textContent = "no dice-race game is built on this server"; return; }
  $("dr-game").innerHTML = games.map((g, k) => `<option value="${k}">${g.dice} dice, target ${g.target}</option>`).join("");
  $("dr-game").value = String(Math.max(0, games.findIndex((g) => g.default)));  // lookup's default game if built
  $("dr-game").onchange = chooseGame;
  chooseGame();
}
