// Verified reads of dicetables artifacts (docs/artifacts.md) through zarrita, with the checks lookup/store.py and
// lookup/chunked.py make before an answer is computed from a byte:
//
// - MANIFEST.json, the root of trust (unless trust is "artifact"): the artifact's entry must equal the fields its
//   metadata makes (lookup.store.manifest_fields), its meta_sha256 included;
// - the metadata (root attribute `dicetables`): its canonical JSON's sha256 equals `dicetables_sha256`, and its
//   shape (fingerprint, array names, sha256s, shapes, dtypes, chunk layouts, companions) is well formed;
// - identity: schema, a schema version this reader accepts, the rules (and params) asked for;
// - every array's zarr.json: exactly the shape, dtype, chunk grid, key encoding, codecs and fill value the signed
//   metadata implies (anything else is refused, not interpreted);
// - every chunk, the first time it is used: its shard index and its bytes pass their crc32c (zarrita's crc32c codec
//   only strips the 4 bytes, so the store below checks them), it is present (every chunk is written), stored in at
//   most zstd's bound of bytes, its zstd frame states the chunk's size, it decodes to that size, and the sha256 of
//   its decoded bytes inside the array equals its digest in the array's companion (`NAME.sha256`, itself read whole
//   and held to the sha256 in the metadata);
// - an array read whole: the sha256 of all its bytes equals the metadata's.
//
// Not done here (file-system checks of lookup/files.py that a browser cannot make): symlinks, FIFOs and file sizes
// before reading; the JSON size limits are checked after reading.

import * as zarr from "zarrita";

import { crc32cHolds, hex, sameBytes, sha256, storedLimit, zstdFrameSize } from "./checks.mjs";
import { canonical, parseJSON, plain, RawNumber } from "./json.mjs";

export class ArtifactError extends Error {
  constructor(message) {
    super(message);
    this.name = "ArtifactError";
  }
}

/** An artifact (or one setup of it) that is not built in this directory. */
export class NotBuiltError extends ArtifactError {
  constructor(message) {
    super(message);
    this.name = "NotBuiltError";
  }
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.+-]{0,199}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const MAX_ELEMENTS = 2 ** 48;
const MANIFEST_LIMIT = 64 << 20;
const ZARR_JSON_LIMIT = 16 << 20;
const ARRAY_JSON_LIMIT = 64 << 10;
const MANIFEST_FIELDS = ["path", "format", "schema", "schema_version", "game", "rules", "params", "fingerprint",
  "meta_sha256", "package_version", "arrays"];
const DTYPES = { int8: 1, int16: 2, int32: 4, int64: 8, uint8: 1, uint16: 2, uint32: 4, uint64: 8, float32: 4,
  float64: 8 };
const MISSING = 0xffffffffffffffffn;
export const TRUST_MODES = ["manifest", "artifact"];
const DEFAULT_CACHE_BYTES = 256 << 20;

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
  throw new Error("dicetables: this reader needs a little-endian machine (typed arrays are read as stored)");
}

const text = new TextDecoder("utf-8", { fatal: true });

function decodeJSON(bytes, where, limit) {
  if (bytes.length > limit) throw new ArtifactError(`${where}: larger than ${limit} bytes; refused`);
  try {
    return parseJSON(text.decode(bytes));
  } catch (e) {
    throw new ArtifactError(`${where}: not valid JSON (${e.message})`);
  }
}

const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x) && !(x instanceof RawNumber);
const isInt = (x) => x instanceof RawNumber && /^-?\d+$/.test(x.text);

/**
 * A store whose every range read is checked: each range zarrita reads from a shard (a chunk, or the shard index)
 * ends with the crc32c of the rest, in the artifacts' layout (checked against zarr.json before any chunk is read).
 * A chunk range must also fit zstd's bound for its array's chunk size and state that size; an index must list every
 * chunk (2^64 - 1 marks an absent one: every chunk is written). A shard file that is absent is refused.
 */
