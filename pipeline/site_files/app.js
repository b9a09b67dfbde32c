// A whole Yahtzee game with the advice of the dicetables tables, in the browser alone (`dicetables export-site`).
// The tables are read from ./artifacts/ with the JavaScript advisor (./js/src, docs/js.md).
import { FetchStore } from "zarrita";
import { openArtifacts } from "./js/src/index.mjs";
import { scoreBox, scoringOptions } from "./js/src/yahtzee/scoring.mjs";

const $ = (id) => document.getElementById(id);
const site = await (await fetch("./site.json")).json();
let advisor;
try {
  // A suffix range (bytes=-N) for shard indexes: no HEAD request (the service worker answers both anyway).
  const store = new FetchStore(new URL("./artifacts/", location.href).href, { useSuffixRequest: true });
  advisor = await (await openArtifacts(store)).yahtzee(site.rules);
} catch (e) {
  $("status").textContent = `The tables could not be read: ${e.message}`;
  throw e;
}
const rules = advisor.rules;
const N = rules.nBoxes;

// The game: the sheet (points or null per box), the Yahtzee bonus, the dice (null before the turn's first roll),
// which are held, and the rerolls left.
const game = { sheet: [], bonus: 0, dice: null, held: [], rerolls: 0, advice: null, options: [], over: false };
window.siteGame = game; // read by the tests

function newGame() {
  Object.assign(game, { sheet: new Array(N).fill(null), bonus: 0, dice: null, held: new Array(rules.nDice).fill(false),
    rerolls: 0, advice: null, options: [], over: false });
}

const rollDie = () => {
  const a = new Uint32Array(1);
  do crypto.getRandomValues(a); while (a[0] >= 4294967292); // 4294967292 = 6 * 715827882: no bias
  return (a[0] % rules.nFaces) + 1;
};
const counts = (dice) => {
  const c = new Array(rules.nFaces).fill(0);
  for (const p of dice) c[p - 1]++;
  return c;
};
const filledMask = () => game.sheet.reduce((m, p, c) => (p === null ? m : m | (1 << c)), 0);
const sheetArg = () => {
  const s = {};
  game.sheet.forEach((p, c) => { s[rules.categories[c]] = p; });
  if (game.bonus) s.yahtzee_bonus = game.bonus;
  return s;
};
const upperSum = () => game.sheet.slice(0, 6).reduce((a, p) => a + (p ?? 0), 0);
const total = () => game.sheet.reduce((a, p) => a + (p ?? 0), 0) + game.bonus +
  (upperSum() >= rules.upperThreshold ? rules.upperBonus : 0);
const alike = (dice) => dice.every((p) => p === dice[0]);

/** { box index: points } of the boxes the current dice may be scored in (Joker rules, forced order). */
function scorable() {
  if (game.dice === null) return {};
  const yface = alike(game.dice) ? game.dice[0] - 1 : -1;
  const [allowed, joker] = scoringOptions(rules.jokerCode, filledMask(), yface, rules.allFilled, rules.yahtzeeIndex,
    rules.forcedOrder);
  const out = {};
  const c = counts(game.dice);
  for (let b = 0; b < N; b++) if ((allowed >> b) & 1) out[b] = scoreBox(rules.boxes[b], c, joker === 1);
  return out;
}

const name = (c) => c.replaceAll("_", " ");

