// The Yahtzee view: dice, advice (expected score, play to win, or to beat an opponent whose sheet the user types
// beside theirs), the coach, the score sheet of the chosen rule set, the law of the final score, and a game with
// its record, each decision's cost and the review at the end.
// Every number comes from the API (docs/web.md, "The Yahtzee view"); this module keeps the state and draws.
import {$, api, fmt} from "./api.js";
import {barChart} from "./chart.js";

const SHOWN_OPTIONS = 8;
const START_DICE = [1, 3, 3, 5, 6, 2];  // the dice shown first (the first n_dice of them)
const S = {
  sets: [], info: null,           // every rule set (GET /api/yahtzee/rules) and the chosen one
  dice: [], held: [], rerolls: 2, sheet: {},  // n_dice of the chosen rule set (5, or 6 in Maxi Yatzy)
  opp: {}, oppView: null,         // the opponent's sheet as typed (box -> points) and as the API counts it
  game: false, stopped: false,    // in a game; the player stopped rolling (scores at 0 rerolls)
  record: null, turn: null,       // the game record (lookup/yahtzee/record.py) and the turn being played
  view: null, advice: null, options: null, allowed: {}, showAll: false, gen: 0, acting: false, loading: false,
};

const rules = () => S.info.name;
const left = () => (S.stopped ? 0 : S.rerolls);
const label = (box) => box.replaceAll("_", " ");
const randomDie = () => 1 + Math.floor(Math.random() * 6);

// The objective fields of a request: {} (expected score), {goal: N}, {beat: N}, {opponent: SHEET} (an opponent
// who plays for expected score) or {opponents: [SHEET]} (one who plays to win: forced order, the duel table).
function objective() {
  const kind = $("objective").value, n = Number($("target").value);
  if (kind === "expected") return {};
  if (kind === "opponent") return {opponent: S.opp};
  if (kind === "opponents") return {opponents: [S.opp]};
  return {[kind]: Number.isInteger(n) ? n : $("target").value};
}
const versus = () => ["opponent", "opponents"].includes($("objective").value);  // an opponent's sheet is shown
const withTarget = () => ["goal", "beat"].includes($("objective").value);  // the N field is shown
// POST /judge costs a decision in probability for goal, beat and opponent; not against a player who plays to
// win (the library's judge has no opponents): there the cost is the option's regret in the explain answer.
const judged = () => ($("objective").value === "opponents" ? {} : objective());

// data-busy="1" while the view waits for the API (a refresh, or a player's action): the tests (and a screen
// reader's aria-busy) wait for "0".
function settle() {
  const on = S.acting || S.loading;
  $("tab-yahtzee").dataset.busy = on ? "1" : "0"; $("tab-yahtzee").setAttribute("aria-busy", on);
}
function showError(e) { $("error").textContent = e ? e.message : ""; }

function drawDice() {
  const box = $("dice"); box.innerHTML = "";
  const advised = S.advice && S.advice.reroll;
  S.dice.forEach((d, i) => {
    const b = document.createElement("button");
    const held = S.game && S.held[i];
    b.className = "die" + (held ? " held" : "") + (advised && advised[i] ? " reroll" : "");
    b.textContent = d; b.dataset.i = i;
    b.setAttribute("aria-label", `die ${i + 1}: ${d}` + (S.game ? (held ? ", held" : ", not held") : ""));
    if (S.game) b.setAttribute("aria-pressed", held);
    b.onclick = () => toggleDie(i);
    box.appendChild(b);
  });
}

function toggleDie(i) {
  if (S.game) {  // a hold never changes the advice or the other marks: redraw the dice only
    if (S.turn && left() > 0) { S.held[i] = !S.held[i]; drawDice(); }
    return;
  }
  S.dice[i] = S.dice[i] % 6 + 1; refresh();
}

// A row of the sheet (a name and the player's value; the opponent's, when one is played against).
function row(t, name, value, cls = "", opp = undefined) {
  const tr = t.insertRow(); tr.className = cls;
  tr.insertCell().textContent = name; const td = tr.insertCell(); td.textContent = value;
  if (opp !== undefined) tr.insertCell().textContent = opp;
  return td;
}