class CheckedStore {
  constructor(store) {
    this.store = store;
    this.layouts = new Map(); // array path + "/" -> { chunkBytes, nChunks, perShard }
  }

  get(key, options) {
    return this.store.get(key, options);
  }

  /** The layout of the array a shard file `key` (ARRAY/c/S/0/...) belongs to, and S. */
  layoutOf(key) {
    const at = key.lastIndexOf("/c/");
    const layout = this.layouts.get(key.slice(0, at + 1));
    if (layout === undefined) throw new ArtifactError(`${key}: not a shard of an array opened for reading`);
    return { layout, shard: Number(key.slice(at + 3).split("/")[0]) };
  }

  async getRange(key, range, options) {
    const bytes = await this.store.getRange(key, range, options);
    if (!bytes) throw new ArtifactError(`${key}: missing (every chunk is written)`);
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    // (A Node Buffer is a Uint8Array whose slice() is a view: copies are made with new Uint8Array(view).)
    if ("suffixLength" in range) {
      if (data.length !== range.suffixLength || !crc32cHolds(data)) {
        throw new ArtifactError(`${key}: the shard index fails its crc32c`);
      }
      // Chunks inside the array are all written; a last shard's places past the array's end stay empty.
      const { layout, shard } = this.layoutOf(key);
      const index = new BigUint64Array(new Uint8Array(data.subarray(0, data.length - 4)).buffer); // a copy: aligned
      for (let i = 0; i < index.length; i += 2) {
        if (index[i] === MISSING && index[i + 1] === MISSING && shard * layout.perShard + i / 2 < layout.nChunks) {
          throw new ArtifactError(`${key}: chunk ${i / 2} is missing (every chunk is written)`);
        }
      }
      return data;
    }
    const chunkBytes = this.layoutOf(key).layout.chunkBytes;
    if (range.length < 5 || range.length > storedLimit(chunkBytes)) {
      throw new ArtifactError(`${key}: the index gives a chunk ${range.length} bytes, more than the ` +
                              `${storedLimit(chunkBytes)} a chunk of ${chunkBytes} bytes can take; refused`);
    }
    if (data.length !== range.length) throw new ArtifactError(`${key}: truncated`);
    if (!crc32cHolds(data)) throw new ArtifactError(`${key}: a chunk fails its crc32c (flipped or altered bytes)`);
    const stated = zstdFrameSize(data.subarray(0, data.length - 4));
    if (stated !== chunkBytes) throw new ArtifactError(`${key}: a chunk states ${stated} bytes, not ${chunkBytes}`);
    return data;
  }
}

/** Decoded, checked chunks, at most `budget` bytes, first in first out (as lookup.chunked's cache). */
class ChunkCache {
  constructor(budget) {
    this.budget = budget;
    this.used = 0;
    this.items = new Map();
  }

  put(key, data) {
    if (this.items.has(key)) return;
    this.items.set(key, data);
    this.used += data.byteLength;
    for (const [k, v] of this.items) {
      if (this.used <= this.budget || this.items.size <= 1) break;
      this.items.delete(k);
      this.used -= v.byteLength;
    }
  }
}

let nextId = 1;

