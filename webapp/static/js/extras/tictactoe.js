// Tic-tac-toe's board in the view of every game (js/game.js): the marks and, at a decision, each empty square's
// value for the player to move (the options' values), the advised square starred; a click plays there.
import {fmt, stylesheet} from "../api.js";

export const first = true;  // the board is where the player plays: above the advice and the options
const colour = (v) => `hsl(${60 + 60 * Math.max(-1, Math.min(1, v))},70%,80%)`;  // -1 red, 0 yellow, +1 green

export function draw(box, answer, {choose}) {
  stylesheet("tictactoe");
  const options = new Map((answer.options || []).map((o) => [o.action, o]));
  const board = Object.assign(document.createElement("div"), {className: "ttt-board"});
  board.setAttribute("role", "group"); board.setAttribute("aria-label", "board, cells 0-8 row by row");
  [...answer.state].forEach((mark, cell) => {
    const b = document.createElement("button"), o = options.get(cell);
    b.dataset.cell = cell;
    if (mark !== ".") Object.assign(b, {textContent: mark, className: "mark", disabled: true});
    else if (o) {
      const advised = answer.advice === cell;
      b.innerHTML = `<small>${cell}</small><span class="v">${o.value >= 0 ? "+" : ""}${fmt(o.value, 3)}</span>` +
        (advised ? `<span class="star">★</span>` : "");
      b.style.background = colour(o.value);
      b.classList.toggle("best", o.best); b.classList.toggle("advised", advised);
      b.setAttribute("aria-label", `cell ${cell}, value ${fmt(o.value, 3)}${advised ? ", advised" : ""}`);
      b.onclick = () => choose(cell);
    } else Object.assign(b, {innerHTML: `<small>${cell}</small>`, disabled: true});
    board.append(b);
  });
  box.replaceChildren(board);
}
