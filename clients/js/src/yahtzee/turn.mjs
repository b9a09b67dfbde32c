// One whole turn from the value table (lookup/yahtzee/turn.py), with the same floating-point operations in the
// same order, so that every value equals Python's bit for bit:
//
//   final[roll, box] = reward + value[next state]      (NaN where the box may not be used)
//   v0[roll]         = max over boxes of final          (np.nanmax)
//   E(keep)          = (E(keep + face 0) + ... + E(keep + face 5)) * (1 / 6), summed left to right (numpy's sum
//                      over an axis of 6: sequential), E(roll) = the roll's value
//   M(keep)          = max(E(keep), max over faces in keep of M(keep - face))
//   keep1 = E over v0; v1 = M(keep1) of the rolls; keep2 = E over v1
//
// Ties: an option within TIE_EPS points of the best is tied; the first in order wins (fewest dice rerolled, then
// lowest mask; lowest box).

import { encoding } from "./encoding.mjs";
import { boxOutcome, scoringOptions, scoringTables } from "./scoring.mjs";

export const TIE_EPS = 1e-9;

const plans = new WeakMap();

/** What every turn of a rule set shares: the encoding, the score tables, the rolls that are not all alike with the
 * distinct points each box gives them (turn._final_plan), the all-alike rolls with their face. */
export function turnPlan(rules) {
  let plan = plans.get(rules);
  if (plan !== undefined) return plan;
  const enc = encoding(rules.nDice, rules.nFaces);
  const { score, joker } = scoringTables(rules);
  const B = rules.nBoxes;
  const plain = [];
  const alike = [];
  for (let r = 0; r < enc.nRolls; r++) {
    if (enc.yahtzeeFace[r] < 0) plain.push(r);
    else alike.push([r, enc.yahtzeeFace[r]]);
  }
  const points = [];
  const which = [];
  for (let c = 0; c < B; c++) {
    const distinct = [...new Set(plain.map((r) => score[r * B + c]))].sort((a, b) => a - b);
    const at = new Map(distinct.map((p, i) => [p, i]));
    points.push(distinct);
    which.push(Int32Array.from(plain, (r) => at.get(score[r * B + c])));
  }
  const possible = [];
  for (let c = 0; c < B; c++) {
    const s = new Set();
    for (let r = 0; r < enc.nRolls; r++) {
      s.add(score[r * B + c]);
      s.add(joker[r * B + c]);
    }
    possible.push(s);
  }
  plan = { rules, enc, B, score, joker, plain: Int32Array.from(plain), alike, points, which, possible };
  plans.set(rules, plan);
  return plan;
}

/**
 * Calls worth(reward, nextMask, nextUpper, nextYbox) for every box and distinct number of points of a plain roll and
 * for every all-alike roll's allowed box (turn.final_outcomes), and fills final[roll * B + box] with what it returns
 * (NaN where the box may not be used) when `final` is given.
 */
export function finalOutcomes(plan, mask, upper, ybox, worth, final) {
  const { rules, B } = plan;
  const args = [rules.upperThreshold, rules.optimisedUpperBonus, rules.yahtzeeBonus, rules.yahtzeeIndex];
  const forced = rules.forcedOrder ? 1 : 0;
  const [allowed] = scoringOptions(rules.jokerCode, mask, -1, rules.allFilled, rules.yahtzeeIndex, forced);
  for (let c = 0; c < B; c++) {
    if (!((allowed >> c) & 1)) continue;
    const worths = plan.points[c].map((p) => {
      const [reward, nu, ny] = boxOutcome(c, p, upper, ybox, 0, ...args);
      return worth(reward, mask | (1 << c), nu, ny);
    });
    if (final) {
      const which = plan.which[c];
      for (let j = 0; j < plan.plain.length; j++) final[plan.plain[j] * B + c] = worths[which[j]];
    }
  }
  for (const [r, face] of plan.alike) {
    const [ok, useJoker] = scoringOptions(rules.jokerCode, mask, face, rules.allFilled, rules.yahtzeeIndex, forced);
    const pts = useJoker ? plan.joker : plan.score;
    for (let c = 0; c < B; c++) {
      if (!((ok >> c) & 1)) continue;
      const [reward, nu, ny] = boxOutcome(c, pts[r * B + c], upper, ybox, 1, ...args);
      const w = worth(reward, mask | (1 << c), nu, ny);
      if (final) final[r * B + c] = w;
    }
  }
}

/** The turn-start states whose values the turn from (mask, upper, ybox) reads: its own and every next state. */
export function statesRead(plan, mask, upper, ybox) {
  const seen = new Map([[`${mask},${upper},${ybox}`, [mask, upper, ybox]]]);
  finalOutcomes(plan, mask, upper, ybox, (reward, m, u, y) => {
    seen.set(`${m},${u},${y}`, [m, u, y]);
    return 0;
  });
  return [...seen.values()];
}