/** The canonical metadata checks of lookup.store.checked_meta; returns the list of problems. */
function metaProblems(meta) {
  const problems = [];
  const kinds = { schema: "string", schema_version: "int", game: "string", fingerprint: "string", rules: "object",
    params: "object", arrays: "object", stats: "object" };
  for (const [key, kind] of Object.entries(kinds)) {
    const v = meta[key];
    const ok = kind === "string" ? typeof v === "string" : kind === "int" ? isInt(v) : isObject(v);
    if (!ok) problems.push(`'${key}' is not a ${kind === "object" ? "dict" : kind === "int" ? "int" : "str"}`);
  }
  if (typeof meta.fingerprint === "string" && !HEX64.test(meta.fingerprint)) {
    problems.push("fingerprint is not 64 hex digits");
  }
  const arrays = isObject(meta.arrays) ? meta.arrays : {};
  for (const [name, entry] of Object.entries(arrays)) {
    if (!NAME.test(name) || name.includes("..")) problems.push(`array name '${name}' is not valid`);
    else if (!isObject(entry) || typeof entry.sha256 !== "string" || !HEX64.test(entry.sha256)) {
      problems.push(`array '${name}': no valid sha256`);
    } else if (!Array.isArray(entry.shape) || !entry.shape.every((n) => isInt(n) && +n >= 0 && +n <= MAX_ELEMENTS)) {
      problems.push(`array '${name}': shape is not a list of non-negative integers`);
    } else if (entry.shape.reduce((a, n) => a * +n, 1) > MAX_ELEMENTS) {
      problems.push(`array '${name}': more than ${MAX_ELEMENTS} elements`);
    } else if (!(entry.dtype in DTYPES)) {
      problems.push(`array '${name}': dtype ${JSON.stringify(entry.dtype)} is not one this reader reads`);
    } else {
      for (const key of ["chunks", "shards"]) {
        const v = entry[key];
        if (!Array.isArray(v) || v.length !== entry.shape.length || !v.every((n) => isInt(n) && +n >= 1)) {
          problems.push(`array '${name}': no valid '${key}'`);
        }
      }
      if (Array.isArray(entry.chunks) && Array.isArray(entry.shards) && entry.chunks.some((c, i) => +entry.shards[i] % +c)) {
        problems.push(`array '${name}': shards are not whole chunks`);
      }
      const companion = entry.chunk_sha256;
      if (companion !== undefined && companion !== null &&
          (typeof companion !== "string" || !(companion in arrays) || companion === name)) {
        problems.push(`array '${name}': its chunk digests are not an array of the artifact`);
      }
    }
  }
  return problems;
}

/** The codecs every array of an artifact has (lookup.chunked.expected_codecs). */
function expectedCodecs(dtype, chunks, level) {
  const inner = { name: "bytes" };
  if (DTYPES[dtype] > 1) inner.configuration = { endian: "little" };
  return [{ name: "sharding_indexed", configuration: {
    chunk_shape: chunks,
    codecs: [inner, { name: "zstd", configuration: { level, checksum: false } }, { name: "crc32c" }],
    index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
    index_location: "end" } }];
}

/**
 * The artifacts of one directory (a zarrita store: `@zarrita/storage/fs` in Node, `zarr.FetchStore` over HTTP),
 * held to its MANIFEST.json (trust "manifest", the default, as lookup) or each to its own metadata checksum (trust
 * "artifact", as DICETABLES_TRUST=artifact). Decoded chunks are kept up to `cacheBytes` (default 256 MiB).
 */
export class Artifacts {
  constructor(store, trust, manifest, cacheBytes) {
    this.store = new CheckedStore(store);
    this.trust = trust;
    this.manifest = manifest; // path -> raw entry, or null
    this.cache = new ChunkCache(cacheBytes);
    this.opened = new Map();
  }

