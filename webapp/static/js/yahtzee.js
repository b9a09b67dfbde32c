// The Yahtzee view: dice, advice (expected score, play to win, or to beat an opponent whose sheet the user types
// beside theirs), the coach, the score sheet of the chosen rule set, the law of the final score, and a game with
// its record (the protocol's, lookup/records.py), each decision's cost and the review at the end. Games of two and
// three players, every seat's sheet on the page, are the view for every game's (js/game.js, with
// js/extras/yahtzee.js), mounted in a part of this tab for the setups this view does not play.
// Every number comes from the API (docs/web.md, "The Yahtzee view"); this module keeps the state and draws.
import {$, api, counted, fmt, readRecord, saveRecord, stylesheet} from "./api.js";
import {barChart} from "./chart.js";
import {mount as mountGame} from "./game.js";

const HTML = `
 <div class="y-cols">
  <div class="panel y-play">
   <div class="row y-top">
    <label title="1: your sheet (against an opponent's sheet too); 2 or 3: every player's sheet">Players
     <select id="players"><option value="1">1</option><option value="more">2 or 3</option></select></label>
    <label class="y-solo">Rules <select id="rules"></select></label>
    <label class="y-solo">Play for <select id="objective"><option value="expected">the best expected score</option>
      <option value="goal">a goal of N points</option><option value="beat">beating an opponent's final N</option>
      <option value="opponent">beating an opponent who plays for expected score</option>
      <option value="opponents">beating an opponent who plays to win (forced order)</option></select></label>
    <label id="target-label" class="y-solo" hidden>N <input id="target" type="number" value="250" min="0" step="10"></label>
   </div>
   <div id="seats"></div>
   <details id="unbuilt" class="y-unbuilt" hidden><summary>Why some choices are greyed out</summary><ul></ul></details>
   <div class="row"><button id="newgame">New game</button>
    <button id="roll" disabled title="key R">Roll<span class="y-key"> (R)</span></button>
    <button id="scorenow" disabled title="key S">Score now<span class="y-key"> (S)</span></button>
    <button id="apply" disabled title="key A">Apply advice<span class="y-key"> (A)</span></button>
    <button id="undo" disabled title="key U">Undo<span class="y-key"> (U)</span></button><button id="redo" disabled title="key Y">Redo<span class="y-key"> (Y)</span></button>
    <button id="save" disabled>Save record</button>
    <label class="y-load">Load record<input id="load" class="y-sr" type="file" accept=".json,application/json"></label>
    <label id="rerolls-label">Rerolls left <select id="rerolls"><option>2</option><option>1</option><option>0</option></select></label></div>
   <div id="dice" role="group" aria-label="dice"></div>
   <label id="typed-label" hidden>Dice rolled at the table <input id="typed" inputmode="numeric" autocomplete="off"
     placeholder="e.g. 13356" size="8"></label>
   <p id="status" aria-live="polite"></p>
   <div id="error" class="error" role="alert"></div>
   <div id="cost" aria-live="polite"></div>
   <h2>Advice</h2><p id="best"></p><div class="y-wide"><table id="options"></table></div>
   <button id="showall" hidden></button>
   <div id="review"></div>
   <details class="y-help" open><summary>Keys and colours</summary>
    <p class="keys">Keys: <kbd>1</kbd>&ndash;<kbd id="last-die-key">5</kbd> hold or release a die, <kbd>R</kbd> roll the dice not held,
     <kbd>A</kbd> apply the advice, <kbd>S</kbd> stop rolling and score, <kbd>U</kbd> undo, <kbd>Y</kbd> redo. In a
     game, type the dice you rolled at a real table under the dice (Enter). Outside a game, click a die to change
     its face and click a box to type its points.</p>
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
   <p id="opp-note" hidden><small>Type the opponent's points as the game goes (an empty box is open); the opponent's
    sheet is checked by the server, and the advice is the move that wins most often against it.</small></p>
   <table id="sheet"></table>
   <h2>Final score law <small id="dist-note"></small></h2>
   <canvas id="dist" width="520" height="260" aria-label="bar chart of the final score's probabilities"></canvas>
   <p id="dist-stats"></p>
  </div>
 </div>`;

const SHOWN_OPTIONS = 8;
const START_DICE = [1, 3, 3, 5, 6, 2];  // the dice shown first (the first n_dice of them)
const S = {
  sets: [], info: null,           // every rule set (GET /api/yahtzee/rules) and the chosen one
  dice: [], held: [], rerolls: 2, sheet: {},  // n_dice of the chosen rule set (5, or 6 in Maxi Yatzy)
  opp: {}, oppView: null,         // the opponent's sheet as typed (box -> points) and as the API counts it
  game: false, turn: false,       // in a game; a turn is being played
  record: null, turns: 0,         // the game record (lookup/records.py) and the turns scored
  redo: [],                       // the events undone, each undo's as one list, the last undone last
  view: null, advice: null, options: null, allowed: {}, showAll: false, gen: 0, acting: false, loading: false,
  many: false, seats: null,       // two or three players shown (js/game.js in #seats); its mounting
};

