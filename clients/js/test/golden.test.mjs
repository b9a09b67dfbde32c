// The JavaScript advisor against Python's answers: every situation of a golden file (tests/js_golden.py) answered
// again here and compared, value for value (floats exactly: the turn is computed with the same operations in the same
// order as numpy). The comparison is test/check.mjs.
//
//   DICETABLES_GOLDEN=/tmp/golden.jsonl.gz npm test   # a golden file written by tests/js_golden.py
//   npm test                                          # the committed sample, over ../../artifacts
//
// DICETABLES_GOLDEN_ARTIFACTS overrides the artifacts directory named in the file's header (a relative one is taken
// from the repository's root); DICETABLES_GOLDEN_REPORT names a JSON file to write the counts checked per table to;
// DICETABLES_GOLDEN_CACHE_BYTES bounds the decoded chunks kept (a small cache: chunks evicted and read again all along).

import assert from "node:assert/strict";
import { createReadStream, existsSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import test from "node:test";
import { fileURLToPath } from "node:url";
import { createGunzip } from "node:zlib";

import { openDirectory } from "../src/node.mjs";
import { check } from "./check.mjs";

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

const head = existsSync(GOLDEN) ? await header(GOLDEN) : null;
let artifactsDir = process.env.DICETABLES_GOLDEN_ARTIFACTS ?? head?.artifacts;
if (artifactsDir && !isAbsolute(artifactsDir)) artifactsDir = join(REPO, artifactsDir);
const skip = head === null ? `no golden file ${GOLDEN}` : !existsSync(artifactsDir) ? `no artifacts at ${artifactsDir}` : false;

test("every answer of the JavaScript advisor equals Python's", { skip }, async (t) => {
  const cacheBytes = Number(process.env.DICETABLES_GOLDEN_CACHE_BYTES ?? 256 << 20);
  const advisors = await openDirectory(artifactsDir, { cacheBytes });
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
