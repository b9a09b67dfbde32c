// The Yahtzee view: dice, advice, coach and the score sheet of every rule set.
import {$, api, fmt} from "./api.js";

const S = {dice: [1, 3, 3, 5, 6], sheet: {}, boxes: [], game: false, held: [false, false, false, false, false],
           rollsMade: 0, allowed: null};

const rules = () => $("rules").value;
const rerolls = () => Number($("rerolls").value);

function drawDice(advice) {
  const box = $("dice"); box.innerHTML = "";
  S.dice.forEach((d, i) => {
    const b = document.createElement("button");
    b.className = "die" + (S.game && S.held[i] ? " held" : "") + (advice && advice[i] ? " reroll" : "");
    b.textContent = d; b.dataset.i = i; b.setAttribute("aria-label", "die " + (i + 1));
    b.onclick = () => {
      if (S.game) { S.held[i] = !S.held[i]; drawDice(); return; }
      S.dice[i] = S.dice[i] % 6 + 1; drawDice(); };
    box.appendChild(b);
  });
}

async function drawSheet() {
  const view = await api(`yahtzee/${rules()}/sheet`, {sheet: S.sheet});
  const t = $("sheet"); t.innerHTML = "<tr><th>box</th><th>points</th></tr>";
  S.boxes.forEach((name, i) => {
    const tr = t.insertRow(); tr.insertCell().textContent = name.replaceAll("_", " ");
    const td = tr.insertCell(); td.className = "box"; td.dataset.box = name;
    const pts = view.sheet[name];
    if (pts !== null) td.textContent = pts;
    else if (S.allowed && name in S.allowed) { td.textContent = S.allowed[name]; td.classList.add("allowed"); }
    td.onclick = () => clickBox(name);
    if (i === 5) {
      const u = t.insertRow(); u.insertCell().textContent = `upper (${view.upper_total}/${view.upper_threshold})`;
      u.insertCell().textContent = "bonus " + view.upper_bonus; u.id = "upper";
    }
  });
  const y = t.insertRow(); y.insertCell().textContent = "Yahtzee bonus"; y.insertCell().textContent = view.yahtzee_bonus;
  const tot = t.insertRow(); tot.className = "total"; tot.insertCell().textContent = "total";
  const c = tot.insertCell(); c.id = "total"; c.textContent = view.total;
  return view;
}

async function clickBox(name) {
  $("error").textContent = "";
  try {
    if (S.game) {
      if (rerolls() !== 0 && S.rollsMade === 0) return;
      const r = await api(`yahtzee/${rules()}/score`, {sheet: S.sheet, dice: S.dice, category: name});
      S.sheet = r.sheet; S.allowed = null;
      if (r.finished) { S.game = false; $("status").textContent = `Game over: final score ${r.total}`;
        $("roll").disabled = true; await drawSheet(); return; }
      S.rollsMade = 0; S.held = S.held.map(() => false); $("rerolls").value = "2";
      await drawSheet(); await rollDice(); return;
    }
    const cur = S.sheet[name];
    const v = prompt(`Points in ${name} (empty = open box)`, cur === undefined || cur === null ? "" : cur);
    if (v === null) return;
    const next = {...S.sheet};
    if (v.trim() === "") delete next[name]; else next[name] = Number.isInteger(Number(v)) ? Number(v) : v;
    await api(`yahtzee/${rules()}/sheet`, {sheet: next});
    S.sheet = next; await drawSheet();
  } catch (e) { $("error").textContent = e.message; }
}

async function advise() {
  $("error").textContent = ""; $("advice").innerHTML = ""; $("coach").innerHTML = "";
  try {
    const body = {dice: S.dice, rerolls: rerolls(), sheet: S.sheet};
    const [d, options] = await Promise.all([api(`yahtzee/${rules()}/decide`, body), api(`yahtzee/${rules()}/explain`, body)]);
    drawDice(d.reroll);
    let h = `<p id="best"><b>${d.text}</b></p><table id="options"><tr><th>option</th><th>expected final score</th><th>regret</th></tr>`;
    options.forEach((o, i) => { h += `<tr class="${i === 0 ? "best" : ""}"><td>${o.action}</td><td>${fmt(o.expected_final)}</td><td>${fmt(o.regret)}</td></tr>`; });
    $("advice").innerHTML = h + "</table>";
    if (body.rerolls > 0) {
      const coach = await api(`yahtzee/${rules()}/coach`, body);
      const boxes = S.boxes.filter((b) => !(b in S.sheet) || S.sheet[b] === null);
      let c = `<table><tr><th>keep</th>${boxes.map((b) => `<th>${b.replaceAll("_", " ")}</th>`).join("")}</tr>`;
      coach.slice(0, 8).forEach((k, i) => {
        c += `<tr class="${i === 0 ? "best" : ""}"><td>[${k.keep.join(" ")}]</td>` +
          boxes.map((b) => `<td title="${k.made[b].exact}">${(100 * k.made[b].p).toFixed(1)}%</td>`).join("") + "</tr>"; });
      $("coach").innerHTML = c + "</table><small>best 8 keeps; hover a cell for the exact fraction</small>";
    } else {
      S.allowed = await api(`yahtzee/${rules()}/allowed`, body); await drawSheet();
    }
  } catch (e) { $("error").textContent = e.message; }
}

async function rollDice() {
  S.dice = S.dice.map((d, i) => (S.held[i] && S.rollsMade > 0 ? d : 1 + Math.floor(Math.random() * 6)));
  if (S.rollsMade > 0) $("rerolls").value = String(rerolls() - 1);
  S.rollsMade += 1; S.held = S.held.map(() => false);
  $("roll").disabled = rerolls() === 0;
  $("status").textContent = rerolls() === 0 ? "Click a box on the sheet to score" : "Click dice to hold, then Roll";
  drawDice(); await advise();
}

async function newGame() {
  S.game = true; S.sheet = {}; S.rollsMade = 0; S.allowed = null; $("rerolls").value = "2";
  $("roll").disabled = false; await drawSheet(); await rollDice();
}

export async function mount() {
  S.boxes = await api("yahtzee/categories");
  const sets = await api("yahtzee/rules");
  $("rules").innerHTML = sets.filter((r) => r.built).map((r) => `<option title="${r.description}">${r.name}</option>`).join("");
  $("advise").onclick = advise; $("newgame").onclick = newGame; $("roll").onclick = rollDice;
  $("rules").onchange = drawSheet;
  drawDice(); await drawSheet();
}
