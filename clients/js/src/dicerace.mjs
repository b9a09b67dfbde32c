// The dice race's `decide` and `strategy` over its strategy tables (lookup/dicerace/play.py), one (dice, target,
// mode) game at a time:
//
// - sequential (`dicerace-sequential`, schema dicerace.sequential v2): the smallest d of the exact `optimal` mask;
// - simultaneous (`dicerace-simultaneous`, schema dicerace.simultaneous v2): the stored pure strategy, or a draw from
//   the stored mixed one. Python draws with numpy's Generator.choice; given the same uniform number u in [0, 1) it
//   picks the same d, because the draw is done here the way numpy does it: p = probs / probs.sum() (numpy's pairwise
//   sum), cdf = cumsum(p) / cdf[-1], d = 1 + the number of cdf entries <= u.

import { ArtifactError, NotBuiltError } from "./artifact.mjs";

export const MODES = ["sequential", "simultaneous"];
export const MAX_DICE = 1000;
const RULES = { bust_face: 1, bust_score: 1, faces: 6 }; // lookup.dicerace.rules.rules_dict(): the one rule set
const SCHEMAS = { sequential: ["dicerace-sequential", "dicerace.sequential", [2]],
  simultaneous: ["dicerace-simultaneous", "dicerace.simultaneous", [2]] };

const isInt = (x) => typeof x === "number" && Number.isInteger(x);

/** numpy's sum of a float64 vector (pairwise summation: numpy/core/src/umath/loops_utils.h pairwise_sum). */
export function numpySum(a, lo = 0, n = a.length) {
  if (n < 8) {
    let res = 0.0;
    for (let i = 0; i < n; i++) res += a[lo + i];
    return res;
  }
  if (n <= 128) {
    const r = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => a[lo + j]);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += a[lo + i + j];
    let res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; i++) res += a[lo + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return numpySum(a, lo, n2) + numpySum(a, lo + n2, n - n2);
}

export class DiceRaceAdvisor {
  /** The advisor of the game with at most `dice` dice a turn to `target`, `mode` "sequential" or "simultaneous". */
  static async open(artifacts, { dice = 10, target = 100, mode = "sequential" } = {}) {
    if (typeof mode !== "string" || !MODES.includes(mode)) {
      throw new Error(`mode must be one of ${MODES.join(", ")}; got ${JSON.stringify(mode)}`);
    }
    if (!isInt(dice) || dice < 1 || dice > MAX_DICE) throw new Error(`dice must be an integer in 1..${MAX_DICE}, got ${dice}`);
    if (!isInt(target) || target < 1) throw new Error(`target must be an integer >= 1, got ${target}`);
    const [name, schema, versions] = SCHEMAS[mode];
    if (!(await artifacts.has(name))) {
      throw new NotBuiltError(`${name}.zarr: the dice-race strategy tables are not built`);
    }
    const art = await artifacts.artifact(name, { schema, versions, rules: RULES });
    const grid = art.meta.params.grid;
    if (!Array.isArray(grid) || !grid.every((g) => Array.isArray(g) && g.length === 2 && g.every(isInt))) {
      throw new ArtifactError(`${name}.zarr: malformed params.grid in its metadata`);
    }
    if (!grid.some(([d, n]) => d === dice && n === target)) {
      throw new NotBuiltError(`${name}.zarr: (dice=${dice}, target=${target}) is not built (built: ` +
                              `${grid.map(([d, n]) => `(${d}, ${n})`).join(", ")})`);
    }
    const key = `d${dice}_n${target}`;
    const square = async (a) => {
      const arr = await art.array(`${key}_${a}`);
      if (arr.shape.length !== 2 || arr.shape[0] !== target || arr.shape[1] !== target) {
        throw new ArtifactError(`${name}.zarr/${key}_${a}: shape ${arr.shape}, expected [${target}, ${target}]`);
      }
      return arr;
    };
    const tables = mode === "sequential"
      ? { optimal: await square("optimal") }
      : { pure: await square("pure"), mixedRow: await square("mixed_row"), mixed: await art.array(`${key}_mixed`) };
    if (tables.mixed && (tables.mixed.shape.length !== 2 || tables.mixed.shape[1] !== dice)) {
      throw new ArtifactError(`${name}.zarr/${key}_mixed: shape ${tables.mixed.shape}, expected [rows, ${dice}]`);
    }
    return new DiceRaceAdvisor(dice, target, mode, tables);
  }

