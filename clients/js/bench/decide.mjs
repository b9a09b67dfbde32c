// Timing of the JavaScript advisor's answers once their chunks are read (benchmarks/js_decide.py runs it).
//
//   node bench/decide.mjs ARTIFACTS SITUATIONS.json ROUNDS
//
// SITUATIONS.json: {"yahtzee": [[dice, rerolls, sheet], ...], "dicerace": {"dice": D, "target": N, "scores":
// [[my, other], ...]} or null}. Prints one JSON object: medians and 99th percentiles in microseconds of
//   decide_us        Yahtzee decide with its turn computed afresh (turn cache cleared before each call; chunks warm)
//   decide_same_us   the same question asked again (its turn cached: the action and the cached values only)
//   explain_us       explain, turn computed afresh
//   values_only_us   decide without the policy table (the action from the turn), turn computed afresh
//   race_seq_us, race_sim_us   the dice race's decide, sequential and simultaneous
// and first_decide_ms: opening the artifacts and the first decision of this fresh process (chunks read and checked).

import { performance } from "node:perf_hooks";
import { readFileSync } from "node:fs";

const t0 = performance.now();
const { openDirectory } = await import("../src/node.mjs");
const [artifactsDir, situationsPath, roundsText] = process.argv.slice(2);
const situations = JSON.parse(readFileSync(situationsPath, "utf8"));
const rounds = Number(roundsText ?? 5);

const advisors = await openDirectory(artifactsDir);
const y = await advisors.yahtzee("hasbro");
const [d0, r0, s0] = situations.yahtzee[0];
await y.decide(d0, r0, s0);
const firstDecideMs = performance.now() - t0;

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1], n: sorted.length };
}

async function time(fn, { clear = null } = {}) {
  for (const s of situations.yahtzee) await fn(...s); // warm: every chunk read and checked once
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    for (const s of situations.yahtzee) {
      if (clear) clear();
      const t = performance.now();
      await fn(...s);
      samples.push((performance.now() - t) * 1000);
    }
  }
  return stats(samples);
}

const out = { first_decide_ms: firstDecideMs };
out.decide_us = await time((d, r, s) => y.decide(d, r, s), { clear: () => y.clearTurns() });
out.decide_same_us = await time((d, r, s) => y.decide(d, r, s));
out.explain_us = await time((d, r, s) => y.explain(d, r, s), { clear: () => y.clearTurns() });
const v = await advisors.yahtzee("hasbro", { policy: false });
out.values_only_us = await time((d, r, s) => v.decide(d, r, s), { clear: () => v.clearTurns() });

const race = situations.dicerace;
if (race) {
  for (const mode of ["sequential", "simultaneous"]) {
    const adv = await advisors.dicerace({ dice: race.dice, target: race.target, mode });
    for (const [a, b] of race.scores) await adv.decide(a, b);
    const samples = [];
    for (let round = 0; round < rounds; round++) {
      for (const [a, b] of race.scores) {
        const t = performance.now();
        await adv.decide(a, b);
        samples.push((performance.now() - t) * 1000);
      }
    }
    out[mode === "sequential" ? "race_seq_us" : "race_sim_us"] = stats(samples);
  }
}
console.log(JSON.stringify(out));