  static async open(store, { trust = "manifest", cacheBytes = DEFAULT_CACHE_BYTES } = {}) {
    if (!TRUST_MODES.includes(trust)) throw new Error(`trust must be one of ${TRUST_MODES.join(", ")}, not ${trust}`);
    let manifest = null;
    if (trust === "manifest") {
      const bytes = await store.get("/MANIFEST.json");
      if (!bytes) {
        throw new ArtifactError("MANIFEST.json: no manifest; this reader holds every artifact to the manifest it was " +
                                "shipped with (open with trust: \"artifact\" to trust each artifact's own metadata " +
                                "checksum instead)");
      }
      const doc = decodeJSON(bytes, "MANIFEST.json", MANIFEST_LIMIT);
      if (!isObject(doc) || !Array.isArray(doc.artifacts) || Object.keys(doc).length !== 1) {
        throw new ArtifactError("MANIFEST.json: malformed manifest: not {\"artifacts\": [...]}");
      }
      manifest = new Map();
      doc.artifacts.forEach((entry, i) => {
        const path = isObject(entry) ? entry.path : undefined;
        if (typeof path !== "string" || !NAME.test(path) || path.includes("..") || !/\.(zarr|h5)$/.test(path)) {
          throw new ArtifactError(`MANIFEST.json: malformed manifest: entry ${i}: path is not an artifact name`);
        }
        const keys = Object.keys(entry).sort();
        if (canonical(keys) !== canonical([...MANIFEST_FIELDS].sort())) {
          throw new ArtifactError(`MANIFEST.json: malformed manifest: entry ${i}: fields ${keys} are not the format's`);
        }
        if (manifest.has(path)) throw new ArtifactError(`MANIFEST.json: malformed manifest: ${path} is listed twice`);
        manifest.set(path, entry);
      });
    }
    return new Artifacts(store, trust, manifest, cacheBytes);
  }

  /** Whether artifact NAME.zarr is present (its root zarr.json exists); existence only. */
  async has(name) {
    return (await this.store.get(`/${name}.zarr/zarr.json`)) !== undefined;
  }

  /**
   * Artifact NAME.zarr, checked: manifest entry (trust "manifest"), metadata checksum and shape, schema, a version
   * in `versions`, `rules` equal to the stored rules when given, each key of `params` equal when given.
   */
  async artifact(name, { schema, versions, rules, params } = {}) {
    const art = await this._opened(name);
    const where = `${name}.zarr`;
    if (art.meta.schema !== schema) {
      throw new ArtifactError(`${where}: schema ${JSON.stringify(art.meta.schema)}, expected ${JSON.stringify(schema)}`);
    }
    if (!versions.includes(art.meta.schema_version)) {
      throw new ArtifactError(`${where}: schema version ${art.meta.schema_version} of '${schema}' is not supported ` +
                              `(this reader reads ${JSON.stringify(versions)}); rebuild it with \`dicetables build\``);
    }
    if (rules !== undefined && canonical(art.raw.rules) !== canonical(rules)) {
      throw new ArtifactError(`${where}: built for rules ${canonical(art.raw.rules)}, asked for ${canonical(rules)}`);
    }
    for (const [key, want] of Object.entries(params ?? {})) {
      const have = isObject(art.raw.params) && key in art.raw.params ? art.raw.params[key] : "<absent>";
      if (canonical(have) !== canonical(want)) {
        throw new ArtifactError(`${where}: built with ${key}=${canonical(have)}, asked for ${key}=${canonical(want)}`);
      }
    }
    return art;
  }

  /** The checked metadata of artifact NAME.zarr (held to the manifest, its checksum and shape checked; no identity
   * asked). */
  async metadata(name) {
    return (await this._opened(name)).meta;
  }

  _opened(name) {
    if (!NAME.test(name) || name.includes("..")) {
      return Promise.reject(new ArtifactError(`artifact name ${JSON.stringify(name)} is not valid`));
    }
    let art = this.opened.get(name);
    if (art === undefined) {
      art = this._open(name);
      this.opened.set(name, art);
      art.catch(() => this.opened.delete(name));
    }
    return art;
  }

