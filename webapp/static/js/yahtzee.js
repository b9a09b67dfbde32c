// The Yahtzee view: a game of one to three players, and the advice on any position. A game is the view for every
// game's (js/game.js, with js/extras/yahtzee.js: the dice, every seat's sheet, the coach), mounted in #seats over
// every setup built: one player for the best expected score, a goal or a score to beat (its target typed), two
// heads-up against a player of the best expected score, two or three in forced order each playing to win; its record,
// each decision's cost, undo, redo and the review are every game's. Any position: the dice, the rerolls left and the
// sheet set by hand, the advice for the best expected score, a goal, a score to beat, or against an opponent whose
// sheet is typed beside, the coach, and the law of the final score.
// Every number comes from the API (docs/web.md, "The Yahtzee view"); this module keeps the position and draws.
import {$, api, fmt, stylesheet} from "./api.js";
import {barChart} from "./chart.js";
import {mount as mountGame} from "./game.js";

const HTML = `
 <div class="y-cols">
  <div class="panel y-play">
   <div class="row y-top">
    <label title="a game: rolls drawn or typed at a real table, every decision's cost; any position: dice and sheet set
     by hand">Show <select id="mode"><option value="game">a game (1 to 3 players)</option>
     <option value="position">advice on any position</option></select></label>
    <label class="y-solo">Rules <select id="rules"></select></label>
    <label class="y-solo">Play for <select id="objective"><option value="expected">the best expected score</option>
      <option value="goal">a goal of N points</option><option value="beat">beating an opponent's final N</option>
      <option value="opponent">beating an opponent who plays for expected score</option>
      <option value="opponents">beating an opponent who plays to win (forced order)</option></select></label>
    <label id="target-label" class="y-solo" hidden>N <input id="target" type="number" value="250" min="0" step="10"></label>
   </div>
   <div id="seats"></div>
   <details id="unbuilt" class="y-unbuilt" hidden><summary>Why some choices are greyed out</summary><ul></ul></details>
   <div class="row"><label>Rerolls left <select id="rerolls"><option>2</option><option>1</option><option>0</option>
    </select></label></div>
   <div id="dice" role="group" aria-label="dice"></div>
   <div id="error" class="error" role="alert"></div>
   <h2>Advice</h2><p id="best"></p><div class="y-wide"><table id="options"></table></div>
   <button id="showall" hidden></button>
   <details class="y-help" open><summary>Keys and colours</summary>
    <p class="keys">Any position: click a die (or press <kbd>1</kbd>&ndash;<kbd id="last-die-key">5</kbd>) to turn it to
     its next face, click a box to type its points. A game: click the dice to hold and <b>Roll</b>, click an open box
     to score there, or choose an option (<kbd>1</kbd>&ndash;<kbd>9</kbd>); a roll at a real table is typed.</p>
    <ul class="y-legend" id="legend">
     <li><span class="sw sw-held"></span>die held (kept when you roll)</li>
     <li><span class="sw sw-reroll"></span>die the advice rerolls</li>
     <li><span class="sw sw-would"></span>points these dice would score in an open box</li>
     <li><span class="sw sw-advised"></span>box the advice scores</li>
     <li><span class="sw sw-best"></span>best option (regret 0)</li>
     <li><span class="sw sw-bad"></span>a decision that cost points (or probability)</li>
     <li><span class="sw sw-ok"></span>a decision as good as the best</li>
    </ul></details>
   <h2>Coach <small>(probability of ending the turn with each box made, expected-score play after the keep; hover for the exact fraction)</small></h2>
   <div id="coach" class="y-wide"></div>
  </div>
  <div class="panel y-sheet"><h2>Score sheet</h2>
   <p id="opp-note" hidden><small>Type the opponent's points (an empty box is open); the opponent's sheet is checked by
    the server, and the advice is the move that wins most often against it.</small></p>
   <table id="sheet"></table>
   <h2>Final score law <small id="dist-note"></small></h2>
   <canvas id="dist" width="520" height="260" aria-label="bar chart of the final score's probabilities"></canvas>
   <p id="dist-stats"></p>
  </div>
 </div>`;

