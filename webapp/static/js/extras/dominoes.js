// Dominoes' picture in the view for every game (js/game.js): the line and the hands as tiles, drawn from the
// position's words as the player's seat is shown them (`text`: "line 6-6 6-3; player 1: 1-2 3-5; player 2: 6 tiles;
// ..."), so the picture shows no more than the words: the other hand as a count until the end.
import {stylesheet} from "../api.js";

export const first = true;  // the line and the hand above the advice and the options

const tiles = (words) => (words.match(/\d-\d/g) || []).map((t) => `<span class="dm-tile">${t.replace("-", "|")}</span>`)
  .join("");

export function draw(box, answer, {seat}) {
  stylesheet("dominoes");
  const parts = answer.text.replace(/:[^:;]*(won|a draw)$/, "").split("; ");
  const line = parts.find((p) => p.startsWith("line ")), hands = parts.filter((p) => /^player \d: /.test(p));
  if (!line) { box.innerHTML = ""; return; }  // the deal
  box.innerHTML = `<p class="dm-line">${tiles(line.slice(5)) || "(empty line)"}</p>` + hands.map((h) => {
    const s = Number(h[7]) - 1, held = h.slice(10);
    return `<p data-seat="${s}">${s === seat ? "Your hand" : `Player ${s + 1}`}: ${/\d-\d/.test(held) ? tiles(held) : held}</p>`;
  }).join("");
}

// A tile dealt or drawn at a real table is typed as people write it (the game reads "3-5" and "5-3" alike), a hand
// as dealt all at once (several: its tiles apart by spaces); the example shown is the first tile that may come.
export const typed = {how: "as a tile (e.g. 3-5), or the whole hand dealt (3-5 6-6 1-2 ...)", several: true};