  async _open(name) {
    const where = `${name}.zarr`;
    const bytes = await this.store.get(`/${where}/zarr.json`);
    if (!bytes) throw new NotBuiltError(`${where}: not built (no zarr.json)`);
    const doc = decodeJSON(bytes, `${where}/zarr.json`, ZARR_JSON_LIMIT);
    if (!isObject(doc) || doc.node_type !== "group" || !isInt(doc.zarr_format) || +doc.zarr_format !== 3) {
      throw new ArtifactError(`${where}: zarr.json is not the root of a Zarr v3 group`);
    }
    const attrs = isObject(doc.attributes) ? doc.attributes : {};
    const raw = attrs.dicetables;
    const want = attrs.dicetables_sha256;
    if (!isObject(raw) || !("schema" in raw) || !("arrays" in raw)) {
      throw new ArtifactError(`${where}: no 'dicetables' metadata; not a dicetables artifact`);
    }
    if (typeof want !== "string") throw new ArtifactError(`${where}: metadata has no checksum 'dicetables_sha256'`);
    const metaSha = hex(await sha256(new TextEncoder().encode(canonical(raw))));
    if (metaSha !== want) throw new ArtifactError(`${where}: metadata altered: its sha256 differs from 'dicetables_sha256'`);
    const problems = metaProblems(raw);
    if (problems.length) throw new ArtifactError(`${where}: malformed metadata: ${problems.join("; ")}`);
    if (this.manifest !== null) {
      const entry = this.manifest.get(where);
      if (entry === undefined) {
        throw new ArtifactError(`${where}: not listed in MANIFEST.json (built with --no-manifest? \`dicetables ` +
                                "manifest\` lists every artifact there after verifying it)");
      }
      if (entry.meta_sha256 !== metaSha) {
        throw new ArtifactError(`${where}: its metadata differs from its entry in MANIFEST.json (altered, or the ` +
                                "manifest is of another build)");
      }
      const fields = manifestFields(where, raw, metaSha);
      const differ = MANIFEST_FIELDS.filter((k) => canonical(entry[k] ?? null) !== canonical(fields[k]));
      if (differ.length) {
        throw new ArtifactError(`${where}: its entry in MANIFEST.json differs from its metadata in ${differ} (the ` +
                                "manifest was edited, or is of another build)");
      }
    }
    return new Artifact(this, name, raw, plain(raw));
  }
}

/** lookup.store.manifest_fields: the entry an artifact's metadata makes. */
function manifestFields(path, raw, metaSha) {
  const arrays = {};
  for (const [k, v] of Object.entries(raw.arrays)) arrays[k] = { sha256: v.sha256, shape: v.shape, dtype: v.dtype };
  return { path, format: path.endsWith(".zarr") ? "zarr" : "hdf5", schema: raw.schema,
    schema_version: raw.schema_version, game: raw.game, rules: raw.rules, params: raw.params,
    fingerprint: raw.fingerprint, meta_sha256: metaSha, package_version: raw.package_version ?? null, arrays };
}

/** One checked artifact: `meta` (its metadata as plain values), `raw` (as parsed, numbers with their text). */
export class Artifact {
  constructor(artifacts, name, raw, meta) {
    this.artifacts = artifacts;
    this.name = name;
    this.raw = raw;
    this.meta = meta;
    this.arrays = new Map();
  }

  /** Array `name` (a CheckedArray), its zarr.json checked and its chunk digests read and checked. */
  async array(name) {
    let arr = this.arrays.get(name);
    if (arr === undefined) {
      arr = this._array(name);
      this.arrays.set(name, arr);
      arr.catch(() => this.arrays.delete(name));
    }
    return arr;
  }

