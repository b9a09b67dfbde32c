// The view of every game that has none of its own, written once on the game protocol's routes
// (webapp/routes/games.py; docs/web.md "The view for every game"). The page keeps only the game record
// (lookup/records.py) and sends it with every request: POST play draws chance and plays the other seats on to the
// player's next decision, advise values every option at the record's end, judge costs a decision before it is
// played, review judges the whole game; a game that declares a map gets it (js/map.js). A game may add a picture
// of its own (js/extras/<game>.js: a board), which gets every answer, and may say how its chance outcomes are typed
// (`typed`: {placeholder, how, several}; without a placeholder the first outcome is the example). A game's own view
// may mount this one in a part of its tab.
import {api, counted, fmt, readRecord, saveRecord} from "./api.js";

const LISTED = 12;  // chance outcomes listed as buttons; more are typed as the game's JSON
const HTML = `
<div class="panel">
 <h2 class="gv-title"></h2><p class="gv-summary legend"></p>
 <div class="row"><label>Setup <select class="gv-setup"></select></label><span class="gv-free"></span>
  <label>Your seat <select class="gv-seat"></select></label>
  <label>Other seats <select class="gv-opponent"></select></label>
  <label title="stop at every chance event: enter what was rolled, dealt or drawn"><input type="checkbox"
   class="gv-table"> chance entered here</label></div>
 <div class="row"><button class="gv-main" data-main>New game</button><button class="gv-new">New game</button>
  <button class="gv-undo" title="key U">Undo</button><button class="gv-redo" title="key Y">Redo</button>
  <button class="gv-review-go">Review</button><button class="gv-save">Save record</button>
  <label class="gv-load">Load record <input type="file" accept=".json,application/json"></label></div>
 <div class="error gv-error" role="alert"></div>
 <p class="gv-cost" aria-live="polite"></p>
 <p class="gv-position"></p><p class="gv-values"></p>
 <div class="gv-extra"></div><div class="gv-map"></div>
 <p class="gv-advice"></p>
 <div class="gv-table-box"><table class="gv-options"></table></div>
 <div class="row gv-typed" hidden><label>Outcome <input class="gv-outcome gv-wide"></label>
  <button class="gv-enter">Enter</button></div>
 <details class="gv-from"><summary>Start from a position</summary><p class="legend">The position as the game writes
  it (JSON; the command line's <code>--position</code>): the setup's start shown, to edit.</p><div class="row">
  <textarea class="gv-start gv-wide" rows="2" spellcheck="false" aria-label="position (JSON)"></textarea>
  <button class="gv-start-go">Start here</button></div></details>
 <details class="gv-log" open><summary>Events (<span class="gv-count">0</span>)</summary><ol></ol></details>
 <div class="gv-review"></div>
 <p class="legend">Keys: <kbd>1</kbd>&ndash;<kbd>9</kbd> choose an option, <kbd>Enter</kbd> the main button,
  <kbd>U</kbd> undo, <kbd>Y</kbd> redo. A decision's cost is the best option's value minus the chosen one's (0: as
  good as the best); an event's luck is what it changed of your value. <span class="gv-unit"></span></p>
</div>`;

const who = (mover) => (mover < 0 ? "chance" : `player ${mover + 1}`);
// Another seat's decision that the tables value in no option (a game seen from one seat: its moves are entered).
const entered = (answer, me) => !answer.over && answer.to_move >= 0 && answer.to_move !== me &&
  answer.options.every((o) => o.value === null);
const setupText = (s) => Object.entries(s).filter(([, v]) => v !== null).map(([k, v]) => `${k} ${v}`).join(", ");
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));