function expect(enc, rollValues) {
  const F = enc.nFaces;
  const e = new Float64Array(enc.nKeeps);
  e.set(rollValues, enc.rollOffset);
  const third = 1.0 / F;
  for (let size = enc.nDice - 1; size >= 0; size--) {
    for (let k = enc.sizeOffset[size]; k < enc.sizeOffset[size + 1]; k++) {
      let s = e[enc.addDie[k * F]];
      for (let f = 1; f < F; f++) s += e[enc.addDie[k * F + f]];
      e[k] = s * third;
    }
  }
  return e;
}

function bestOfSubkeeps(enc, e) {
  const F = enc.nFaces;
  const m = new Float64Array(enc.nKeeps + 1);
  m[enc.nKeeps] = -Infinity;
  for (let size = 0; size <= enc.nDice; size++) {
    for (let k = enc.sizeOffset[size]; k < enc.sizeOffset[size + 1]; k++) {
      let best = -Infinity;
      for (let f = 0; f < F; f++) {
        const v = m[enc.removeDie[k * F + f]];
        if (v > best) best = v;
      }
      m[k] = e[k] > best ? e[k] : best;
    }
  }
  return m.subarray(0, enc.nKeeps);
}

/**
 * The whole turn from (mask, upper, ybox), valueOf(mask, upper, ybox) giving the turn-start values (loaded):
 * { state, final (R * B), keep: {1: E after 1 reroll left, 2: ...} }. Throws for a finished or unreachable state.
 */
export function analyseTurn(plan, mask, upper, ybox, valueOf) {
  const { rules, enc, B } = plan;
  if (mask === rules.allFilled || Number.isNaN(valueOf(mask, upper, ybox))) {
    throw new Error(`unreachable or finished state (${mask}, ${upper}, ${ybox})`);
  }
  const final = new Float64Array(enc.nRolls * B).fill(NaN);
  finalOutcomes(plan, mask, upper, ybox, (reward, m, u, y) => reward + valueOf(m, u, y), final);
  const v0 = new Float64Array(enc.nRolls);
  for (let r = 0; r < enc.nRolls; r++) {
    let best = NaN;
    for (let c = 0; c < B; c++) {
      const v = final[r * B + c];
      if (v === v && !(v <= best)) best = v; // nanmax
    }
    v0[r] = best;
  }
  const keep1 = expect(enc, v0);
  const v1 = bestOfSubkeeps(enc, keep1).subarray(enc.rollOffset);
  const keep2 = expect(enc, v1);
  return { state: [mask, upper, ybox], final, keep: { 1: keep1, 2: keep2 } };
}

/** The chosen reroll mask over the sorted dice (tie rule: fewest dice rerolled, then lowest mask). */
export function bestReroll(plan, analysis, rerolls, roll) {
  const { enc } = plan;
  const keep = analysis.keep[rerolls];
  const M = enc.nMasks;
  let best = -Infinity;
  for (let i = 0; i < M; i++) best = Math.max(best, keep[enc.keepOfMask[roll * M + enc.maskOrder[i]]]);
  for (let i = 0; i < M; i++) {
    if (keep[enc.keepOfMask[roll * M + enc.maskOrder[i]]] >= best - TIE_EPS) return enc.maskOrder[i];
  }
  throw new Error("no reroll option");
}

/** The chosen box for the final roll (tie rule: lowest box). */
export function bestCategory(plan, analysis, roll) {
  const { B } = plan;
  let best = NaN;
  for (let c = 0; c < B; c++) {
    const v = analysis.final[roll * B + c];
    if (v === v && !(v <= best)) best = v;
  }
  for (let c = 0; c < B; c++) if (analysis.final[roll * B + c] >= best - TIE_EPS) return c;
  throw new Error("no box to score in");
}

const list = (xs) => `[${xs.join(", ")}]`;

/**
 * Every legal option of `roll` with `rerolls` left (turn.ranked_options) as [label, keep (pips) or null, box name or
 * null, value, regret]: the options tied with the best first in tie order, then the rest by value, highest first.
 */
export function rankedOptions(plan, analysis, roll, rerolls) {
  const { rules, enc, B } = plan;
  const options = [];
  if (rerolls === 0) {
    for (let c = 0; c < B; c++) {
      const v = analysis.final[roll * B + c];
      if (!Number.isNaN(v)) options.push([`score as ${rules.categories[c]}`, null, rules.categories[c], v]);
    }
  } else {
    const seen = new Set();
    const M = enc.nMasks;
    for (let i = 0; i < M; i++) {
      const k = enc.keepOfMask[roll * M + enc.maskOrder[i]];
      if (seen.has(k)) continue;
      seen.add(k);
      const keep = enc.keeps[k].map((f) => f + 1);
      const label = keep.length === enc.nDice ? "keep all (stop)" : `keep ${list(keep)}`;
      options.push([label, keep, null, analysis.keep[rerolls][k]]);
    }
  }
  let best = -Infinity;
  for (const o of options) best = Math.max(best, o[3]);
  const tied = (v) => v >= best - TIE_EPS;
  const key = (o) => (tied(o[3]) ? -best : -o[3]);
  const ranked = options.map((o, i) => [key(o), i, o]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
  return ranked.map(([a, k, c, v]) => [a, k, c, v, tied(v) ? 0.0 : best - v]);
}