const rules = () => S.info.name;
const left = () => S.rerolls;
const sorted = (dice) => [...dice].sort((a, b) => a - b);
export const label = (box) => box.replaceAll("_", " ");  // a box as players read it (js/extras/yahtzee.js too)
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
// The setup of the game record (lookup/yahtzee/game.py): the objective played, with its target; against an
// opponent's sheet the record is of the player's own game (the page does not play the opponent's), for expected
// score.
const setup = () => ({rules: rules(), objective: withTarget() ? $("objective").value : "expected",
                      target: withTarget() ? objective()[$("objective").value] : null});

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
  const replays = S.record !== null;  // a game's record, which the protocol replays
  $("undo").disabled = !(replays && S.record.events.length > 1); $("redo").disabled = !(replays && S.redo.length);
  $("typed-label").hidden = !(replays && inTurn);
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

// What the decision about to be played costs: POST /api/games/yahtzee/judge on the game record, whose setup is the
// objective played (expected score, a goal, a score to beat); against an opponent's sheet (not in the record), the
// chosen option's regret in the explain answer of this very turn (S.options). {text, cost, best_text}.
async function judge(action) {
  if (!versus()) return api("games/yahtzee/judge", {record: S.record, action});
  const same = (k) => k && Array.isArray(action) && k.length === action.length && k.every((f, i) => f === action[i]);
  const o = (S.options || []).find((x) => (Array.isArray(action) ? same(x.keep) : x.category === action));
  if (!o) throw new Error("no advice for this decision: see the error above");
  return {text: o.action, cost: o.regret, best_text: S.options[0].action};
}

// One decision: its cost shown at once, then added to the record.
async function decide(action) {
  const j = await judge(action);
  showCost(j);
  S.record.events.push(action); S.redo = [];
  return j;
}

// The cost line under the dice, in the unit of what is played for (points, or probability).
function showCost(j) {
  const bad = j.cost > 0, unit = versus() ? "of P(win)" : withTarget() ? "of probability" : "expected points";
  const p = document.createElement("p");
  p.className = "cost " + (bad ? "bad" : "ok"); p.dataset.cost = j.cost;
  p.textContent = `${j.text}: ` + (bad ? `cost ${fmt(j.cost, withTarget() || versus() ? 6 : 4)} ${unit} ` +
    `(best: ${j.best_text})` : "as good as the best");
  $("cost").replaceChildren(p);
}

// Roll the dice not held (keeping every die passes to the next roll's decision without rolling).
async function roll() {
  if (!S.game || !S.turn || left() === 0) return;
  await decide(sorted(S.dice.filter((_, i) => S.held[i])));
  if (!S.held.every(Boolean)) {
    S.dice = S.dice.map((d, i) => (S.held[i] ? d : randomDie()));
    S.record.events.push(sorted(S.dice));
  }
  S.rerolls -= 1;
  $("status").textContent = `Turn ${S.turns + 1}: roll ${3 - S.rerolls}`;
  await refresh();
}

// Stop rolling: every die kept for each reroll left (the cost shown is theirs together; against an opponent's sheet
// the explain answer's "keep all (stop)" is that whole cost).
async function stop() {
  if (!S.game || !S.turn || left() === 0) return;
  const all = sorted(S.dice);
  let first = null, cost = 0;
  for (; S.rerolls > 0; S.rerolls -= 1) {
    const j = first && versus() ? {cost: 0} : await judge(all);
    first = first || j; cost += j.cost;
    S.record.events.push(all);
  }
  showCost({text: "score now", cost, best_text: first.best_text});
  await refresh();
}

async function scoreBox(name) {
  if (left() > 0) await stop();  // a box chosen with rerolls left: first the decision to stop
  await decide(name);
  const r = await api(`yahtzee/${rules()}/score`, {sheet: S.sheet, dice: S.dice, category: name});
  S.turns += 1; S.turn = false; S.sheet = r.sheet;
  if (r.finished) { await endGame(r.total); return; }
  await newTurn();
}

async function applyAdvice() {
  const d = S.advice;
  if (!S.game || !S.turn || !d) return;
  if (d.category) await scoreBox(d.category);
  else { S.held = d.reroll.map((r) => !r); await roll(); }
}

async function newTurn() {
  S.rerolls = 2; S.held = S.held.map(() => false); S.turn = true;
  S.dice = S.dice.map(randomDie); S.record.events.push(sorted(S.dice));
  $("status").textContent = `Turn ${S.turns + 1}: roll 1`;
  await refresh();
}

