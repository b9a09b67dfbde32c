// Yahtzee's expected-score advisor over the artifacts of one rule set (lookup/yahtzee/play.py): `decide`, `explain`
// and `value`, answering what lookup.yahtzee.decide / explain / value answer, in their JSON form.
//
// Tables (docs/artifacts.md): `yahtzee-RULES-values` (value[filled_mask, upper, ybox], schema yahtzee.values v1) or,
// for a rule set too large for a policy (Maxi Yatzy), `yahtzee-RULES-layered` (schema yahtzee.layered v1); and when
// built, `yahtzee-RULES-policy` (schema yahtzee.policy v1), whose actions decide reads by indexing. Without a policy
// the action comes from the turn computed from the values, by the same tie rule (as in Python).

import { ArtifactError, NotBuiltError } from "../artifact.mjs";
import { canonical } from "../json.mjs";
import { UPPER, rulesOf } from "./scoring.mjs";
import { analyseTurn, bestCategory, bestReroll, rankedOptions, statesRead, turnPlan } from "./turn.mjs";

const VALUES_SCHEMA = "yahtzee.values";
const POLICY_SCHEMA = "yahtzee.policy";
const LAYERED_SCHEMA = "yahtzee.layered";
const VERSIONS = [1];
const BONUS_KEY = "yahtzee_bonus";
const TURN_CACHE = 256; // turns kept (lookup.yahtzee.play.turn_analysis: lru_cache(256))

const isInt = (x) => typeof x === "number" && Number.isInteger(x);
const shown = (x) => {
  let t;
  try {
    t = JSON.stringify(x);
  } catch {
    t = String(x);
  }
  t = t === undefined ? String(x) : t;
  return t.length > 80 ? `${t.slice(0, 80)}... (cut)` : t;
};
const list = (xs) => `[${xs.join(", ")}]`;

/** Python's f"{x:.4f}": correctly rounded, ties (x an odd multiple of 1/32) to even; toFixed rounds them up. */
export function fixed4(x) {
  const y = x * 32;
  if (Number.isInteger(y) && Math.abs(y) % 2 === 1) {
    const n = Math.floor(x * 1e4);
    return ((n % 2 === 0 ? n : n + 1) / 1e4).toFixed(4);
  }
  return x.toFixed(4);
}

/** Dense values: value[(mask * (threshold + 1) + upper) * 2 + ybox]. `load(states)` gives (m, u, y) -> value for
 * those states, their chunks held. */
class DenseValues {
  constructor(value, nUpper) {
    this.value = value;
    this.nUpper = nUpper;
  }
  async load(states) {
    const pinned = await this.value.pin(states.map(([m, u, y]) => (m * this.nUpper + u) * 2 + y));
    return (m, u, y) => pinned.get((m * this.nUpper + u) * 2 + y);
  }
}

/** A layered table's values (lookup.yahtzee.tables.LayeredValues): state_index, then layer_NN[row - ptr[NN], 0]. */
class LayeredValues {
  constructor(stateIndex, ptr, layers, nUpper) {
    this.stateIndex = stateIndex;
    this.ptr = ptr;
    this.layers = layers;
    this.nUpper = nUpper;
  }
  async load(states) {
    const flat = ([m, u, y]) => (m * this.nUpper + u) * 2 + y;
    const rows = await this.stateIndex.pin(states.map(flat));
    const where = (m, u, y) => {
      const row = rows.get(flat([m, u, y]));
      if (row < 0) return [-1, 0];
      const n = popcount(m);
      return [n, (row - this.ptr[n]) * 4];
    };
    const wanted = new Map();
    for (const [m, u, y] of states) {
      const [n, i] = where(m, u, y);
      if (n >= 0) (wanted.get(n) ?? wanted.set(n, []).get(n)).push(i);
    }
    const layers = new Map(await Promise.all([...wanted].map(async ([n, idx]) => [n, await this.layers[n].pin(idx)])));
    return (m, u, y) => {
      const [n, i] = where(m, u, y);
      return n < 0 ? NaN : layers.get(n).get(i);
    };
  }
}

const popcount = (m) => {
  let n = 0;
  for (; m; m &= m - 1) n++;
  return n;
};