export async function mount(section, game) {
  section.innerHTML = HTML;
  section.classList.add("gv-root");  // where the panel is, in its own tab or in a part of a game's view
  const alone = section.matches("main > section");
  if (!alone) section.tabIndex = -1;  // focusable, to keep the focus (and the keys) in the panel
  const q = (cls) => section.querySelector("." + cls);
  const V = {record: null, redo: [], seed: 0, answer: null, busy: false, extra: null, map: null};
  q("gv-title").textContent = game.title;
  q("gv-summary").textContent = game.summary;
  const num = (x) => (x === null || x === undefined ? "—" : fmt(x, V.answer ? V.answer.digits : 4));
  const seat = () => Number(q("gv-seat").value);
  // The chosen setup, with the options any value of which its tables answer (Option.free: Yahtzee's target) as
  // typed in their fields beside it.
  const setup = () => Object.assign({...game.setups[Number(q("gv-setup").value)]}, ...[...q("gv-free")
    .querySelectorAll("input")].map((i) => ({[i.dataset.option]: Number(i.value)})));
  const free = (k) => game.options[k] && game.options[k].free;
  function drawFree(values) {
    const s = {...game.setups[Number(q("gv-setup").value)], ...values};
    q("gv-free").innerHTML = Object.keys(s).filter((k) => free(k) && s[k] !== null).map((k) => `<label>${esc(k)} ` +
      `<input type="number" class="gv-option-${esc(k)}" data-option="${esc(k)}" value="${s[k]}"></label>`).join("");
    q("gv-free").querySelectorAll("input").forEach((i) => { i.onchange = newGame; });
  }
  const error = (e) => { q("gv-error").textContent = e ? e.message : ""; };
  if (game.extra) V.extra = await import(`./extras/${game.name}.js`);
  if (game.map) V.map = await import("./map.js");  // the strategy's map (js/map.js)
  if (V.extra && V.extra.first) q("gv-advice").before(q("gv-extra"));  // a board to play on: above the advice

  // One request at a time; data-busy="1" meanwhile (the tests, and aria-busy, wait for "0"). Beside a game's own
  // view the focus stays in the panel when the button that had it is drawn again (its keys act only there).
  async function busy(fn) {
    if (V.busy) return;
    const inside = section.contains(document.activeElement);
    V.busy = true; section.dataset.busy = "1"; section.setAttribute("aria-busy", "true"); error(null);
    try { await fn(); } catch (e) { error(e); } finally {
      V.busy = false; section.dataset.busy = "0"; section.setAttribute("aria-busy", "false");
      if (!alone && inside && !section.contains(document.activeElement)) section.focus({preventScroll: true});
    }
  }

  // The record played on from its end (chance drawn unless at a real table; the other seats by the chosen
  // player, or "entered here"): the answer with the longer record. The page's record changes only when shown.
  const play = (record, draw = !q("gv-table").checked) => api(`games/${game.name}/play`,
    {record, seat: seat(), seed: V.seed, opponent: q("gv-opponent").value || "table", draw});
  const advise = async (record) => ({...await api(`games/${game.name}/advise`, {record}), record});

  async function show(answer) {
    V.answer = answer; V.record = answer.record;
    const me = seat(), mover = answer.to_move, over = answer.over;
    section.dataset.toMove = over ? "over" : mover;  // who acts now (-1: chance), for scripts and the tests
    q("gv-position").textContent = answer.text;
    q("gv-unit").textContent = `Values: ${answer.unit}, ${answer.unit_text} (${answer.higher ? "higher" : "lower"} ` +
      "is better).";
    q("gv-values").innerHTML = over ? `Game over. Each seat receives: ${answer.returns.map((r, s) =>
      `${who(s)}${s === me ? " (you)" : ""} <b data-seat="${s}">${num(r)}</b>`).join(", ")}` :
      `${mover < 0 ? "Chance to move" : mover === me ? "Your decision" : `${who(mover)} to move`}. Value for ` +
      answer.values.map((v, s) => `${who(s)}${s === me ? " (you)" : ""}: <b data-seat="${s}">${num(v)}</b>`).join(", ");
    drawOptions(answer, me);
    const log = answer.log;
    q("gv-count").textContent = log.length;
    const ol = q("gv-log").querySelector("ol");
    ol.innerHTML = log.map((e) => `<li>${who(e.mover)}: ${esc(e.text)}</li>`).join("");
    ol.scrollTop = ol.scrollHeight;  // the latest events in sight
    const main = q("gv-main");
    main.textContent = over ? "New game" : mover >= 0 ? "Play the advice" : "Roll for me";
    main.title = over ? "" : mover >= 0 ? "play the best option (Enter)" : "draw the outcome and play on (Enter)";
    main.hidden = over;  // "New game" beside it would be said twice
    main.disabled = entered(answer, me);  // the other seat's move, which the tables do not value: choose what it played
    q("gv-undo").disabled = !log.length; q("gv-redo").disabled = !V.redo.length;
    q("gv-review-go").disabled = !log.length;
    if (V.extra) await V.extra.draw(q("gv-extra"), answer, {setup: setup(), seat: me, choose});
    if (V.map) await V.map.draw(q("gv-map"), answer, game.name);
    if (over) return review();
  }

  function drawOptions(answer, me) {
    const options = answer.options || [], chance = answer.to_move < 0, many = chance && options.length > LISTED;
    q("gv-typed").hidden = !chance;
    // How outcomes are typed: as the game's extra says, else dice as digits (lookup.validate.dice_text, which the
    // protocol reads in every game), else as the game's JSON.
    const first = chance && options[0].outcome, faces = Number.isInteger(first) ? [first] :
      Array.isArray(first) && first.every(Number.isInteger) ? first : null;
    const typed = (V.extra && V.extra.typed) || (faces && {how: "as digits (e.g. 112356 or 1 1 2 3 5 6)"});
    // The example: the extra's, else the first outcome (dice as digits, a string as typed without its JSON quotes).
    if (chance) {
      q("gv-outcome").placeholder = typed && typed.placeholder ? typed.placeholder : faces ? faces.join("") :
        typeof first === "string" ? first : JSON.stringify(first);
    }
    q("gv-advice").innerHTML = answer.over ? "" : chance ? `${options.length} possible outcomes` + (many ?
      `: type the one at your table ${typed ? typed.how : "as JSON"}, or roll for me.` :
      ": click the one at your table, or roll for me.") : entered(answer, me) ?
      `${who(answer.to_move)}'s move, which the tables do not value: click the one played at your table.` :
      `Advice for ${answer.to_move === me ? "you" : who(answer.to_move)}: <b class="gv-best">${esc(options.find(
        (o) => same(o.action, answer.advice)).text)}</b>`;
    const head = chance ? `<tr><th>outcome</th><th>probability</th><th>your value after</th></tr>` :
      `<tr><th>option</th><th>value (${answer.unit})</th><th>cost</th></tr>`;
    q("gv-options").innerHTML = answer.over || many ? "" : head + options.map((o, i) => {
      const key = i < 9 ? `<kbd>${i + 1}</kbd> ` : "";
      const cells = chance ? `<td title="${o.probability}">${o.exact}</td><td>${num(o.values[me])}</td>` :
        `<td>${num(o.value)}</td><td>${num(o.cost)}</td>`;
      return `<tr class="${o.best ? "best" : ""}" data-i="${i}" data-cost="${o.cost ?? ""}"><td><button class="gv-option">${key}` +
        `${esc(o.text)}${o.best ? " ★" : ""}</button></td>${cells}</tr>`;
    }).join("");
    q("gv-options").querySelectorAll("button.gv-option").forEach((b) => {
      b.onclick = () => { const o = options[Number(b.closest("tr").dataset.i)]; choose(chance ? o.outcome : o.action); };
    });
  }

  // An option chosen at the record's end (any seat's decision, or a chance outcome seen at the table): a
  // decision's cost shown at once (judge), the event added, the game played on.
  // Several in a row are one step (Yahtzee's box clicked with rerolls left, a dominoes hand typed as dealt); with
  // `outcomes` each must be chance's, and the row stops where chance does not move.
  function choose(...actions) { return playRow(actions, false); }
  function playRow(actions, outcomes) {
    return busy(async () => {
      for (const action of actions) {
        const a = V.answer, record = {...V.record, events: [...V.record.events, action]};
        if (outcomes && a.to_move >= 0) {
          throw new Error(`${typeof action === "string" ? action : JSON.stringify(action)}: nothing more is dealt or ` +
            "rolled now");
        }
        const judged = a.to_move >= 0 &&
          api(`games/${game.name}/judge`, {record: V.record, action}).then((j) => showCost(j, a.to_move));
        const [next] = await Promise.all([play(record), judged]);
        V.redo = [];
        await show(next);
      }
    });
  }

  function showCost(j, mover) {
    const p = q("gv-cost"), bad = j.cost > 0, whose = mover === seat() ? "" : `${who(mover)}: `;
    p.className = "gv-cost cost " + (j.cost === null ? "" : bad ? "bad" : "ok");
    p.dataset.cost = j.cost === null ? "" : j.cost;
    p.textContent = j.cost === null ? `${whose}${j.text}: the tables do not value this decision` : !bad ?
      `${whose}${j.text}: as good as the best` : `${whose}${j.text}: cost ${num(j.cost)} ${V.answer.unit} ` +
      `(best: ${j.best_text}, ${num(j.best_value)} against ${num(j.chosen_value)})`;
  }

  // A new game, from the start or from a position typed as the game's JSON (the record's start, which the server
  // reads and checks: lookup.records.start_state).
  function newGame(position) {
    return busy(async () => {
      let start = null;
      if (typeof position === "string") {
        try { start = JSON.parse(position); } catch (e) { throw new Error(`the position is not JSON: ${e.message}`); }
      }
      V.seed = Math.floor(Math.random() * 2 ** 31); V.redo = [];
      q("gv-cost").textContent = ""; q("gv-review").innerHTML = "";
      await show(await play({version: 2, game: game.name, setup: setup(), seat: seat(), start, events: []}));
    });
  }

  // Undo and redo one event, whoever made it; the position is then shown as it is (nothing played on).
  const undo = () => busy(async () => {
    const events = [...V.record.events], last = events.pop();
    const answer = await advise({...V.record, events});
    V.redo.push(last); q("gv-cost").textContent = ""; q("gv-review").innerHTML = "";
    await show(answer);
  });
  const redo = () => busy(async () => {
    const answer = await advise({...V.record, events: [...V.record.events, V.redo[V.redo.length - 1]]});
    V.redo.pop();
    await show(answer);
  });

  async function review() {
    const r = await api(`games/${game.name}/review`, {record: V.record, seat: seat()});
    const rows = r.events.map((e) => `<tr class="${e.cost ? "bad" : ""}" data-index="${e.index}" data-kind="${e.kind}"` +
      ` data-cost="${e.cost ?? ""}" data-luck="${e.luck ?? ""}"><td>${e.index}</td><td>${who(e.mover)}</td>` +
      `<td>${esc(e.text)}${e.cost ? ` <small>(best: ${esc(e.best_text)})</small>` : ""}</td>` +
      `<td>${e.kind === "decision" ? num(e.cost) : ""}</td><td>${e.luck === null ? "" : (e.luck >= 0 ? "+" : "") +
      num(e.luck)}</td><td>${num(e.value)}</td></tr>`).join("");
    q("gv-review").innerHTML = `<h2>Review for ${who(r.seat)} <small>(${r.unit}, ${r.higher ? "higher" : "lower"} ` +
      `is better)</small></h2><p class="gv-totals">${counted(r.decisions, "decision")}, ` +
      `${r.mistakes} below the best; cost <b class="gv-total-cost">${num(r.total_cost)}</b> in all ` +
      `(<b class="gv-per-decision">${num(r.per_decision)}</b> a decision); luck <b class="gv-luck">` +
      `${r.total_luck >= 0 ? "+" : ""}${num(r.total_luck)}</b>${r.unvalued ? `; <span class="gv-unvalued">` +
      `${counted(r.unvalued, "decision")} the tables of this setup do not value</span>` : ""}; value ${num(r.start)} at the start, ` +
      `${num(r.end)} ${r.finished ? "at the end" : "now"}.</p><div class="gv-table-box"><table class="gv-review-table">` +
      `<tr><th>#</th><th>who</th><th>event</th><th>cost</th><th>luck</th><th>value after</th></tr>${rows}</table></div>`;
  }

  async function load(file) {
    const record = await readRecord(file);
    if (record.game !== game.name) throw new Error(`${file.name}: a record of ${record.game}, not of ${game.title}`);
    const found = game.setups.findIndex((s) => Object.entries(record.setup || {}).every(([k, v]) => same(s[k], v) ||
      (free(k) && s[k] !== null && v !== null)));
    if (found < 0) throw new Error(`${file.name}: its setup (${setupText(record.setup || {})}) is not built here`);
    q("gv-setup").value = String(found);
    drawFree(record.setup);
    await chooseSetup(record.seat ?? 0);
    const answer = await advise(record);
    V.redo = []; V.seed = Math.floor(Math.random() * 2 ** 31);
    q("gv-cost").textContent = ""; q("gv-review").innerHTML = "";
    await show(answer);
  }

  // A setup's seats (from the advice at its start), the player's seat (the setup's "you" where it has one).
  async function chooseSetup(you) {
    const start = await api(`games/${game.name}/advise`, {record: {game: game.name, setup: setup(), events: []}});
    q("gv-seat").innerHTML = Array.from({length: start.seats}, (_, s) => `<option value="${s}">${who(s)}</option>`)
      .join("");
    q("gv-seat").value = String(you ?? setup().you ?? 0);
    q("gv-start").value = JSON.stringify(start.state);
    q("gv-seat").parentElement.hidden = q("gv-opponent").parentElement.hidden = start.seats < 2;
    q("gv-table").parentElement.hidden = !start.chance;  // nothing to enter in a game without chance
    // Who may play the other seats; where the tables do not play them (their moves are entered, as seen at a real
    // table) entering them comes first, and chance is entered too.
    const entering = !start.opponents.includes("table"), none = `<option value="none">entered here</option>`;
    const players = start.opponents.map((o) => `<option value="${o}">${o === "table" ? "the tables" : o}</option>`);
    q("gv-opponent").innerHTML = entering ? none + players.join("") : players.join("") + none;
    if (entering) q("gv-table").checked = true;
  }

  // Alone in its tab the panel takes the page's keys; beside a game's own view (mounted by it in a part of its
  // tab) only while the focus is inside the panel, so the two views' keys never both act, unless that view shows
  // the panel alone (class gv-alone on the panel's element, its own part hidden).
  const takesPageKeys = () => alone || section.matches(".gv-alone");
  function onKey(e) {
    if (section.closest("[hidden]") || e.ctrlKey || e.metaKey || e.altKey) return;
    if (!takesPageKeys() && !section.contains(e.target)) return;
    if (e.target.closest("input:not([type=checkbox]), select, textarea")) return;
    const k = e.key.toLowerCase(), rows = q("gv-options").querySelectorAll("button.gv-option");
    if (k >= "1" && k <= "9" && rows[Number(k) - 1]) rows[Number(k) - 1].click();
    else if (k === "u") q("gv-undo").click();
    else if (k === "y") q("gv-redo").click();
    else if (k === "enter" && !e.target.closest("button, a, summary")) q("gv-main").click();
    else return;
    e.preventDefault();
  }

  function mainAction() {
    const a = V.answer;
    if (!a || a.over) return newGame();
    if (a.to_move >= 0) return choose(a.advice);
    return busy(async () => show(await play(V.record, true)));
  }

  // The outcome typed (a bare word: the game's JSON string); where the game's extra says `several`, several in a
  // row, apart by spaces or commas (a dominoes hand as dealt), the first refused one stopping there.
  function enterOutcome() {
    const text = q("gv-outcome").value.trim(), several = V.extra && V.extra.typed && V.extra.typed.several;
    const parse = (t) => { try { return JSON.parse(t); } catch { return t; } };
    return playRow((several ? text.split(/[\s,]+/).filter(Boolean) : [text]).map(parse), true)
      .then(() => { if (!q("gv-error").textContent) q("gv-outcome").value = ""; });
  }

  if (!game.setups.length) {
    error(new Error(`no ${game.title} table is built on this server`));
    section.querySelectorAll("button, select, input").forEach((el) => { el.disabled = true; });
    return;
  }
  q("gv-setup").innerHTML = game.setups.map((s, i) => `<option value="${i}">${esc(setupText(s))}</option>`).join("");
  // The first setup: the one closest to the game's defaults (dominoes: the full set, the realistic player).
  const near = (s) => Object.entries(game.options).filter(([k, o]) => same(s[k], o.default)).length;
  q("gv-setup").value = String(game.setups.reduce((b, s, i) => (near(s) > near(game.setups[b]) ? i : b), 0));
  q("gv-setup").onchange = () => { drawFree(); return busy(() => chooseSetup()).then(newGame); };
  q("gv-main").onclick = mainAction;
  q("gv-new").onclick = newGame;
  q("gv-undo").onclick = undo;
  q("gv-redo").onclick = redo;
  q("gv-review-go").onclick = () => busy(review);
  q("gv-save").onclick = () => saveRecord(V.record);
  q("gv-load").querySelector("input").onchange = (e) => {
    const file = e.target.files[0];
    e.target.value = "";
    if (file) busy(() => load(file));
  };
  q("gv-enter").onclick = enterOutcome;
  q("gv-start-go").onclick = () => newGame(q("gv-start").value);
  q("gv-outcome").onkeydown = (e) => { if (e.key === "Enter") { e.stopPropagation(); e.preventDefault(); enterOutcome(); } };
  document.addEventListener("keydown", onKey);
  drawFree();
  await busy(() => chooseSetup());
  await newGame();
}