async function newGame() {
  S.game = true; S.sheet = {}; S.turns = 0; S.redo = [];
  S.record = {version: 2, game: "yahtzee", setup: setup(), seat: 0, start: null, events: []};
  $("review").innerHTML = ""; $("cost").innerHTML = ""; $("save").disabled = false;
  await newTurn();
}

// The game at the end of ``record`` as the protocol replays it (POST /api/games/yahtzee/advise, which checks every
// event): its sheet, dice and rerolls left; the view waits there for the player's decision, or shows the review.
async function restore(record) {
  const a = await api("games/yahtzee/advise", {record});
  if (a.to_move !== 0 && !a.over) throw new Error("the record ends before a roll: nothing to decide yet");
  const st = a.state, dice = st.dice ?? S.dice;  // a finished game has no dice on the table: the last ones stay
  Object.assign(S, {record, sheet: st.sheets[0], dice, rerolls: a.over ? 0 : st.rerolls,
                    held: dice.map(() => false), turn: !a.over, game: !a.over});
  S.turns = S.info.boxes.filter((b) => st.sheets[0][b] !== null).length;
  $("cost").innerHTML = ""; $("review").innerHTML = "";
  $("save").disabled = false;
  if (a.over) { await endGame((await api(`yahtzee/${rules()}/sheet`, {sheet: S.sheet})).total); return; }
  $("status").textContent = `Turn ${S.turns + 1}: roll ${3 - S.rerolls}`;
  await refresh();
}

// Whether the record's last event is a roll (the state before it is chance's to play).
async function endsWithRoll(events) {
  if (!events.length) return false;
  return (await api("games/yahtzee/advise", {record: {...S.record, events: events.slice(0, -1)}})).to_move === -1;
}

// Undo the player's last decision and the rolls after it; redo puts them back.
async function undo() {
  const events = [...S.record.events], undone = [];
  while (await endsWithRoll(events)) undone.unshift(events.pop());
  if (events.length < 2) throw new Error("nothing to undo");  // the first roll is not a decision
  undone.unshift(events.pop());
  S.redo.push(undone);  // before the view is drawn again, so that Redo is enabled
  try { await restore({...S.record, events}); } catch (e) { S.redo.pop(); throw e; }
}
async function redo() {
  const undone = S.redo.pop();
  try { await restore({...S.record, events: [...S.record.events, ...undone]}); } catch (e) { S.redo.push(undone); throw e; }
}

// The dice rolled at a real table replace the page's last roll: all of them, or only those rolled again (the dice
// kept are added). The protocol reads them as typed (lookup.yahtzee.positions' roll: digits, spaces and commas) and
// checks them; the record keeps the roll as it writes it.
async function typeRoll() {
  const events = [...S.record.events];
  if (!(await endsWithRoll(events))) throw new Error("no roll to replace: the dice were all kept");
  events.pop();
  const typed = $("typed").value.trim();
  const {state} = await api("games/yahtzee/advise", {record: {...S.record, events: [...events, typed]}});
  await restore({...S.record, events: [...events, state.dice]});
  $("typed").value = ""; S.redo = [];
  $("typed").blur();  // the keys hold and roll again (1-5, R), as after any roll
}

// A record saved here or by the command line (--record): its rule set and objective chosen, then its end shown.
async function loadRecord(file) {
  const record = await readRecord(file);
  const set = record && record.setup && S.sets.find((r) => r.name === record.setup.rules);
  if (!set || record.game !== "yahtzee") throw new Error(`${file.name}: not a Yahtzee record of a rule set built here`);
  if ((record.setup.players ?? 1) > 1) throw new Error(`${file.name}: a game of ${record.setup.players} players: ` +
    "choose Players 2 or 3 to load it");
  $("rules").value = set.name; await chooseRules();
  $("objective").value = record.setup.objective || "expected";
  if (record.setup.target !== null && record.setup.target !== undefined) $("target").value = record.setup.target;
  showObjective(); S.redo = [];
  await restore(record);
}

