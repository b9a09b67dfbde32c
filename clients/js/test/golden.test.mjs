// The JavaScript advisor against Python's answers: every situation of a golden file (tests/js_golden.py) answered
// again here and compared, value for value (floats exactly: the turn is computed with the same operations in the same
// order as numpy).
//
//   DICETABLES_GOLDEN=/tmp/golden.jsonl.gz node --test test/   # a golden file written by tests/js_golden.py
//   node --test test/                                          # the committed sample, over ../../artifacts
//
// DICETABLES_GOLDEN_ARTIFACTS overrides the artifacts directory named in the file's header (a relative one is taken
// from the repository's root); DICETABLES_GOLDEN_REPORT names a JSON file to write the counts checked per table to.

import assert from "node:assert/strict";
import { createReadStream, existsSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import test from "node:test";
import { fileURLToPath } from "node:url";
import { createGunzip } from "node:zlib";

import { openDirectory } from "../src/node.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "..", "..", "..");
const GOLDEN = process.env.DICETABLES_GOLDEN ?? join(HERE, "golden-sample.jsonl.gz");
const SHOWN = 10; // mismatches shown per table

async function* lines(path) {
  const rl = createInterface({ input: createReadStream(path).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of rl) if (line) yield JSON.parse(line);
}

async function header(path) {
  for await (const h of lines(path)) return h;
}

async function outcome(promise) {
  try {
    return { value: await promise };
  } catch (e) {
    return { error: e };
  }
}

function differs(got, want) {
  try {
    assert.deepStrictEqual(got, want);
    return null;
  } catch (e) {
    return e.message.split("\n").slice(0, 40).join("\n");
  }
}

/** Each situation answered by the JavaScript advisor: a list of problems (empty when every answer equals Python's). */
async function check(advisors, rec) {
  const problems = [];
  const expect = async (what, promise, want, wantError) => {
    const got = await outcome(promise);
    if (wantError !== undefined) {
      if (got.error === undefined) problems.push(`${what}: Python refused (${wantError}), JavaScript answered ${JSON.stringify(got.value)}`);
    } else if (got.error !== undefined) {
      problems.push(`${what}: JavaScript refused (${got.error.stack}), Python answered ${JSON.stringify(want)}`);
    } else {
      const d = differs(got.value, want);
      if (d) problems.push(`${what}: ${d}`);
    }
  };
  if (rec.t === "yahtzee") {
    const y = await advisors.yahtzee(rec.rules);
    await expect("decide", y.decide(rec.dice, rec.rerolls, rec.sheet), rec.decide, rec.error);
    await expect("explain", y.explain(rec.dice, rec.rerolls, rec.sheet), rec.explain, rec.error);
    await expect("value", y.value(rec.sheet), rec.value, rec.value_error);
    if (y.policy !== null) { // the same actions from the turn computed from the values alone
      const v = await advisors.yahtzee(rec.rules, { policy: false });
      await expect("decide (values only)", v.decide(rec.dice, rec.rerolls, rec.sheet), rec.decide, rec.error);
    }
  } else if (rec.t === "dicerace") {
    const game = { dice: rec.dice, target: rec.target, mode: rec.mode };
    const race = await outcome(advisors.dicerace(game));
    if (race.error !== undefined) {
      if (rec.error === undefined) problems.push(`open: JavaScript refused (${race.error.message}), Python answered`);
      return problems;
    }
    const random = () => rec.u;
    await expect("decide", race.value.decide(rec.my, rec.other, { random }), rec.decide, rec.error);
    await expect("strategy", race.value.strategy(rec.my, rec.other), rec.strategy, rec.error);
  } else {
    problems.push(`unknown situation kind ${rec.t}`);
  }
  return problems;
}

const head = existsSync(GOLDEN) ? await header(GOLDEN) : null;
let artifactsDir = process.env.DICETABLES_GOLDEN_ARTIFACTS ?? head?.artifacts;
if (artifactsDir && !isAbsolute(artifactsDir)) artifactsDir = join(REPO, artifactsDir);
const skip = head === null ? `no golden file ${GOLDEN}` : !existsSync(artifactsDir) ? `no artifacts at ${artifactsDir}` : false;

test("every answer of the JavaScript advisor equals Python's", { skip }, async (t) => {
  const advisors = await openDirectory(artifactsDir);
  const other = [];
  for (const [name, fingerprint] of Object.entries(head.fingerprints ?? {})) {
    const meta = await advisors.artifacts.metadata(name).catch(() => null);
    if (meta?.fingerprint !== fingerprint) other.push(name);
  }
  if (other.length) { // answers read from other tables would differ: the committed sample is skipped, a file fails
    const why = `${artifactsDir} holds other tables than ${GOLDEN} was written from: ${other.join(", ")}`;
    if (process.env.DICETABLES_GOLDEN) assert.fail(why);
    t.skip(why);
    return;
  }
  const counts = {};
  const refused = {};
  const mismatches = {};
  const shown = [];
  let first = true;
  for await (const rec of lines(GOLDEN)) {
    if (first) {
      first = false;
      continue;
    }
    counts[rec.table] = (counts[rec.table] ?? 0) + 1;
    if (rec.error !== undefined) refused[rec.table] = (refused[rec.table] ?? 0) + 1;
    const problems = await check(advisors, rec);
    if (problems.length) {
      mismatches[rec.table] = (mismatches[rec.table] ?? 0) + 1;
      if ((mismatches[rec.table] ?? 0) <= SHOWN) shown.push(`${JSON.stringify(rec).slice(0, 400)}\n  ${problems.join("\n  ")}`);
    }
  }
  const report = { golden: GOLDEN, artifacts: artifactsDir, counts, refused, mismatches };
  if (process.env.DICETABLES_GOLDEN_REPORT) writeFileSync(process.env.DICETABLES_GOLDEN_REPORT, JSON.stringify(report));
  for (const [table, n] of Object.entries(counts)) {
    t.diagnostic(`${table}: ${n} situations (${refused[table] ?? 0} refused by both), ${mismatches[table] ?? 0} differ`);
  }
  assert.deepStrictEqual(counts, head.counts, "every situation of the file was checked");
  assert.equal(Object.keys(mismatches).length, 0, `answers differ from Python's:\n${shown.join("\n")}`);
});
