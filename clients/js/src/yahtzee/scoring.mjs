// THE ONE PLACE where this package reimplements Yahtzee rules (docs/js.md, "What is reimplemented"). The artifacts
// hold values and actions, not the points of a roll in a box, so `explain` and the expected final score need them
// computed here. The rule set itself is data read from the artifact's metadata (`rules`, signed by its checksum and
// the manifest); what is ported from lookup/yahtzee/rules.py is only what turns that data into points:
//
//   scoreBox          <- rules.score_box        (the points of a roll in a box, by box kind)
//   scoringOptions    <- rules.scoring_options_n (the boxes a final roll may use; the Joker rules; forced order)
//   boxOutcome        <- rules.box_outcome_n    (points earned, upper bonus, Yahtzee bonus, the next state)
//   boxesOf           <- Rules._american_boxes   (the American sheet from its fixed scores)
//
// A change to any of those Python functions must be made here too; the golden test (tests/web/test_js_advisor.py)
// compares every answer with Python's and fails on any difference.

import { encoding } from "./encoding.mjs";

export const UPPER = 6; // boxes 0..5 are the upper boxes, box f scores face f + 1
const UPPER_MASK = (1 << UPPER) - 1;
export const JOKER_CODES = { none: 0, forced: 1, free: 2 };
const BOX_KINDS = ["upper", "of_a_kind", "pairs", "straight", "full_house", "chance", "yatzy"];
const BOX_DEFAULTS = { face: 0, n: 0, points: "total", lowest: 0, fixed: 0, four_as_two: false, five_alike: false,
  parts: [3, 2] };
const AMERICAN = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind", "four_of_a_kind",
  "full_house", "small_straight", "large_straight", "yahtzee", "chance"];

/** The American sheet (13 boxes) with a rule set's fixed scores (Rules._american_boxes). */
function americanBoxes(r) {
  const upper = AMERICAN.slice(0, UPPER).map((name, f) => ({ name, kind: "upper", face: f + 1 }));
  return [...upper,
    { name: "three_of_a_kind", kind: "of_a_kind", n: 3 },
    { name: "four_of_a_kind", kind: "of_a_kind", n: 4 },
    { name: "full_house", kind: "full_house", fixed: r.full_house_score },
    { name: "small_straight", kind: "straight", n: 4, fixed: r.small_straight_score },
    { name: "large_straight", kind: "straight", n: 5, fixed: r.large_straight_score },
    { name: "yahtzee", kind: "yatzy", fixed: r.yahtzee_score },
    { name: "chance", kind: "chance" }].map((b) => ({ ...BOX_DEFAULTS, ...b }));
}

/** The boxes of a rules dict as stored in an artifact (Rules.to_dict): listed, or the American sheet. */
export function boxesOf(r) {
  if (r.boxes === undefined) {
    if (JSON.stringify(r.categories) !== JSON.stringify(AMERICAN)) {
      throw new Error("rules: an American rule set (no boxes listed) has the 13 American categories");
    }
    return americanBoxes(r);
  }
  return r.boxes.map((b) => {
    if (!BOX_KINDS.includes(b.kind)) throw new Error(`rules: box kind ${JSON.stringify(b.kind)} is not one of ${BOX_KINDS}`);
    const unknown = Object.keys(b).filter((k) => k !== "name" && k !== "kind" && !(k in BOX_DEFAULTS));
    if (unknown.length) throw new Error(`rules: box ${b.name} has parameters this reader does not know: ${unknown}`);
    return { ...BOX_DEFAULTS, ...b };
  });
}

/** A rule set from its stored dict, with the derived numbers play needs (Rules' properties). */
export function rulesOf(dict) {
  const boxes = boxesOf(dict);
  if (dict.n_faces !== 6) throw new Error("rules: the upper section has one box per face: n_faces must be 6");
  if (!boxes.slice(0, UPPER).every((b, f) => b.kind === "upper" && b.face === f + 1)) {
    throw new Error("rules: the first 6 boxes must be the upper boxes in face order");
  }
  if (!(dict.joker in JOKER_CODES)) throw new Error(`rules: joker ${JSON.stringify(dict.joker)} is not known`);
  const yahtzeeIndex = boxes.findIndex((b) => b.kind === "yatzy");
  const known = new Set(["name", "description", "n_dice", "n_faces", "categories", "upper_threshold", "upper_bonus",
    "yahtzee_bonus", "joker", "bonus_in_optimisation", "full_house_score", "small_straight_score",
    "large_straight_score", "yahtzee_score", "joker_scores", "boxes", "forced_order", "saved_rolls_cap"]);
  const unknown = Object.keys(dict).filter((k) => !known.has(k));
  if (unknown.length) throw new Error(`rules: keys this reader does not know: ${unknown}`);
  const nBoxes = boxes.length;
  if (nBoxes > 20) throw new Error("rules: at most 20 boxes");
  return {
    dict,
    name: dict.name,
    nDice: dict.n_dice,
    nFaces: dict.n_faces,
    boxes,
    categories: boxes.map((b) => b.name),
    nBoxes,
    allFilled: 2 ** nBoxes - 1,
    upperThreshold: dict.upper_threshold,
    upperBonus: dict.upper_bonus,
    optimisedUpperBonus: dict.bonus_in_optimisation ? dict.upper_bonus : 0,
    yahtzeeBonus: dict.yahtzee_bonus,
    jokerCode: JOKER_CODES[dict.joker],
    forcedOrder: dict.forced_order === true,
    savedRollsCap: dict.saved_rolls_cap ?? 0,
    yahtzeeIndex,
    yahtzeePoints: yahtzeeIndex >= 0 ? boxes[yahtzeeIndex].fixed : 0,
  };
}

