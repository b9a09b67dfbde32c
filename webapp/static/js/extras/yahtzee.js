// Yahtzee's table of every seat in the view of every game (js/game.js, which js/yahtzee.js mounts for the setups of
// two and three players): whose turn it is, the dice (those kept for a reroll held, the others still to roll), and
// every seat's score sheet side by side, in the box names of the Yahtzee view. Every number is the server's: the
// rule set's boxes (GET /api/yahtzee/rules), each seat's totals and bonuses (POST /sheet) and, while dice are on the
// table, the points they would score in the mover's open boxes (POST /allowed). At the mover's last roll a click on
// one of those boxes scores there (the same as its option below).
import {api, counted} from "../api.js";
import {label} from "../yahtzee.js";

export const first = true;  // the sheets are where the game is: above the advice and the options
// A roll at a real table is typed as digits (lookup.validate.dice_text; the protocol's parse_action reads it).
export const typed = {placeholder: "e.g. 13356", how: "as digits (13356, 1 3 3 5 6; at a reroll all the dice or " +
  "only those rolled again)"};

let ruleSets = null;  // GET /api/yahtzee/rules, asked once

// What happens now, in words: the winner(s) at the end, else the mover and the step of the turn.
function turnText(st, over, views, name) {
  if (over) {
    const best = Math.max(...views.map((v) => v.total)), top = views.flatMap((v, s) => (v.total === best ? [s] : []));
    return `Game over: ${top.map(name).join(" and ")} ${top.length > 1 ? "tie" : "wins"} with ${best} points`;
  }
  const now = st.dice === null ? "the turn's first roll" : st.kept !== null ?
    `keeps ${st.kept.length ? st.kept.join(" ") : "nothing"} and rolls again` :
    st.rerolls === 0 ? "the last roll: time to score" : `${counted(st.rerolls, "reroll")} left`;
  return `${name(st.to_move)} to play: ${now}`;
}

// The dice on the table; at a reroll the dice kept (held) and a "?" for each die rolled again.
function diceHtml(st, nDice) {
  if (st.dice !== null && st.kept === null) return st.dice.map((d) => `<span class="die">${d}</span>`).join("");
  const kept = st.kept || [];
  return kept.map((d) => `<span class="die held">${d}</span>`).join("") +
    `<span class="die ys-rolling">?</span>`.repeat(nDice - kept.length);
}

export async function draw(box, answer, {setup, seat: me, choose}) {
  ruleSets = ruleSets || api("yahtzee/rules");
  const info = (await ruleSets).find((r) => r.name === setup.rules), st = answer.state, over = answer.over;
  const mover = over ? null : st.to_move, rolled = !over && st.dice !== null && st.kept === null;
  const [views, would] = await Promise.all([
    Promise.all(st.sheets.map((sheet) => api(`yahtzee/${info.name}/sheet`, {sheet}))),
    rolled ? api(`yahtzee/${info.name}/allowed`, {dice: st.dice, rerolls: st.rerolls, sheet: st.sheets[mover]}) : {}]);
  const scoring = rolled && st.rerolls === 0;  // the mover chooses a box now: a click scores there
  const name = (s) => `player ${s + 1}${s === me ? " (you)" : ""}`;
  const mark = (s) => (s === mover ? ` class="ys-mover"` : "");
  const row = (text, cells, cls = "") => `<tr class="${cls}"><td>${text}</td>${cells.join("")}</tr>`;

  function boxCell(s, b) {
    const points = views[s].sheet[b], advised = s === mover && answer.advice === b ? " advised" : "";
    let shown = points === null ? "" : `<b>${points}</b>`;
    if (points === null && s === mover && b in would) {
      shown = scoring ? `<button class="ys-box" data-box="${b}">${would[b]}</button>` :
        `<span class="would">${would[b]}</span>`;
    }
    return `<td class="${s === mover ? "ys-mover" : ""}${advised}" data-seat="${s}" data-box="${b}">${shown}</td>`;
  }
  const totals = (text, key, cls) => row(text, views.map((v, s) => `<td${mark(s)} data-seat="${s}" data-key="${key}">` +
    `${v[key]}</td>`), cls);
  const rows = info.boxes.flatMap((b, i) => [row(label(b), views.map((_, s) => boxCell(s, b))),
    ...(i === info.upper_boxes - 1 ? [totals(`upper total (bonus at ${info.upper_threshold})`, "upper_total", "sub"),
      totals("upper bonus", "upper_bonus", "sub")] : [])]);
  if (info.yahtzee_bonus > 0) rows.push(totals(`Yahtzee bonus (${info.yahtzee_bonus} each)`, "yahtzee_bonus", "sub"));
  rows.push(totals("total", "total", "total"));
  const head = views.map((_, s) => `<th${mark(s)} data-seat="${s}">${name(s)}</th>`).join("");
  box.innerHTML = `<p class="ys-turn" data-mover="${over ? "over" : mover}">${turnText(st, over, views, name)}</p>` +
    (over ? "" : `<div class="ys-dice" role="group" aria-label="dice">${diceHtml(st, info.n_dice)}</div>`) +
    `<div class="y-wide"><table class="ys-sheets"><tr><th>box</th>${head}</tr>${rows.join("")}</table></div>`;
  box.querySelectorAll("button.ys-box").forEach((b) => { b.onclick = () => choose(b.dataset.box); });
}