const SHOWN_OPTIONS = 8;
const START_DICE = [1, 3, 3, 5, 6, 2];  // the dice shown first (the first n_dice of them)
const S = {
  sets: [], info: null,           // every rule set with a value table (GET /api/yahtzee/rules) and the chosen one
  dice: [], rerolls: 2, sheet: {},  // the position: n_dice of the chosen rule set (5, or 6 in Maxi Yatzy)
  opp: {}, oppView: null,         // the opponent's sheet as typed (box -> points) and as the API counts it
  view: null, advice: null, options: null, allowed: {}, showAll: false, gen: 0, loading: false,
  seats: null,                    // the game (js/game.js in #seats): its mounting
};

const rules = () => S.info.name;
export const label = (box) => box.replaceAll("_", " ");  // a box as players read it (js/extras/yahtzee.js too)

// The objective fields of a request: {} (expected score), {goal: N}, {beat: N}, {opponent: SHEET} (an opponent
// who plays for expected score) or {opponents: [SHEET]} (one who plays to win: forced order, the 2-player table).
function objective() {
  const kind = $("objective").value, n = Number($("target").value);
  if (kind === "expected") return {};
  if (kind === "opponent") return {opponent: S.opp};
  if (kind === "opponents") return {opponents: [S.opp]};
  return {[kind]: Number.isInteger(n) ? n : $("target").value};
}
const versus = () => ["opponent", "opponents"].includes($("objective").value);  // an opponent's sheet is shown
const withTarget = () => ["goal", "beat"].includes($("objective").value);  // the N field is shown

// data-busy="1" while the view waits for the API: the tests (and a screen reader's aria-busy) wait for "0".
function settle() {
  $("tab-yahtzee").dataset.busy = S.loading ? "1" : "0"; $("tab-yahtzee").setAttribute("aria-busy", S.loading);
}
function showError(e) { $("error").textContent = e ? e.message : ""; }

function drawDice() {
  const box = $("dice"); box.innerHTML = "";
  const advised = S.advice && S.advice.reroll;
  S.dice.forEach((d, i) => {
    const b = document.createElement("button");
    b.className = "die" + (advised && advised[i] ? " reroll" : "");
    b.textContent = d; b.dataset.i = i;
    b.setAttribute("aria-label", `die ${i + 1}: ${d}`);
    b.onclick = () => { S.dice[i] = S.dice[i] % 6 + 1; refresh(); };  // the die's next face
    box.appendChild(b);
  });
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
    td.onclick = () => editBox(name, td);
    td.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); editBox(name, td); } };
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

// Points typed into the cell itself: Enter keeps them (empty = open box), Escape cancels.
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
    S.loading = true; settle();
    api(`yahtzee/${rules()}/sheet`, {sheet: next}).then(() => { S.sheet = next; return refresh(); }).catch((e) => {
      showError(e); S.loading = false; settle();
    });
  };
  input.onkeydown = (e) => {
    e.stopPropagation();
    if (e.key === "Enter") commit(true); else if (e.key === "Escape") commit(false);
  };
  input.onblur = () => commit(true);
  input.focus();
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

// The coach's table (js/extras/yahtzee.js too): for the best keeps, each open box's chance of being made by the turn's
// end (the exact fraction on hover).
export function coachTable(coach, boxes) {
  return `<table><tr><th>keep</th>${boxes.map((b) => `<th>${label(b)}</th>`).join("")}</tr>` + coach.slice(0,
    SHOWN_OPTIONS).map((k, i) => `<tr class="${i === 0 ? "best" : ""}"><td>[${k.keep.join(" ")}]</td>` + boxes.map((b) =>
    `<td title="${k.made[b].exact}">${(100 * k.made[b].p).toFixed(1)}%</td>`).join("") + "</tr>").join("") +
    `</table><small>the best ${SHOWN_OPTIONS} keeps</small>`;
}

function drawCoach(coach) {
  $("coach").innerHTML = coach ? coachTable(coach, S.info.boxes.filter((b) => S.view.sheet[b] === null)) :
    S.advice ? "<small>at 0 rerolls the dice are final: see the sheet</small>" : "";
}