  async _array(name) {
    const where = `${this.name}.zarr`;
    const entry = this.meta.arrays[name];
    if (entry === undefined) {
      throw new ArtifactError(`${where}: no array '${name}' (it has ${Object.keys(this.meta.arrays).sort()})`);
    }
    const path = `/${where}/${name}`;
    const store = this.artifacts.store;
    const bytes = await store.get(`${path}/zarr.json`);
    if (!bytes) throw new ArtifactError(`${where}/${name}/zarr.json: missing`);
    const doc = decodeJSON(bytes, `${where}/${name}/zarr.json`, ARRAY_JSON_LIMIT);
    if (!isObject(doc)) throw new ArtifactError(`${where}/${name}/zarr.json: not a Zarr v3 array description`);
    let level = 0;
    try {
      const l = doc.codecs[0].configuration.codecs[1].configuration.level;
      if (isInt(l) && +l >= 1 && +l <= 22) level = +l;
    } catch {
      level = 0;
    }
    const want = {
      zarr_format: 3, node_type: "array", shape: entry.shape, data_type: entry.dtype,
      chunk_grid: { name: "regular", configuration: { chunk_shape: entry.shards } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      codecs: expectedCodecs(entry.dtype, entry.chunks, level),
    };
    const got = plain(doc);
    for (const [key, value] of Object.entries(want)) {
      if (canonical(got[key] ?? null) !== canonical(value)) {
        throw new ArtifactError(`${where}/${name}/zarr.json: '${key}' is ${JSON.stringify(got[key])}, the signed ` +
                                `metadata implies ${JSON.stringify(value)}`);
      }
    }
    if (canonical(got.storage_transformers ?? []) !== "[]") {
      throw new ArtifactError(`${where}/${name}/zarr.json: storage transformers are not part of the artifact format`);
    }
    const fill = doc.fill_value;
    if (entry.dtype.startsWith("float") ? fill !== "NaN" : !isInt(fill)) {
      throw new ArtifactError(`${where}/${name}/zarr.json: fill value ${canonical(fill ?? null)} is not the format's`);
    }
    const chunks = entry.chunks;
    if (chunks.slice(1).some((c, i) => c !== entry.shape[i + 1])) {
      throw new ArtifactError(`${where}/${name}: chunks ${chunks} do not hold whole rows (the artifacts' layout)`);
    }
    let digests = null;
    if (entry.chunk_sha256 !== undefined && entry.chunk_sha256 !== null) {
      const companion = await this.array(entry.chunk_sha256);
      const whole = await companion.whole();
      digests = new Uint8Array(whole.buffer, whole.byteOffset, whole.byteLength);
    }
    const zarrArray = new zarr.Array(store, path, got);
    const arr = new CheckedArray(this.artifacts, `${where}/${name}`, zarrArray, entry, digests);
    if (digests !== null && digests.length !== arr.nChunks * 32) {
      throw new ArtifactError(`${where}/${name}: ${digests.length / 32} chunk digests for ${arr.nChunks} chunks`);
    }
    store.layouts.set(`${path}/`, { chunkBytes: arr.chunkElems * arr.itemsize, nChunks: arr.nChunks,
      perShard: entry.shards[0] / entry.chunks[0] });
    return arr;
  }
}

/**
 * One array of an artifact, read chunk by chunk (chunks hold whole rows: element i is in chunk
 * floor(i / chunkElems)), each chunk checked the first time it is used (and again when it was evicted from the
 * cache). `at(i)` is the element at C-order flat index i; `pin(indices)` holds the chunks of many for synchronous
 * reads.
 */
export class CheckedArray {
  constructor(artifacts, where, zarrArray, entry, digests) {
    this.where = where;
    this.zarr = zarrArray;
    this.cache = artifacts.cache;
    this.id = nextId++;
    this.shape = entry.shape;
    this.dtype = entry.dtype;
    this.itemsize = DTYPES[entry.dtype];
    this.sha256 = entry.sha256;
    this.size = this.shape.reduce((a, b) => a * b, 1);
    this.rowElems = this.shape.slice(1).reduce((a, b) => a * b, 1);
    this.chunkRows = entry.chunks[0] ?? 1;
    this.chunkElems = this.chunkRows * this.rowElems;
    this.nChunks = this.shape.length ? Math.ceil(this.shape[0] / this.chunkRows) : 1;
    this.digests = digests;
    this.pending = new Map();
    this.base = this.id * 2 ** 24; // cache keys: id * 2^24 + chunk (arrays of the artifacts have far fewer chunks)
    if (this.nChunks >= 2 ** 24) throw new ArtifactError(`${where}: too many chunks for this reader`);
  }

  /** Chunk k (checked), loading it when needed. */
  async chunk(k) {
    const hit = this.cache.items.get(this.base + k);
    if (hit !== undefined) return hit;
    let p = this.pending.get(k);
    if (p === undefined) {
      p = this._load(k).finally(() => this.pending.delete(k));
      this.pending.set(k, p);
    }
    return p;
  }