export class YahtzeeAdvisor {
  /**
   * The advisor of rule set `ruleSet` (a name, e.g. "hasbro") over `artifacts` (an Artifacts). `policy: false`
   * ignores a built policy table (actions then come from the turn computed from the values).
   */
  static async open(artifacts, ruleSet, { policy = true } = {}) {
    if (typeof ruleSet !== "string" || !/^[A-Za-z0-9][A-Za-z0-9_.+-]*$/.test(ruleSet)) {
      throw new Error(`rule set must be a name such as "hasbro", got ${shown(ruleSet)}`);
    }
    const dense = `yahtzee-${ruleSet}-values`;
    const layered = `yahtzee-${ruleSet}-layered`;
    let values;
    let art;
    if (await artifacts.has(dense)) {
      art = await artifacts.artifact(dense, { schema: VALUES_SCHEMA, versions: VERSIONS });
    } else if (await artifacts.has(layered)) {
      art = await artifacts.artifact(layered, { schema: LAYERED_SCHEMA, versions: VERSIONS });
    } else {
      throw new NotBuiltError(`${dense}.zarr: the '${ruleSet}' Yahtzee tables are not built (neither ${dense} nor ` +
                              `${layered})`);
    }
    if (art.meta.rules.name !== ruleSet) {
      throw new ArtifactError(`${art.name}.zarr: built for rules '${art.meta.rules.name}', asked for '${ruleSet}'`);
    }
    const rules = rulesOf(art.meta.rules);
    if (rules.savedRollsCap) {
      throw new Error(`rule set '${ruleSet}' saves unused rolls (at most ${rules.savedRollsCap}): decide, explain and ` +
                      "value do not take saved rolls yet");
    }
    const layout = [2 ** rules.nBoxes, rules.upperThreshold + 1, 2];
    const nUpper = rules.upperThreshold + 1;
    const sameShape = (arr, shape, what) => {
      if (canonical(arr.shape) !== canonical(shape)) {
        throw new ArtifactError(`${what}: array has shape ${arr.shape}, the rules imply ${shape}`);
      }
    };
    if (art.meta.schema === VALUES_SCHEMA) {
      const value = await art.array("value");
      sameShape(value, layout, `${art.name}.zarr/value`);
      values = new DenseValues(value, nUpper);
    } else {
      const stateIndex = await art.array("state_index");
      sameShape(stateIndex, layout, `${art.name}.zarr/state_index`);
      const ptr = Array.from(await (await art.array("layer_ptr")).whole(), Number);
      const layers = [];
      for (let n = 0; n <= rules.nBoxes; n++) {
        const layer = await art.array(`layer_${String(n).padStart(2, "0")}`);
        if (ptr.length !== rules.nBoxes + 2) throw new ArtifactError(`${art.name}.zarr: layer_ptr has ${ptr.length} entries`);
        sameShape(layer, [ptr[n + 1] - ptr[n], 4], `${art.name}.zarr/layer_${n}`);
        layers.push(layer);
      }
      values = new LayeredValues(stateIndex, ptr, layers, nUpper);
    }
    let pol = null;
    const policyName = `yahtzee-${ruleSet}-policy`;
    if (policy && art.meta.schema === VALUES_SCHEMA && (await artifacts.has(policyName))) {
      const p = await artifacts.artifact(policyName, { schema: POLICY_SCHEMA, versions: VERSIONS, rules: art.raw.rules });
      if (p.meta.params.values_fingerprint !== art.meta.fingerprint) {
        throw new ArtifactError(`${policyName}.zarr: computed from another value table than ${dense}.zarr; rebuild both`);
      }
      pol = { stateIndex: await p.array("state_index"), reroll: await p.array("reroll"),
        category: await p.array("category") };
      const rows = pol.category.shape[0];
      const nRolls = turnPlan(rules).enc.nRolls;
      sameShape(pol.stateIndex, layout, `${policyName}.zarr/state_index`);
      sameShape(pol.reroll, [rows, 2, nRolls], `${policyName}.zarr/reroll`);
      sameShape(pol.category, [rows, nRolls], `${policyName}.zarr/category`);
    }
    return new YahtzeeAdvisor(rules, values, pol, art.meta.stats);
  }

  constructor(rules, values, policy, stats) {
    this.rules = rules;
    this.name = rules.name;
    this.values = values;
    this.policy = policy;
    this.stats = stats;
    this.plan = turnPlan(rules);
    this.turns = new Map();
    this.nUpper = rules.upperThreshold + 1;
  }

  // -- the question, checked (lookup.yahtzee.question.ask, Sheet.parse) -------------------------------------------