/** Points of a roll given by its face counts (index = pips - 1) in `box` (rules.score_box). */
export function scoreBox(box, counts, joker = false) {
  let nDice = 0;
  let total = 0;
  let alike = 0;
  counts.forEach((c, f) => {
    nDice += c;
    total += (f + 1) * c;
    alike = Math.max(alike, c);
  });
  const kind = box.kind;
  if (kind === "upper") return box.face * counts[box.face - 1];
  if (joker && alike === nDice && (kind === "full_house" || kind === "straight")) return box.fixed;
  if (kind === "of_a_kind") {
    const faces = [];
    counts.forEach((c, f) => c >= box.n && faces.push(f + 1));
    if (!faces.length) return 0;
    return box.points === "total" ? total : box.n * Math.max(...faces);
  }
  if (kind === "pairs") {
    const pairs = [];
    counts.forEach((c, f) => c >= 2 && pairs.push(f + 1));
    pairs.sort((a, b) => b - a);
    if (box.n === 1) return pairs.length ? 2 * pairs[0] : 0;
    if (pairs.length >= box.n) return 2 * pairs.slice(0, box.n).reduce((a, b) => a + b, 0);
    const four = [];
    counts.forEach((c, f) => c >= 4 && four.push(f + 1));
    return box.n === 2 && box.four_as_two && four.length ? 4 * four[0] : 0;
  }
  if (kind === "straight") {
    let run = 0;
    let best = 0;
    counts.forEach((c, f) => {
      if (box.lowest && !(box.lowest - 1 <= f && f < box.lowest - 1 + box.n)) return;
      run = c ? run + 1 : 0;
      best = Math.max(best, run);
    });
    return best >= box.n ? box.fixed : 0;
  }
  if (kind === "full_house") {
    if (box.five_alike && alike === nDice) return box.fixed || total;
    const [big, small] = box.parts;
    let best = 0;
    for (let a = 0; a < counts.length; a++) {
      for (let b = 0; b < counts.length; b++) {
        if (a !== b && counts[a] >= big && counts[b] >= small) best = Math.max(best, big * (a + 1) + small * (b + 1));
      }
    }
    return best ? box.fixed || best : 0;
  }
  if (kind === "chance") return total;
  return alike === nDice ? box.fixed : 0; // yatzy
}

/**
 * Which boxes a final roll may be scored in, and whether Joker values apply (rules.scoring_options_n): a bitmask of
 * boxes and 1 when the points come from the Joker table. yahtzeeFace: the face of an all-alike roll, -1 otherwise.
 */
export function scoringOptions(jokerCode, filledMask, yahtzeeFace, allFilled, ybIndex, forced) {
  const open = allFilled & ~filledMask;
  if (forced) return [open & -open, 0];
  if (yahtzeeFace < 0 || jokerCode === 0 || ((filledMask >> ybIndex) & 1) === 0) return [open, 0];
  const upperBit = 1 << yahtzeeFace;
  if (jokerCode === 1) {
    if (open & upperBit) return [upperBit, 0];
    const lowerOpen = open & ~UPPER_MASK;
    if (lowerOpen) return [lowerOpen, 1];
    return [open, 0]; // only upper boxes of other faces are open: a zero in one of them
  }
  return filledMask & upperBit ? [open, 1] : [open, 0]; // free-choice Joker
}

/**
 * Points earned by scoring `points` in box `c` and the next (upper, ybox) (rules.box_outcome_n): the upper bonus in
 * the turn the threshold is reached, the Yahtzee bonus for an all-alike roll while the Yahtzee box holds its points.
 */
export function boxOutcome(c, points, upper, ybox, alike, threshold, upperBonus, yahtzeeBonus, ybIndex) {
  let reward = points;
  let nextUpper = upper;
  let nextYbox = ybox;
  if (c < UPPER) {
    nextUpper = Math.min(threshold, upper + points);
    if (upper < threshold && threshold <= nextUpper) reward += upperBonus;
  } else if (c === ybIndex && points > 0) {
    nextYbox = 1;
  }
  if (alike && ybox) reward += yahtzeeBonus;
  return [reward, nextUpper, nextYbox];
}

/** score[r * B + c] and joker[r * B + c]: the points of every sorted roll (encoding order) in every box. */
export function scoringTables(rules) {
  const enc = encoding(rules.nDice, rules.nFaces);
  const B = rules.nBoxes;
  const score = new Int32Array(enc.nRolls * B);
  const joker = new Int32Array(enc.nRolls * B);
  for (let r = 0; r < enc.nRolls; r++) {
    const counts = new Array(rules.nFaces).fill(0);
    for (const f of enc.keeps[enc.rollOffset + r]) counts[f]++;
    for (let c = 0; c < B; c++) {
      score[r * B + c] = scoreBox(rules.boxes[c], counts);
      joker[r * B + c] = rules.jokerCode === 0 ? score[r * B + c] : scoreBox(rules.boxes[c], counts, true);
    }
  }
  return { score, joker };
}