// The opponent's points in box ``name`` as an input (empty = open box): each change asks the advice again;
// the API checks the sheet (its message in the error line).
function oppCell(tr, name) {
  const td = tr.insertCell(); td.className = "opp";
  td.innerHTML = `<label><span class="y-sr">opponent's points in ${label(name)}</span>` +
    `<input type="number" inputmode="numeric" data-opp="${name}"></label>`;
  const input = td.querySelector("input"), cur = S.opp[name];
  input.value = cur === undefined || cur === null ? "" : cur;
  input.onchange = () => {
    const text = input.value.trim(), next = {...S.opp};
    if (text === "") delete next[name]; else next[name] = Number.isInteger(Number(text)) ? Number(text) : text;
    S.opp = next; refresh();
  };
  return td;
}

function drawSheet() {
  const v = S.view, info = S.info, t = $("sheet"), o = versus() ? S.oppView : null, vs = versus();
  const focused = focusedCell(t);
  t.innerHTML = "<tr><th>box</th><th>points</th>" + (vs ? "<th>Opponent</th>" : "") + "</tr>";
  info.boxes.forEach((name, i) => {
    const tr = t.insertRow(); tr.insertCell().textContent = label(name);
    const td = tr.insertCell(); td.className = "box"; td.dataset.box = name;
    const pts = v.sheet[name];
    if (pts !== null && pts !== undefined) { td.textContent = pts; td.classList.add("filled"); }
    else if (name in S.allowed) { td.innerHTML = `<span class="would">${S.allowed[name]}</span>`; }
    else td.innerHTML = `<span class="would" title="these dice may not go here">&ndash;</span>`;
    if (S.advice && S.advice.category === name) td.classList.add("advised");
    td.tabIndex = 0; td.setAttribute("role", "button");
    td.setAttribute("aria-label", `${label(name)}: ${td.textContent}`);
    td.onclick = () => clickBox(name, td);
    td.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickBox(name, td); } };
    if (vs) oppCell(tr, name);
    if (i === info.upper_boxes - 1) {
      row(t, `upper total (bonus at ${v.upper_threshold})`, v.upper_total, "sub", o?.upper_total).id = "upper-total";
      row(t, "upper bonus", v.upper_bonus, "sub", o?.upper_bonus).id = "upper-bonus";
    }
  });
  if (info.yahtzee_bonus > 0) {
    const td = row(t, `Yahtzee bonus (${info.yahtzee_bonus} each)`, v.yahtzee_bonus, "sub");
    td.id = "yahtzee-bonus"; if (vs) oppCell(td.parentElement, "yahtzee_bonus");
  }
  const total = row(t, "total", v.total, "total", vs ? (o ? o.total : "?") : undefined);
  total.id = "total"; if (vs) total.nextElementSibling.id = "opp-total";
  // The table is drawn anew after each answer: the opponent's box being typed in keeps the focus.
  if (focused) { const el = t.querySelector(focused); if (el) el.focus(); }
}

// A selector of the sheet's cell or opponent's input that has the focus (the table is drawn anew after each
// answer: a keyboard user typing the opponent's boxes keeps their place), or null.
function focusedCell(t) {
  const a = document.activeElement;
  if (!a || !t.contains(a)) return null;
  if (a.dataset.opp !== undefined) return `input[data-opp="${a.dataset.opp}"]`;
  return a.dataset.box !== undefined ? `td[data-box="${a.dataset.box}"]` : null;
}

// Points typed into the cell itself (outside a game): Enter keeps them (empty = open box), Escape cancels.
function editBox(name, td) {
  if (td.querySelector("input")) return;
  const cur = S.sheet[name];
  td.innerHTML = `<label><span class="y-sr">points in ${label(name)}</span><input type="number" inputmode="numeric"></label>`;
  const input = td.querySelector("input"); input.value = cur === undefined || cur === null ? "" : cur;
  let done = false;
  const commit = (keep) => {
    if (done) return; done = true;
    if (!keep) { drawSheet(); return; }
    const next = {...S.sheet}, text = input.value.trim();
    if (text === "") delete next[name]; else next[name] = Number.isInteger(Number(text)) ? Number(text) : text;
    // The API checks the points (the library's message on the page otherwise); the sheet is kept only then.
    act(async () => { await api(`yahtzee/${rules()}/sheet`, {sheet: next}); S.sheet = next; await refresh(); });
  };
  input.onkeydown = (e) => {
    e.stopPropagation();
    if (e.key === "Enter") commit(true); else if (e.key === "Escape") commit(false);
  };
  input.onblur = () => commit(true);
  input.focus();
}

function clickBox(name, td) {
  if (!S.game) { editBox(name, td); return; }
  if (S.view.sheet[name] === null && S.turn) act(() => scoreBox(name));
}