  /** [pips, roll index] of the dice; Error naming the problem. */
  dice(dice) {
    const { nDice, nFaces } = this.rules;
    if (!Array.isArray(dice)) throw new Error(`dice must be a list of ${nDice} integers, got ${shown(dice)}`);
    if (dice.length !== nDice) throw new Error(`expected ${nDice} dice, got ${dice.length}: ${shown(dice)}`);
    dice.forEach((v, i) => {
      if (!isInt(v)) throw new Error(`dice[${i}] must be an integer, got ${shown(v)}`);
    });
    const bad = dice.find((v) => v < 1 || v > nFaces);
    if (bad !== undefined) throw new Error(`die face ${bad} outside 1..${nFaces} in dice ${shown(dice)}`);
    const code = [...dice].sort((a, b) => a - b).reduce((a, p) => a * nFaces + p - 1, 0);
    return [dice.slice(), this.plan.enc.rollOfCode[code]];
  }

  rerolls(rerolls) {
    if (!isInt(rerolls) || rerolls < 0 || rerolls > 2) throw new Error(`rerolls must be an integer in 0..2, got ${shown(rerolls)}`);
    return rerolls;
  }

  categoryIndex(key) {
    const cats = this.rules.categories;
    let i = cats.indexOf(key);
    if (i < 0 && typeof key === "string") i = cats.indexOf(key.trim().toLowerCase().replaceAll(" ", "_").replaceAll("-", "_"));
    if (i < 0) throw new Error(`unknown category ${shown(key)}; categories: ${cats.join(", ")}`);
    return i;
  }

  /** The sheet parsed and checked: { boxes, bonus, mask, upper (capped), ybox, total, finished }. */
  sheet(sheet) {
    const r = this.rules;
    let boxes;
    let bonus = 0;
    if (Array.isArray(sheet)) {
      if (sheet.length !== r.nBoxes) {
        throw new Error(`a ${r.name} sheet list has ${r.nBoxes} entries in sheet order, got ${sheet.length}`);
      }
      boxes = sheet.slice();
    } else if (sheet !== null && typeof sheet === "object") {
      boxes = new Array(r.nBoxes).fill(null);
      for (const [key, points] of Object.entries(sheet)) {
        if (key === BONUS_KEY) bonus = points ?? 0;
        else boxes[this.categoryIndex(key)] = points;
      }
    } else {
      throw new Error(`sheet must be a mapping or a ${r.nBoxes}-list, got ${shown(sheet)}`);
    }
    let mask = 0;
    let sum = 0;
    let upperTotal = 0;
    let filled = 0;
    boxes.forEach((p, c) => {
      if (p === null || p === undefined) {
        boxes[c] = null;
        return;
      }
      if (!isInt(p)) throw new Error(`box ${r.categories[c]} must be an integer, got ${shown(p)}`);
      if (!this.plan.possible[c].has(p)) throw new Error(`box ${r.categories[c]} cannot hold ${p} points under '${r.name}'`);
      mask |= 1 << c;
      sum += p;
      filled++;
      if (c < UPPER) upperTotal += p;
    });
    if (!isInt(bonus)) throw new Error(`${BONUS_KEY} must be whole points, got ${shown(bonus)}`);
    const step = r.yahtzeeBonus;
    if (bonus < 0 || (bonus && (!step || bonus % step))) {
      throw new Error(`${BONUS_KEY} ${bonus} is not a multiple of ${step} under '${r.name}'`);
    }
    if (bonus && boxes[r.yahtzeeIndex] !== r.yahtzeePoints) {
      throw new Error(`${BONUS_KEY} ${bonus} needs ${r.yahtzeePoints} in the Yahtzee box`);
    }
    if (bonus && bonus / step > filled - 1) throw new Error(`${BONUS_KEY} ${bonus} needs more filled boxes than ${filled}`);
    const reached = upperTotal >= r.upperThreshold;
    return {
      boxes, bonus, mask,
      upper: Math.min(upperTotal, r.upperThreshold),
      ybox: r.yahtzeeIndex >= 0 && boxes[r.yahtzeeIndex] === r.yahtzeePoints ? 1 : 0,
      total: sum + (reached ? r.optimisedUpperBonus : 0) + bonus,
      finished: mask === r.allFilled,
    };
  }

  question(dice, rerolls, sheet) {
    const [pips, roll] = this.dice(dice);
    const rr = this.rerolls(rerolls);
    const sh = this.sheet(sheet);
    if (sh.finished) throw new Error("the sheet is finished: every box is filled, there is nothing to decide");
    return { pips, roll, rerolls: rr, sheet: sh };
  }

  // -- the turn -----------------------------------------------------------------------------------------------------