// The review of the game (POST /api/games/yahtzee/review): the totals, then every decision with the dice it was
// made on and its cost (red where it cost anything).
async function endGame(total) {
  S.game = false; S.rerolls = 0;
  $("status").textContent = `Game over: final score ${total}`;
  await refresh();
  const r = await api("games/yahtzee/review", {record: S.record, seat: 0});
  const n = r.unit === "points" ? 4 : 6;
  let dice = [], turn = 1;
  const rows = r.events.map((e) => {
    if (e.kind !== "decision") { dice = e.event; return ""; }
    const row = `<li class="${e.cost ? "bad" : ""}" data-cost="${e.cost}">turn ${turn}: [${dice.join(" ")}] ${e.text}` +
      (e.cost ? `: cost ${fmt(e.cost, n)} (best: ${e.best_text})` : "") + "</li>";
    if (typeof e.event === "string") turn += 1;
    return row;
  }).join("");
  $("review").innerHTML = `<h2>Review of the game</h2><p id="review-total">Final score ${total}; value at the start ` +
    `${fmt(r.start, n)} ${r.unit}; total cost <b id="review-cost">${fmt(r.total_cost, n)}</b> ${r.unit} in ` +
    `${counted(r.decisions, "decision")} (${r.mistakes} below the best, <span id="review-per">` +
    `${fmt(r.per_decision, n)}</span> a decision); luck ${r.total_luck >= 0 ? "+" : ""}${fmt(r.total_luck, n)} ` +
    `<small>(what the rolls changed of your value: the value at the end is the value at the start, less the cost, ` +
    `plus the luck)</small></p><ol id="decisions">${rows}</ol>`;
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
  S.game = false; S.turn = false; S.sheet = {}; S.opp = {}; S.rerolls = Number($("rerolls").value);
  $("status").textContent = "Set the dice and the sheet for advice, or start a New game";
  $("review").innerHTML = ""; $("cost").innerHTML = ""; showError(null);
  await Promise.all([refresh(), drawDistribution().catch(showError)]);
}

// The fields of the chosen objective: N for a goal or a score to beat, the opponent's column and note otherwise.
function showObjective() { $("target-label").hidden = !withTarget(); $("opp-note").hidden = !versus(); }

function onKey(e) {
  if ($("tab-yahtzee").hidden || S.many || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest && e.target.closest("input, select, textarea")) return;
  const k = e.key.toLowerCase();
  if (k.length === 1 && k >= "1" && k <= String(S.dice.length)) toggleDie(Number(k) - 1);
  else if (k === "r") act(roll);
  else if (k === "a") act(applyAdvice);
  else if (k === "s") act(stop);
  else if (k === "u" && !$("undo").disabled) act(undo);
  else if (k === "y" && !$("redo").disabled) act(redo);
  else return;
  e.preventDefault();
}

// Two or three players: the view for every game over the setups of more than one seat (this view plays one seat's
// game), in place of this view's controls (CSS .y-many; the page's keys are its own then), mounted the first time it
// is shown.
async function choosePlayers(game) {
  S.many = $("players").value !== "1";
  $("tab-yahtzee").classList.toggle("y-many", S.many); $("seats").classList.toggle("gv-alone", S.many);
  if (S.many && !S.seats) {
    S.seats = mountGame($("seats"), {...game, setups: game.setups.filter((s) => s.players > 1),
      elsewhere: "a game of one player: choose Players 1 to load it", summary: "Two or " +
      "three players, every player's sheet: forced order, each player playing to win, or heads-up in free order " +
      "against a player of the best expected score. The advice is for the player to move, by the setup's objective."});
  }
  await S.seats;
}

export async function mount(section, game) {
  await stylesheet("yahtzee");
  section.innerHTML = HTML; section.dataset.busy = "1";
  S.sets = (await api("yahtzee/rules")).filter((r) => r.built);
  $("rules").innerHTML = S.sets.map((r) => `<option title="${r.description}">${r.name}</option>`).join("");
  $("rules").onchange = chooseRules;
  const [one, many] = $("players").options;  // each offered where its tables are built
  if (!S.sets.length) Object.assign(one, {disabled: true, textContent: "1 (not built)"});
  if (!game.setups.some((s) => s.players > 1)) Object.assign(many, {disabled: true, textContent: "2 or 3 (not built)"});
  $("players").onchange = () => choosePlayers(game).catch(showError);
  $("objective").onchange = () => { showObjective(); refresh(); };
  $("target").onchange = refresh;
  $("rerolls").onchange = () => { S.rerolls = Number($("rerolls").value); refresh(); };
  $("newgame").onclick = () => act(newGame);
  $("roll").onclick = () => act(roll);
  $("scorenow").onclick = () => act(stop);
  $("apply").onclick = () => act(applyAdvice);
  $("save").onclick = () => saveRecord(S.record);
  $("undo").onclick = () => act(undo);
  $("redo").onclick = () => act(redo);
  $("typed").onkeydown = (e) => { if (e.key === "Enter") { e.preventDefault(); e.stopPropagation(); act(typeRoll); } };
  $("load").onchange = () => { const f = $("load").files[0]; $("load").value = ""; if (f) act(() => loadRecord(f)); };
  $("showall").onclick = () => { S.showAll = !S.showAll; drawAdvice(); };
  document.addEventListener("keydown", onKey);
  if (S.sets.length) { await chooseRules(); return; }
  $("players").value = "more";  // only tables of two or three players here: their view alone
  settle();
  await choosePlayers(game);
}
