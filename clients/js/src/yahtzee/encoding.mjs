// Multisets of dice as integer indices, numbered exactly as lookup/yahtzee/encoding.py numbers them (the policy
// tables are indexed by these numbers). Faces are 0-based (face f shows f + 1 pips).
//
// Keeps (0..D dice) are numbered by size, then lexicographically on their sorted faces; keep 0 is the empty keep.
// The keeps of D dice are the rolls: roll r is keep rollOffset + r. A reroll mask is a D-bit integer over the SORTED
// dice (bit i set = the i-th smallest die is rerolled).

function* combinations(nFaces, size, start = 0, prefix = []) {
  if (prefix.length === size) {
    yield prefix.slice();
    return;
  }
  for (let f = start; f < nFaces; f++) {
    prefix.push(f);
    yield* combinations(nFaces, size, f, prefix);
    prefix.pop();
  }
}

const popcount = (m) => {
  let n = 0;
  for (; m; m &= m - 1) n++;
  return n;
};

const cache = new Map();

/** The encoding of D dice with F faces (cached). */
export function encoding(nDice, nFaces = 6) {
  const key = `${nDice}/${nFaces}`;
  let enc = cache.get(key);
  if (enc === undefined) {
    enc = build(nDice, nFaces);
    cache.set(key, enc);
  }
  return enc;
}

function build(D, F) {
  const keeps = [];
  const sizeOffset = [];
  for (let m = 0; m <= D; m++) {
    sizeOffset.push(keeps.length);
    for (const k of combinations(F, m)) keeps.push(k);
  }
  sizeOffset.push(keeps.length);
  const K = keeps.length;
  const code = (faces) => faces.reduce((a, f) => a * (F + 1) + f + 1, 0); // distinct per sorted multiset
  const lookup = new Map(keeps.map((k, i) => [code(k), i]));
  const rollOffset = sizeOffset[D];
  const nRolls = K - rollOffset;
  // addDie[k * F + f]: keep of k plus a die f (-1 for full keeps); removeDie[k * F + f]: k minus a die f, or K when
  // k holds no such die (a slot that reads -Infinity in the keep tree).
  const addDie = new Int32Array(K * F).fill(-1);
  const removeDie = new Int32Array(K * F).fill(K);
  keeps.forEach((k, i) => {
    for (let f = 0; f < F; f++) {
      if (k.length < D) addDie[i * F + f] = lookup.get(code([...k, f].sort((a, b) => a - b)));
      const at = k.indexOf(f);
      if (at >= 0) removeDie[i * F + f] = lookup.get(code(k.filter((_, j) => j !== at)));
    }
  });
  const nMasks = 1 << D;
  const keepOfMask = new Int32Array(nRolls * nMasks);
  const yahtzeeFace = new Int8Array(nRolls);
  for (let r = 0; r < nRolls; r++) {
    const roll = keeps[rollOffset + r];
    for (let mask = 0; mask < nMasks; mask++) {
      keepOfMask[r * nMasks + mask] = lookup.get(code(roll.filter((_, i) => !((mask >> i) & 1))));
    }
    yahtzeeFace[r] = roll.every((f) => f === roll[0]) ? roll[0] : -1;
  }
  const maskOrder = Int32Array.from([...Array(nMasks).keys()].sort((a, b) => popcount(a) - popcount(b) || a - b));
  // rollOfCode[base-F code of the sorted 0-based faces] = roll index.
  const rollOfCode = new Int32Array(F ** D).fill(-1);
  for (let r = 0; r < nRolls; r++) {
    rollOfCode[keeps[rollOffset + r].reduce((a, f) => a * F + f, 0)] = r;
  }
  return { nDice: D, nFaces: F, keeps, nKeeps: K, sizeOffset, rollOffset, nRolls, nMasks, addDie, removeDie,
    keepOfMask, maskOrder, yahtzeeFace, rollOfCode };
}