  /** The values of every option of the turn starting at (mask, upper, ybox), cached (the last 256 turns). */
  async turn(mask, upper, ybox) {
    const key = (mask * this.nUpper + upper) * 2 + ybox;
    let hit = this.turns.get(key);
    if (hit === undefined) {
      const valueOf = await this.values.load(statesRead(this.plan, mask, upper, ybox));
      hit = analyseTurn(this.plan, mask, upper, ybox, valueOf);
      if (this.turns.size >= TURN_CACHE) this.turns.delete(this.turns.keys().next().value);
      this.turns.set(key, hit);
    }
    return hit;
  }

  /** Forget the turns computed (benchmarks: a decision that computes its turn afresh). */
  clearTurns() {
    this.turns.clear();
  }

  // -- answers ------------------------------------------------------------------------------------------------------

  /**
   * The optimal move for `dice` (pips, the player's order) with `rerolls` left on `sheet` (a mapping box -> points or
   * null, optionally yahtzee_bonus; or a list in sheet order), as lookup.yahtzee.decide(...).as_dict(): { rules,
   * dice, rerolls, reroll (one boolean per input die, true = reroll; null at 0), keep (faces kept, sorted; null at
   * 0), category (the box at 0, else null), expected_final, text }.
   */
  async decide(dice, rerolls, sheet) {
    const q = this.question(dice, rerolls, sheet);
    const { mask, upper, ybox, total } = q.sheet;
    const { enc } = this.plan;
    let action;
    let analysis;
    if (this.policy !== null) {
      const row = await this.policy.stateIndex.at((mask * this.nUpper + upper) * 2 + ybox);
      if (row < 0) throw new Error(`state (${mask}, ${upper}, ${ybox}) cannot be reached (not a sheet a game can produce)`);
      action = q.rerolls
        ? await this.policy.reroll.at((row * 2 + q.rerolls - 1) * enc.nRolls + q.roll)
        : await this.policy.category.at(row * enc.nRolls + q.roll);
      analysis = await this.turn(mask, upper, ybox);
    } else {
      analysis = await this.turn(mask, upper, ybox);
      action = q.rerolls ? bestReroll(this.plan, analysis, q.rerolls, q.roll) : bestCategory(this.plan, analysis, q.roll);
    }
    const out = { rules: this.name, dice: q.pips, rerolls: q.rerolls, reroll: null, keep: null, category: null,
      expected_final: 0, text: "" };
    let words;
    if (q.rerolls === 0) {
      out.category = this.rules.categories[action];
      out.expected_final = total + analysis.final[q.roll * this.plan.B + action];
      words = `score ${list(q.pips)} as ${out.category}`;
    } else {
      const k = enc.keepOfMask[q.roll * enc.nMasks + action];
      const order = q.pips.map((p, i) => [p, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[1]);
      out.reroll = new Array(q.pips.length).fill(false);
      order.forEach((pos, bit) => {
        out.reroll[pos] = ((action >> bit) & 1) === 1;
      });
      out.keep = enc.keeps[k].map((f) => f + 1);
      out.expected_final = total + analysis.keep[q.rerolls][k];
      const n = out.reroll.filter(Boolean).length;
      const dice = n === 1 ? "die" : "dice"; // lookup.words.counted
      words = n === 0 ? `keep all of ${list(q.pips)} (stop rolling)` : `keep ${list(out.keep)}, reroll ${n} ${dice}`;
    }
    out.text = `${words}; expected final score ${fixed4(out.expected_final)}`;
    return out;
  }

  /**
   * Every legal option (distinct keeps, or allowed boxes) ranked by expected final score, those tied with the best
   * first in tie order (so the first is decide's), as lookup.yahtzee.explain(...) in JSON: [{ action, keep,
   * category, expected_final, regret }].
   */
  async explain(dice, rerolls, sheet) {
    const q = this.question(dice, rerolls, sheet);
    const { mask, upper, ybox, total } = q.sheet;
    const analysis = await this.turn(mask, upper, ybox);
    return rankedOptions(this.plan, analysis, q.roll, q.rerolls).map(([action, keep, category, v, regret]) => (
      { action, keep, category, expected_final: total + v, regret }));
  }

  /** The expected final score under optimal play from the start of the next turn on `sheet` (lookup.yahtzee.value);
   * a finished sheet's total. */
  async value(sheet) {
    const sh = this.sheet(sheet);
    if (sh.finished) return sh.total;
    const remaining = (await this.values.load([[sh.mask, sh.upper, sh.ybox]]))(sh.mask, sh.upper, sh.ybox);
    if (Number.isNaN(remaining)) {
      throw new Error(`state (${sh.mask}, ${sh.upper}, ${sh.ybox}) cannot be reached (not a sheet a game can produce)`);
    }
    return sh.total + remaining;
  }
}
