// Yahtzee's table of every seat in the view of every game (js/game.js, which js/yahtzee.js mounts for its games of
// one to three players): whose turn it is, the dice (those kept for a reroll held, the others still to roll), and
// every seat's score sheet side by side, in the box names of the Yahtzee view. Every number is the server's: the
// rule set's boxes (GET /api/yahtzee/rules), each seat's totals and bonuses (POST /sheet) and, while dice are on the
// table, the points they would score in the mover's open boxes (POST /allowed) and the coach (POST /coach). With
// rerolls left a click on a die holds or releases it and Roll keeps the dice held (the advice's rerolls are marked);
// a click on an open box scores there, with rerolls left after keeping every die for each (each decision the same as
// its option below, its cost shown as it is made).
import {api, counted} from "../api.js";
import {coachTable, label} from "../yahtzee.js";

export const first = true;  // the sheets are where the game is: above the advice and the options
// A roll at a real table is typed as digits (lookup.validate.dice_text; the protocol's parse_action reads it).
export const typed = {how: "as digits (13356, 1 3 3 5 6; at a reroll all the dice or only those rolled again)"};

let ruleSets = null;  // GET /api/yahtzee/rules, asked once
let coachOpen = false;  // the coach stays open (or closed) from one position to the next

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

// The dice on the table (buttons to hold while rerolls are left, those the advice rerolls marked); at a reroll the
// dice kept (held) and a "?" for each die rolled again.
function diceHtml(st, nDice, holding, advice) {
  if (holding) {
    const keep = [...(Array.isArray(advice) ? advice : st.dice)];  // the advised keep: the other dice rerolled
    return st.dice.map((d, i) => { const k = keep.indexOf(d), reroll = k < 0 ? " reroll" : ""; if (k >= 0) keep.splice(k, 1);
      return `<button class="die${reroll}" data-i="${i}" aria-pressed="false">${d}</button>`; }).join("") +
      `<button class="ys-roll">Roll</button>`;
  }
  if (st.dice !== null && st.kept === null) return st.dice.map((d) => `<span class="die">${d}</span>`).join("");
  const kept = st.kept || [];
  return kept.map((d) => `<span class="die held">${d}</span>`).join("") +
    `<span class="die ys-rolling">?</span>`.repeat(nDice - kept.length);
}

export async function draw(box, answer, {setup, seat: me, choose}) {
  ruleSets = ruleSets || api("yahtzee/rules");
  const info = (await ruleSets).find((r) => r.name === setup.rules), st = answer.state, over = answer.over;
  const mover = over ? null : st.to_move, rolled = !over && st.dice !== null && st.kept === null;
  const turn = rolled && {dice: st.dice, rerolls: st.rerolls, sheet: st.sheets[mover]};
  const holding = rolled && st.rerolls > 0;  // the mover chooses the dice to keep: clicks hold them
  // (the coach, of expected-score play, where the rule set's value table is built)
  const [views, would, coach] = await Promise.all([
    Promise.all(st.sheets.map((sheet) => api(`yahtzee/${info.name}/sheet`, {sheet}))),
    rolled ? api(`yahtzee/${info.name}/allowed`, turn) : {}, holding && info.built ? api(`yahtzee/${info.name}/coach`, turn) : null]);
  const name = (s) => `player ${s + 1}${s === me ? " (you)" : ""}`;
  const mark = (s) => (s === mover ? ` class="ys-mover"` : "");
  const row = (text, cells, cls = "") => `<tr class="${cls}"><td>${text}</td>${cells.join("")}</tr>`;

  function boxCell(s, b) {
    const points = views[s].sheet[b], advised = s === mover && answer.advice === b ? " advised" : "";
    let shown = points === null ? "" : `<b>${points}</b>`;
    if (points === null && s === mover && b in would) shown = `<button class="ys-box" data-box="${b}">${would[b]}</button>`;
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
    (over ? "" : `<div class="ys-dice" role="group" aria-label="dice">${diceHtml(st, info.n_dice, holding,
      answer.advice)}</div>`) +
    `<div class="y-wide"><table class="ys-sheets"><tr><th>box</th>${head}</tr>${rows.join("")}</table></div>` +
    (coach ? `<details class="ys-coach"${coachOpen ? " open" : ""}><summary>Coach: each box's chance by keep</summary><div class="y-wide">` +
      `${coachTable(coach, info.boxes.filter((b) => views[mover].sheet[b] === null))}</div></details>` : "");
  // A box clicked with rerolls left stops rolling first: every die kept for each reroll left, then the box.
  const all = [...(st.dice || [])].sort((x, y) => x - y);
  box.querySelectorAll("button.ys-box").forEach((b) => {
    b.onclick = () => choose(...Array(st.rerolls).fill(all), b.dataset.box);
  });
  box.querySelector(".ys-coach")?.addEventListener("toggle", (e) => { coachOpen = e.target.open; });
  const dice = [...box.querySelectorAll(".ys-dice button.die")];
  dice.forEach((b) => { b.onclick = () => { b.classList.toggle("held"); b.setAttribute("aria-pressed", b.matches(".held")); }; });
  if (holding) {
    box.querySelector(".ys-roll").onclick = () => choose(dice.filter((b) => b.matches(".held"))
      .map((b) => Number(b.textContent)).sort((a, b) => a - b));
  }
}