  async _load(k) {
    if (!(k >= 0 && k < this.nChunks)) throw new RangeError(`${this.where}: chunk ${k} outside 0..${this.nChunks - 1}`);
    const coords = this.shape.map((_, axis) => (axis === 0 ? k : 0));
    let got;
    try {
      got = await this.zarr.getChunk(coords);
    } catch (e) {
      if (e instanceof ArtifactError) throw e;
      const cause = e && e.cause instanceof ArtifactError ? e.cause : null;
      if (cause) throw cause;
      throw new ArtifactError(`${this.where}: chunk ${k} does not decode (${e && e.message})`);
    }
    const data = got.data;
    if (data.length !== this.chunkElems || data.byteLength !== this.chunkElems * this.itemsize) {
      throw new ArtifactError(`${this.where}: chunk ${k} decodes to ${data.byteLength} bytes, not ` +
                              `${this.chunkElems * this.itemsize}`);
    }
    if (this.digests !== null) {
      const rows = Math.min(this.chunkRows, this.shape[0] - k * this.chunkRows);
      const valid = new Uint8Array(data.buffer, data.byteOffset, rows * this.rowElems * this.itemsize);
      const want = this.digests.subarray(k * 32, k * 32 + 32);
      if (!sameBytes(await sha256(valid), want)) {
        throw new ArtifactError(`${this.where}: chunk ${k} does not match its sha256 in the signed metadata`);
      }
    }
    this.cache.put(this.base + k, data);
    return data;
  }

  /** The element at flat index i (0 <= i < size), its chunk loaded and checked when needed. */
  async at(i) {
    if (!(Number.isInteger(i) && i >= 0 && i < this.size)) {
      throw new RangeError(`${this.where}: flat index ${i} outside 0..${this.size - 1}`);
    }
    const k = Math.floor(i / this.chunkElems);
    const data = this.cache.items.get(this.base + k) ?? (await this.chunk(k));
    return data[i - k * this.chunkElems];
  }

  /**
   * The chunks of every flat index of `indices`, loaded (in parallel) and held: `pinned.get(i)` reads element i of
   * them whatever the cache evicts meanwhile (loading chunks can evict chunks another read found in the cache).
   */
  async pin(indices) {
    const held = new Map();
    const missing = [];
    for (const i of indices) {
      const k = Math.floor(i / this.chunkElems);
      if (held.has(k)) continue;
      const hit = this.cache.items.get(this.base + k);
      held.set(k, hit);
      if (hit === undefined) missing.push(k);
    }
    const loaded = await Promise.all(missing.map((k) => this.chunk(k)));
    missing.forEach((k, j) => held.set(k, loaded[j]));
    const per = this.chunkElems;
    return {
      get(i) {
        const k = Math.floor(i / per);
        const data = held.get(k);
        if (data === undefined) throw new RangeError(`flat index ${i}: its chunk was not pinned`);
        return data[i - k * per];
      },
    };
  }

  /** The whole array (a typed array, C order), every chunk checked, then its sha256 against the metadata. */
  async whole() {
    if (this._whole === undefined) {
      const bytes = new Uint8Array(this.size * this.itemsize);
      for (let k = 0; k < this.nChunks; k++) {
        const data = await this._load(k);
        const start = k * this.chunkElems * this.itemsize;
        const n = Math.min(this.chunkElems * this.itemsize, bytes.length - start);
        bytes.set(new Uint8Array(data.buffer, data.byteOffset, n), start);
      }
      if (hex(await sha256(bytes)) !== this.sha256) {
        throw new ArtifactError(`${this.where}: the array does not match its sha256 in the signed metadata`);
      }
      this._whole = new (typedArrayOf(this.dtype))(bytes.buffer);
    }
    return this._whole;
  }
}

function typedArrayOf(dtype) {
  return { int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array,
    uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array, float32: Float32Array,
    float64: Float64Array }[dtype];
}