function drawAdvice() {
  const d = S.advice, o = S.options || [];
  $("best").textContent = d ? d.text : (S.view && S.view.finished ? "The sheet is full." : "");
  const win = d && d.probability !== undefined && d.probability !== null;
  const shown = S.showAll ? o : o.slice(0, SHOWN_OPTIONS);
  const head = !win ? "expected final score" : versus() ? "P(win) (ties half)" : "probability";
  $("options").innerHTML = !o.length ? "" :
    `<tr><th>option</th><th>${head}</th><th>regret</th></tr>` +
    shown.map((x, i) => `<tr class="${x.regret === 0 ? "best" : ""}"><td>${x.action}</td>` +
      `<td>${win ? fmt(x.probability, 6) : fmt(x.expected_final)}</td><td>${fmt(x.regret, win ? 6 : 4)}</td></tr>`).join("");
  const more = $("showall"); more.hidden = o.length <= SHOWN_OPTIONS;
  more.textContent = S.showAll ? `show the best ${SHOWN_OPTIONS}` : `show all ${o.length} options`;
}

function drawCoach(coach) {
  if (!coach) {
    $("coach").innerHTML = S.advice ? "<small>at 0 rerolls the dice are final: see the sheet</small>" : "";
    return;
  }
  const boxes = S.info.boxes.filter((b) => S.view.sheet[b] === null);
  let c = `<table><tr><th>keep</th>${boxes.map((b) => `<th>${label(b)}</th>`).join("")}</tr>`;
  coach.slice(0, SHOWN_OPTIONS).forEach((k, i) => {
    c += `<tr class="${i === 0 ? "best" : ""}"><td>[${k.keep.join(" ")}]</td>` +
      boxes.map((b) => `<td title="${k.made[b].exact}">${(100 * k.made[b].p).toFixed(1)}%</td>`).join("") + "</tr>";
  });
  $("coach").innerHTML = c + `</table><small>the best ${SHOWN_OPTIONS} keeps</small>`;
}

function drawButtons() {
  const inTurn = S.game && S.turn, more = inTurn && left() > 0;
  $("roll").disabled = !more; $("scorenow").disabled = !more; $("apply").disabled = !(inTurn && S.advice);
  $("rerolls").disabled = S.game; $("rerolls").value = String(left());
}

// Everything that depends on the dice, rerolls, rule set, objective or sheet, asked again; an older answer
// arriving after a newer question is dropped (gen).
async function refresh() {
  const gen = ++S.gen; S.loading = true; settle();
  try {
    const turn = {dice: S.dice, rerolls: left(), sheet: S.sheet}, goal = objective();
    const [view, oppView] = await Promise.all([api(`yahtzee/${rules()}/sheet`, {sheet: S.sheet}),
      versus() ? api(`yahtzee/${rules()}/sheet`, {sheet: S.opp}).catch((e) => {
        throw new Error(`the opponent's sheet: ${e.message}`);
      }) : null]);
    S.oppView = oppView;
    let advice = null, options = null, allowed = {}, coach = null;
    if (!view.finished) {
      [advice, options, allowed, coach] = await Promise.all([
        api(`yahtzee/${rules()}/decide`, {...turn, ...goal}), api(`yahtzee/${rules()}/explain`, {...turn, ...goal}),
        api(`yahtzee/${rules()}/allowed`, turn), turn.rerolls > 0 ? api(`yahtzee/${rules()}/coach`, turn) : null]);
    }
    if (gen !== S.gen) return;
    Object.assign(S, {view, advice, options, allowed});
    drawDice(); drawSheet(); drawAdvice(); drawCoach(coach); drawButtons();
  } catch (e) {
    if (gen !== S.gen) return;
    S.advice = null; S.options = null; drawAdvice(); drawButtons(); showError(e);
  } finally { if (gen === S.gen) { S.loading = false; settle(); } }
}

// One player action at a time (a key pressed twice while the API answers acts once).
async function act(fn) {
  if (S.acting) return;
  S.acting = true; settle(); showError(null);
  try { await fn(); } catch (e) { showError(e); await refresh(); } finally { S.acting = false; settle(); }
}

