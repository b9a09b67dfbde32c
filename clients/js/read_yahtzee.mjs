// Read the Yahtzee value table of a dicetables artifact from Node, with zarrita (a Zarr v3 implementation).
// Checks what docs/artifacts.md asks of a reader: schema and version, the array's sha256 over its raw
// C-order little-endian bytes (zarrita's crc32c codec strips the checksum without checking it: the sha256 of
// the whole array is what catches an altered byte here; src/artifact.mjs checks every chunk), then prints
// value(start) = the expected final score of a game under optimal play.
//   node read_yahtzee.mjs ARTIFACTS/yahtzee-hasbro-values.zarr
import { createHash } from "node:crypto";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";

const SCHEMA = "yahtzee.values";
const VERSIONS = [1];

async function main(path) {
  const store = new FileSystemStore(path);
  const root = await zarr.open(store, { kind: "group" });
  const meta = root.attrs.dicetables;
  if (!meta || meta.schema !== SCHEMA) throw new Error(`${path}: schema ${meta && meta.schema}, expected ${SCHEMA}`);
  if (!VERSIONS.includes(meta.schema_version)) throw new Error(`${path}: schema version ${meta.schema_version} not readable`);
  const arr = await zarr.open(root.resolve("value"), { kind: "array" });
  const { data, shape } = await zarr.get(arr);
  if (JSON.stringify(shape) !== JSON.stringify(meta.arrays.value.shape)) throw new Error(`shape ${shape} differs from metadata`);
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength); // x86/ARM: already little-endian
  const sha = createHash("sha256").update(bytes).digest("hex");
  if (sha !== meta.arrays.value.sha256) throw new Error(`value: sha256 ${sha} differs from ${meta.arrays.value.sha256}`);
  // value[filled_mask = 0, upper = 0, ybox = 0]: C order, so flat index 0.
  console.log(`rules ${meta.rules.name}, schema ${meta.schema} v${meta.schema_version}, sha256 ok`);
  console.log(`value(start) = ${data[0].toFixed(7)}`);
}

main(process.argv[2]).catch((e) => { console.error(`error: ${e.message}`); process.exit(1); });