function render() {
  const dice = $("dice");
  dice.replaceChildren();
  (game.dice ?? new Array(rules.nDice).fill(null)).forEach((p, i) => {
    const b = document.createElement("button");
    b.className = "die" + (game.held[i] ? " held" : "") +
      (game.advice?.reroll && !game.advice.reroll[i] ? " advised" : "");
    b.dataset.i = i;
    b.textContent = p ?? "·";
    b.disabled = p === null || game.rerolls === 0;
    b.title = "click to hold or release";
    b.onclick = () => { game.held[i] = !game.held[i]; render(); };
    dice.append(b);
  });
  $("roll").textContent = game.dice === null ? "Roll" : `Reroll (${game.rerolls} left)`;
  $("roll").disabled = game.over || (game.dice !== null && (game.rerolls === 0 || game.held.every(Boolean)));
  $("apply").disabled = game.over || game.advice === null;
  const turn = game.sheet.filter((p) => p !== null).length + 1;
  $("status").textContent = game.over
    ? `Game over: final score ${total()}`
    : `${rules.name}: turn ${turn} of ${N}; score ${total()}` +
      (game.bonus ? ` (Yahtzee bonus ${game.bonus})` : "") + (game.dice === null ? ": roll the dice" : "");
  $("advice").textContent = game.over ? "" : game.advice ? `Advice: ${game.advice.text}` : "";
  const can = scorable();
  const sheet = $("sheet");
  sheet.replaceChildren();
  rules.categories.forEach((cat, c) => {
    const tr = document.createElement("tr");
    tr.dataset.box = cat;
    if (game.sheet[c] !== null) tr.className = "filled";
    const td = (text, cls) => {
      const d = document.createElement("td");
      d.textContent = text;
      if (cls) d.className = cls;
      tr.append(d);
      return d;
    };
    td(name(cat));
    td(game.sheet[c] ?? "", "points");
    const act = td("");
    if (c in can && !game.over) {
      const b = document.createElement("button");
      b.className = "score";
      b.dataset.box = cat;
      b.textContent = `score ${can[c]}`;
      b.onclick = () => act_score(c);
      act.append(b);
    }
    sheet.append(tr);
    if (c === 5) {
      const up = document.createElement("tr");
      up.innerHTML = `<td><i>upper bonus</i></td><td class="points"></td><td></td>`;
      up.children[1].textContent = upperSum() >= rules.upperThreshold ? rules.upperBonus
        : `${upperSum()}/${rules.upperThreshold}`;
      sheet.append(up);
    }
  });
  const opts = $("options");
  opts.replaceChildren();
  for (const o of game.options.slice(0, 10)) {
    const tr = document.createElement("tr");
    tr.innerHTML = "<td></td><td></td><td></td>";
    tr.children[0].textContent = o.action;
    tr.children[1].textContent = o.expected_final.toFixed(2);
    tr.children[2].textContent = o.regret ? `-${o.regret.toFixed(2)}` : "best";
    opts.append(tr);
  }
}

/** Ask the advisor about the current dice (decide and explain), then render. */
async function advise() {
  document.body.dataset.ready = "0";
  $("error").textContent = "";
  try {
    if (game.dice === null || game.over) {
      game.advice = null;
      game.options = [];
    } else {
      const s = sheetArg();
      game.advice = await advisor.decide(game.dice, game.rerolls, s);
      game.options = await advisor.explain(game.dice, game.rerolls, s);
    }
  } catch (e) {
    game.advice = null;
    game.options = [];
    $("error").textContent = e.message;
  }
  render();
  document.body.dataset.step = String(Number(document.body.dataset.step) + 1);
  document.body.dataset.ready = "1";
}

async function act_roll() {
  if (game.dice === null) {
    game.dice = Array.from({ length: rules.nDice }, rollDie);
    game.held.fill(false);
    game.rerolls = 2;
  } else if (game.rerolls > 0) {
    game.dice = game.dice.map((p, i) => (game.held[i] ? p : rollDie()));
    game.rerolls -= 1;
  }
  await advise();
}

async function act_score(c) {
  const points = scorable()[c];
  if (points === undefined) return;
  if (alike(game.dice) && rules.yahtzeeIndex >= 0 && game.sheet[rules.yahtzeeIndex] === rules.yahtzeePoints) {
    game.bonus += rules.yahtzeeBonus;
  }
  game.sheet[c] = points;
  game.dice = null;
  game.held.fill(false);
  game.rerolls = 0;
  game.over = game.sheet.every((p) => p !== null);
  await advise();
}

/** Do what the advice says: score its box; hold what it keeps and reroll the rest; or stop rolling. */
async function act_apply() {
  const a = game.advice;
  if (a === null) return;
  if (a.category !== null) return act_score(rules.categories.indexOf(a.category));
  game.held = a.reroll.map((r) => !r);
  if (a.reroll.some(Boolean)) return act_roll();
  game.rerolls = 0; // keep all: the advice of 0 rerolls names the box
  return advise();
}

$("roll").onclick = act_roll;
$("apply").onclick = act_apply;
$("new").onclick = () => { newGame(); advise(); };
newGame();
await advise();