// What the decision about to be played costs (POST /judge), written under the dice before it is played.
async function judgeAndShow(choice) {
  const d = await api(`yahtzee/${rules()}/judge`, {dice: S.dice, rerolls: left(), sheet: S.sheet, ...judged(), ...choice});
  const pts = d.points.cost, prob = d.probability || duelCost(choice);
  const bad = pts > 0 || (prob && prob.cost > 0);
  let text = `${d.action}: `;
  if (!bad) text += "as good as the best";
  else {
    text += `cost ${fmt(pts)} expected points (best: ${d.points.best_action})`;
    if (prob) text += `; ${fmt(prob.cost, 6)} of probability (best: ${prob.best_action})`;
  }
  const p = document.createElement("p");
  p.className = "cost " + (bad ? "bad" : "ok"); p.textContent = text; p.dataset.points = pts;
  if (prob) p.dataset.probability = prob.cost;
  $("cost").replaceChildren(p);
}

// Against an opponent who plays to win: the chosen option's regret and the best option, from the explain
// answer of this very turn (S.options), or null when there is none.
function duelCost(choice) {
  if ($("objective").value !== "opponents" || !S.options || !S.options.length) return null;
  const same = (k) => k && choice.keep && k.length === choice.keep.length && k.every((f, i) => f === choice.keep[i]);
  const o = S.options.find((x) => (choice.box ? x.category === choice.box : same(x.keep)));
  return o ? {cost: o.regret, best_action: S.options[0].action} : null;
}

async function roll() {
  if (!S.game || !S.turn || left() === 0) return;
  if (S.held.every(Boolean)) { await stop(); return; }  // keeping every die is stopping
  const keep = S.dice.filter((_, i) => S.held[i]).sort((a, b) => a - b);
  await judgeAndShow({keep});
  S.turn.keeps.push(keep);
  S.dice = S.dice.map((d, i) => (S.held[i] ? d : randomDie()));
  S.turn.rolls.push([...S.dice]); S.rerolls -= 1;
  $("status").textContent = `Turn ${S.record.turns.length + 1}: roll ${S.turn.rolls.length}`;
  await refresh();
}

async function stop() {
  if (!S.game || !S.turn || left() === 0) return;
  await judgeAndShow({keep: [...S.dice].sort((a, b) => a - b)});
  S.stopped = true; await refresh();
}

async function scoreBox(name) {
  if (left() > 0) await stop();  // a box chosen with rerolls left: first the decision to stop
  await judgeAndShow({box: name});
  const r = await api(`yahtzee/${rules()}/score`, {sheet: S.sheet, dice: S.dice, category: name});
  S.turn.box = name; S.record.turns.push(S.turn); S.turn = null; S.sheet = r.sheet;
  if (r.finished) { await endGame(r.total); return; }
  await newTurn();
}

async function applyAdvice() {
  const d = S.advice;
  if (!S.game || !S.turn || !d) return;
  if (d.category) await scoreBox(d.category);
  else if (!d.reroll.some(Boolean)) await stop();
  else { S.held = d.reroll.map((r) => !r); await roll(); }
}

async function newTurn() {
  S.rerolls = 2; S.stopped = false; S.held = S.held.map(() => false);
  S.dice = S.dice.map(randomDie); S.turn = {rolls: [[...S.dice]], keeps: []};
  $("status").textContent = `Turn ${S.record.turns.length + 1}: roll 1`;
  await refresh();
}

async function newGame() {
  S.game = true; S.sheet = {}; S.record = {version: 1, rules: rules(), turns: []};
  $("review").innerHTML = ""; $("cost").innerHTML = "";
  await newTurn();
}

async function endGame(total) {
  S.game = false; S.stopped = false; S.rerolls = 0;
  $("status").textContent = `Game over: final score ${total}`;
  await refresh();
  const record = {...S.record, ...(withTarget() ? objective() : {})};  // a record plays to a goal or a score
  const r = await api("yahtzee/review?top=5", record);
  const win = r.probability !== null;
  const cost = (d) => `${fmt(d.points.cost)} points` + (d.probability ? `, ${fmt(d.probability.cost, 6)} of probability` : "");
  const worst = r.costliest.filter((d) => d.points.cost > 0 || (d.probability && d.probability.cost > 0));
  $("review").innerHTML = `<h2>Review of the game</h2><p id="review-total">Final score ${r.final_score}; ` +
    `expected at the start ${fmt(r.start_expected, 2)}; total cost <b id="review-cost">${fmt(r.total_cost)}</b> ` +
    `expected points in ${r.mistakes} decisions; luck ${fmt(r.luck, 2)} points` +
    (win ? `; probability cost ${fmt(r.total_probability_cost, 6)}` : "") + "</p>" +
    (worst.length ? `<ol id="costliest">${worst.map((d) => `<li>turn ${d.turn}, roll ${d.roll}: [${d.dice.join(" ")}] ` +
      `${d.action}: cost ${cost(d)} (best: ${d.points.best_action})</li>`).join("")}</ol>` :
      "<p>Every decision was as good as the best.</p>");
}