// Everything that depends on the dice, rerolls, rule set, objective or sheet, asked again; an older answer
// arriving after a newer question is dropped (gen).
async function refresh() {
  const gen = ++S.gen; S.loading = true; settle(); showError(null);
  try {
    const turn = {dice: S.dice, rerolls: S.rerolls, sheet: S.sheet}, goal = objective();
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
    drawDice(); drawSheet(); drawAdvice(); drawCoach(coach);
  } catch (e) {
    if (gen !== S.gen) return;
    S.advice = null; S.options = null; drawAdvice(); showError(e);
  } finally { if (gen === S.gen) { S.loading = false; settle(); } }
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
  $("last-die-key").textContent = S.info.n_dice;
  // An objective is offered when its tables are built here; GET /rules says why not for the others (the table
  // missing and the command that builds it, or why it does not apply), listed under the choice (readable on touch,
  // not only in a hover title).
  const sel = $("objective"), why = S.info.unavailable, list = $("unbuilt").querySelector("ul");
  list.innerHTML = "";
  [...sel.options].forEach((o) => {
    o.disabled = o.value in why; o.title = why[o.value] || "";
    if (o.disabled) {
      const li = document.createElement("li"); li.dataset.objective = o.value;
      li.textContent = `${o.textContent}: ${why[o.value]}`; list.append(li);
    }
  });
  $("unbuilt").hidden = !list.children.length;
  if (sel.selectedOptions[0].disabled) sel.value = "expected";
  showObjective();
  S.sheet = {}; S.opp = {};
  await Promise.all([refresh(), drawDistribution().catch(showError)]);
}

// The fields of the chosen objective: N for a goal or a score to beat, the opponent's column and note otherwise.
function showObjective() { $("target-label").hidden = !withTarget(); $("opp-note").hidden = !versus(); }

// Keys 1 to n_dice turn a die to its next face (any position only: in a game the keys are the game's).
function onKey(e) {
  if ($("tab-yahtzee").hidden || $("mode").value !== "position" || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest && e.target.closest("input, select, textarea")) return;
  if (e.key.length !== 1 || e.key < "1" || e.key > String(S.dice.length)) return;
  e.preventDefault();
  $("dice").children[Number(e.key) - 1].click();
}

// A game (the view for every game in #seats, the page's keys its own then; CSS .y-game hides the position's
// controls) or any position, each set up the first time it is shown.
async function chooseMode(game) {
  const playing = $("mode").value === "game";
  $("tab-yahtzee").classList.toggle("y-game", playing); $("seats").classList.toggle("gv-alone", playing);
  if (playing && !S.seats) {
    S.seats = mountGame($("seats"), {...game, summary: "One player, for the best expected score, a goal or a score " +
      "to beat (type its target); two heads-up against a player of the best expected score; two or three in forced " +
      "order, each playing to win. The advice is for the player to move, by the setup's objective."});
  }
  if (!playing && !S.info) await chooseRules();
  await S.seats;
}

export async function mount(section, game) {
  await stylesheet("yahtzee");
  section.innerHTML = HTML; section.dataset.busy = "1";
  S.sets = (await api("yahtzee/rules")).filter((r) => r.built);
  $("rules").innerHTML = S.sets.map((r) => `<option title="${r.description}">${r.name}</option>`).join("");
  $("rules").onchange = () => chooseRules().catch(showError);
  const [playing, position] = $("mode").options;  // each offered where its tables are built
  if (!game.setups.length) Object.assign(playing, {disabled: true, textContent: "a game (not built)"});
  if (!S.sets.length) Object.assign(position, {disabled: true, textContent: "any position (not built)"});
  if (!game.setups.length && S.sets.length) $("mode").value = "position";
  $("mode").onchange = () => chooseMode(game).catch(showError);
  $("objective").onchange = () => { showObjective(); refresh(); };
  $("target").onchange = refresh;
  $("rerolls").onchange = () => { S.rerolls = Number($("rerolls").value); refresh(); };
  $("showall").onclick = () => { S.showAll = !S.showAll; drawAdvice(); };
  document.addEventListener("keydown", onKey);
  await chooseMode(game);
  settle();
}