  constructor(dice, target, mode, tables) {
    this.dice = dice;
    this.target = target;
    this.mode = mode;
    this.tables = tables;
  }

  index(myScore, otherScore) {
    for (const [name, s] of [["my_score", myScore], ["other_score", otherScore]]) {
      if (!isInt(s)) throw new Error(`${name} must be an integer, got ${JSON.stringify(s)}`);
      if (s < 0 || s >= this.target) {
        throw new Error(`${name}=${s} outside 0..${this.target - 1} (target ${this.target}: a score of ${this.target} ` +
                        "or more ends the game)");
      }
    }
    return myScore * this.target + otherScore;
  }

  /** Probabilities over d (index d - 1) of the stored simultaneous strategy (SimultaneousTable.strategy). */
  async probabilities(i) {
    const row = await this.tables.mixedRow.at(i);
    const out = new Float64Array(this.dice);
    if (row >= 0) {
      for (let d = 0; d < this.dice; d++) out[d] = await this.tables.mixed.at(row * this.dice + d);
    } else {
      const pure = await this.tables.pure.at(i);
      if (pure < 1 || pure > this.dice) throw new ArtifactError(`dice race: no strategy stored at index ${i}`);
      out[pure - 1] = 1.0;
    }
    return out;
  }

  /**
   * The number of dice to roll now, the asking player with `myScore` against `otherScore` (both 0..target-1).
   * Sequential: the smallest optimal d. Simultaneous: the stored pure strategy, or a sample of the stored mixed one
   * drawn with `random()` (a uniform number in [0, 1); default Math.random): the d numpy's Generator.choice picks
   * with that number (lookup.dicerace.decide with a generator whose next random() is it).
   */
  async decide(myScore, otherScore, { random = Math.random } = {}) {
    const i = this.index(myScore, otherScore);
    if (this.mode === "sequential") {
      const mask = await this.tables.optimal.at(i);
      for (let d = 1; d <= this.dice; d++) if ((mask >>> (d - 1)) & 1) return d;
      throw new ArtifactError(`dice race: no optimal d stored at (${myScore}, ${otherScore})`);
    }
    const pure = await this.tables.pure.at(i);
    if (pure) return pure;
    const probs = await this.probabilities(i);
    const sum = numpySum(probs);
    const cdf = new Float64Array(this.dice);
    let acc = 0.0;
    for (let d = 0; d < this.dice; d++) {
      acc += probs[d] / sum;
      cdf[d] = acc;
    }
    const last = cdf[this.dice - 1];
    const u = random();
    let d = 0;
    while (d < this.dice && cdf[d] / last <= u) d++;
    return Math.min(d, this.dice - 1) + 1;
  }

  /** {d: probability} of an optimal strategy, only d of positive probability (lookup.dicerace.strategy): sequential,
   * uniform over every optimal d; simultaneous, the stored strategy. */
  async strategy(myScore, otherScore) {
    const i = this.index(myScore, otherScore);
    const out = {};
    if (this.mode === "sequential") {
      const mask = await this.tables.optimal.at(i);
      const ties = [];
      for (let d = 1; d <= this.dice; d++) if ((mask >>> (d - 1)) & 1) ties.push(d);
      for (const d of ties) out[d] = 1.0 / ties.length;
      return out;
    }
    const probs = await this.probabilities(i);
    probs.forEach((p, d) => {
      if (p > 0) out[d + 1] = p;
    });
    return out;
  }
}