async function drawDistribution() {
  const note = $("dist-note"), stats = $("dist-stats"), canvas = $("dist");
  if (!S.info.distribution) {
    note.textContent = ""; stats.textContent = "not built for this rule set";
    canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height); return;
  }
  const law = await api(`yahtzee/${rules()}/distribution`);
  // The bars between the 0.01% tails: the rest are too small to see.
  let lo = 0, hi = law.pmf.length - 1, acc = 0;
  while (lo < hi && (acc += law.pmf[lo]) < 1e-4) lo += 1;
  acc = 0; while (hi > lo && (acc += law.pmf[hi]) < 1e-4) hi -= 1;
  canvas.width = Math.min(520, canvas.parentElement.clientWidth - 4 || 520);
  barChart(canvas, law.pmf.slice(lo, hi + 1), {x0: lo, xLabel: "final score (points)", yLabel: "probability"});
  note.textContent = "(exact, from the start of a game, optimal expected-score play)";
  const [q1, , q3] = law.quartiles;
  stats.innerHTML = `mean <b id="dist-mean">${fmt(law.mean)}</b> &middot; sd ${fmt(law.sd, 2)} &middot; ` +
    `median ${law.median} (quartiles ${q1}&ndash;${q3}) &middot; P(upper bonus) ${fmt(law.p_upper_bonus)}`;
}

async function chooseRules() {
  S.info = S.sets.find((r) => r.name === $("rules").value);
  // The dice of this rule set: those shown are kept, the sixth of Maxi Yatzy added or dropped.
  S.dice = Array.from({length: S.info.n_dice}, (_, i) => S.dice[i] ?? START_DICE[i]);
  S.held = S.dice.map(() => false); $("last-die-key").textContent = S.info.n_dice;
  const sel = $("objective"), can = {goal: "goal", beat: "win", opponent: "opponent"};
  // Against a player who plays to win: the forced-order duel table of two players (the rule set's "players").
  const built = (kind) => (kind === "opponents" ? S.info.players.includes(2) : S.info.objectives.includes(can[kind]));
  [...sel.options].forEach((o) => { o.disabled = o.value !== "expected" && !built(o.value); });
  if (sel.selectedOptions[0].disabled) sel.value = "expected";
  showObjective();
  S.game = false; S.turn = null; S.sheet = {}; S.opp = {}; S.stopped = false; S.rerolls = Number($("rerolls").value);
  $("status").textContent = "Set the dice and the sheet for advice, or start a New game";
  $("review").innerHTML = ""; $("cost").innerHTML = ""; showError(null);
  await Promise.all([refresh(), drawDistribution().catch(showError)]);
}

// The fields of the chosen objective: N for a goal or a score to beat, the opponent's column and note otherwise.
function showObjective() { $("target-label").hidden = !withTarget(); $("opp-note").hidden = !versus(); }

function onKey(e) {
  if ($("tab-yahtzee").hidden || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest && e.target.closest("input, select, textarea")) return;
  const k = e.key.toLowerCase();
  if (k.length === 1 && k >= "1" && k <= String(S.dice.length)) toggleDie(Number(k) - 1);
  else if (k === "r") act(roll);
  else if (k === "a") act(applyAdvice);
  else if (k === "s") act(stop);
  else return;
  e.preventDefault();
}

export async function mount() {
  S.sets = (await api("yahtzee/rules")).filter((r) => r.built);
  $("rules").innerHTML = S.sets.map((r) => `<option title="${r.description}">${r.name}</option>`).join("");
  $("rules").onchange = chooseRules;
  $("objective").onchange = () => { showObjective(); refresh(); };
  $("target").onchange = refresh;
  $("rerolls").onchange = () => { S.rerolls = Number($("rerolls").value); refresh(); };
  $("newgame").onclick = () => act(newGame);
  $("roll").onclick = () => act(roll);
  $("scorenow").onclick = () => act(stop);
  $("apply").onclick = () => act(applyAdvice);
  $("showall").onclick = () => { S.showAll = !S.showAll; drawAdvice(); };
  document.addEventListener("keydown", onKey);
  await chooseRules();
}
