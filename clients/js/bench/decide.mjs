// Timing of the JavaScript advisor's answers once their chunks are read (benchmarks/js_decide.py runs it).
//
//   node bench/decide.mjs ARTIFACTS SITUATIONS.json ROUNDS
//
// SITUATIONS.json: {"yahtzee": [[dice, rerolls, sheet], ...], "dicerace": {"dice": D, "target": N, "scores":
// [[my, other], ...]} or null}. Prints one JSON object: medians, 99th percentiles, maxima in microseconds, the calls
// over 1 ms (and
// for the Yahtzee measures the mean CPU time per call, GC included: less dependent on a loaded machine) of
//   decide_us        Yahtzee decide with its turn computed afresh (turn cache cleared before each call; chunks warm)
//   decide_same_us   the same question asked twice in a row, the second timed (its turn cached)
//   explain_us       explain, turn computed afresh
//   values_only_us   decide without the policy table (the action from the turn), turn computed afresh
//   race_seq_us, race_sim_us   the dice race's decide, sequential and simultaneous
// and first_decide_ms: opening the artifacts and the first decision of this fresh process (chunks read and checked).
// Every measure runs once over every situation untimed first (chunks read and checked, the code compiled).

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
  return { median: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1], n: sorted.length,
    over_1ms: sorted.filter((x) => x > 1000).length };
}

const v = await advisors.yahtzee("hasbro", { policy: false });
// Each measure: a function of one situation that times what it measures (ms), the turn cache cleared or not.
const measures = {
  decide_us: async (d, r, s) => {
    y.clearTurns();
    const t = performance.now();
    await y.decide(d, r, s);
    return performance.now() - t;
  },
  decide_same_us: async (d, r, s) => { // asked twice in a row: the second finds its turn cached
    await y.decide(d, r, s);
    const t = performance.now();
    await y.decide(d, r, s);
    return performance.now() - t;
  },
  explain_us: async (d, r, s) => {
    y.clearTurns();
    const t = performance.now();
    await y.explain(d, r, s);
    return performance.now() - t;
  },
  values_only_us: async (d, r, s) => {
    v.clearTurns();
    const t = performance.now();
    await v.decide(d, r, s);
    return performance.now() - t;
  },
};
// Warm: every measure over every situation once, untimed (every chunk read and checked, the code compiled), then
// the rounds, the measures interleaved.
for (const fn of Object.values(measures)) for (const s of situations.yahtzee) await fn(...s);
const samples = Object.fromEntries(Object.keys(measures).map((k) => [k, []]));
const cpu = Object.fromEntries(Object.keys(measures).map((k) => [k, 0]));
for (let round = 0; round < rounds; round++) {
  for (const [name, fn] of Object.entries(measures)) {
    const c = process.cpuUsage();
    for (const s of situations.yahtzee) samples[name].push((await fn(...s)) * 1000);
    const used = process.cpuUsage(c);
    cpu[name] += used.user + used.system; // (decide_same_us: two calls each, so not reported)
  }
}
const out = { first_decide_ms: firstDecideMs };
for (const [name, xs] of Object.entries(samples)) {
  out[name] = name === "decide_same_us" ? stats(xs) : { ...stats(xs), cpu: cpu[name] / xs.length };
}

const race = situations.dicerace;
if (race) {
  for (const mode of ["sequential", "simultaneous"]) {
    const adv = await advisors.dicerace({ dice: race.dice, target: race.target, mode });
    for (let warm = 0; warm < 2; warm++) for (const [a, b] of race.scores) await adv.decide(a, b);
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
