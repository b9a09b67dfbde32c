// The tic-tac-toe view: a game against an opponent model (POST /api/tictactoe/play with every move so far: the
// server plays the model's replies and values every legal move for the player). The page only draws.
import {$, api, fmt} from "./api.js";

const HTML = `
<div class="panel">
 <h2>Tic-tac-toe <small>(squares 1-9 row by row from the top left)</small></h2>
 <div class="row"><label>Opponent model <select id="ttt-model"></select></label>
  <label>You play <select id="ttt-you"><option value="X">X (you start)</option><option value="O">O (the model starts)</option></select></label>
  <button id="ttt-new">New game</button></div>
 <div id="ttt-error" class="error" role="alert"></div>
 <div class="ttt-wrap"><div id="ttt-board" role="grid" aria-label="board"></div>
  <div><p id="ttt-status" aria-live="polite"></p><ol id="ttt-log"></ol></div></div>
 <p class="legend">On your turn each empty square shows its value for you: your expected result when you play there
  and then play best against the chosen model (+1 win, 0 draw, -1 loss). Green: good for you, red: bad; the star
  marks the advised square, a blue border every square as good.</p>
</div>`;

let game = null;  // {moves, model, you, seed}: all the server needs to play the game on

const colour = (v) => `hsl(${60 + 60 * v},70%,80%)`;  // -1 red, 0 yellow, +1 green
const name = (s) => `square ${s.square} (row ${s.row}, column ${s.column})`;

function draw(d) {
  const board = $("ttt-board");
  board.innerHTML = "";
  const options = new Map((d.options || []).map((o) => [o.cell, o]));
  [...d.board].forEach((mark, cell) => {
    const b = document.createElement("button");
    b.dataset.cell = cell;
    const o = options.get(cell);
    if (mark !== ".") {
      b.textContent = mark;
      b.className = "mark";
      b.disabled = true;
    } else if (o) {
      const advised = cell === d.advice.cell;
      b.innerHTML = `<small>${cell + 1}</small><span class="v">${o.value >= 0 ? "+" : ""}${fmt(o.value, 3)}</span>${advised ? "<span class=\"star\">★</span>" : ""}`;
      b.style.background = colour(o.value);
      b.classList.toggle("best", o.best);
      b.classList.toggle("advised", advised);
      b.setAttribute("aria-label", `square ${cell + 1}, value ${fmt(o.value, 3)}${advised ? ", advised" : o.best ? ", equally good" : ""}`);
      b.onclick = () => play(cell);
    } else {
      b.innerHTML = `<small>${cell + 1}</small>`;
      b.disabled = true;
    }
    board.append(b);
  });
  $("ttt-log").innerHTML = d.log.map((m) => `<li>${m.side}: ${name(m)}</li>`).join("");
  const status = $("ttt-status");
  if (d.over) {
    status.dataset.result = d.result;
    status.textContent = {win: "You won.", loss: "You lost.", draw: "Draw."}[d.result];
  } else {
    delete status.dataset.result;
    status.textContent = `You (${d.to_move}) to move. Value ${fmt(d.value, 3)} for you against ${d.model} ` +
      `(+1 win, -1 loss). Advised: ${name(d.advice)}.`;
  }
}

async function send(moves) {
  $("ttt-error").textContent = "";
  try {
    const d = await api("tictactoe/play", {...game, moves});
    game.moves = d.moves;
    draw(d);
  } catch (err) { $("ttt-error").textContent = err.message; }
}

const play = (cell) => send([...game.moves, cell]);

function newGame() {
  game = {moves: [], model: $("ttt-model").value, you: $("ttt-you").value, seed: Math.floor(Math.random() * 1e9)};
  return send([]);
}

export async function mount() {
  $("tab-tictactoe").innerHTML = HTML;
  try {
    const {models} = await api("tictactoe/models");
    $("ttt-model").innerHTML = models.map((m) => `<option>${m}</option>`).join("");
  } catch (err) { $("ttt-error").textContent = err.message; return; }
  $("ttt-new").onclick = newGame;
  await newGame();
}
