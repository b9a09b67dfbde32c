// JSON as the Python side writes and hashes it (lookup/store.py): an artifact's metadata checksum is the sha256 of
// `json.dumps(meta, sort_keys=True, separators=(",", ":"))`. JavaScript's JSON.parse forgets how a number was written
// (1.0 becomes 1), so `parseJSON` keeps every number's text (a `RawNumber`), and `canonical` writes a tree back the
// way Python's json.dumps does: keys sorted, no spaces, strings escaped as with ensure_ascii, numbers as they were
// written (Python wrote them: its repr of a float reads back to the same float and is written the same again).
// NaN, Infinity and -Infinity are accepted, as Python's json module accepts and writes them.

export class RawNumber {
  constructor(text) {
    this.text = text;
  }
  valueOf() {
    return Number(this.text);
  }
}

export const MAX_DEPTH = 64; // lookup/files.py: JSON at most 64 levels deep

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SPECIAL = ["NaN", "Infinity", "-Infinity"];

/** Parse JSON text into plain objects and arrays, each number a RawNumber (its text kept). Throws on bad JSON or
 * nesting deeper than MAX_DEPTH. */
export function parseJSON(text) {
  let i = 0;
  const fail = (what) => {
    throw new SyntaxError(`JSON: ${what} at offset ${i}`);
  };
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const string = () => {
    i++; // opening quote
    let out = "";
    let start = i;
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c < 0x20) fail("control character in string");
      if (c === 0x5c) {
        out += text.slice(start, i);
        const e = text[i + 1];
        const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" }[e];
        if (simple !== undefined) {
          out += simple;
          i += 2;
        } else if (e === "u") {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else fail("bad escape");
        start = i;
      } else i++;
    }
  };
  const value = (depth) => {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj = {};
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a key");
        const key = string();
        ws();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        Object.defineProperty(obj, key, { value: value(depth + 1), enumerable: true, writable: true,
                                          configurable: true }); // a "__proto__" key stays a key
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") {
          i++;
          return obj;
        } else fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const arr = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") {
          i++;
          return arr;
        } else fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    if (text.startsWith("true", i)) {
      i += 4;
      return true;
    }
    if (text.startsWith("false", i)) {
      i += 5;
      return false;
    }
    if (text.startsWith("null", i)) {
      i += 4;
      return null;
    }
    for (const s of SPECIAL) {
      if (text.startsWith(s, i)) {
        i += s.length;
        return new RawNumber(s);
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) fail("unexpected character");
    i += m[0].length;
    return new RawNumber(m[0]);
  };
  const out = value(1);
  ws();
  if (i !== text.length) fail("trailing characters");
  return out;
}

/** A parsed tree as plain JavaScript values (numbers as numbers). */
export function plain(tree) {
  if (tree instanceof RawNumber) return Number(tree.text);
  if (Array.isArray(tree)) return tree.map(plain);
  if (tree !== null && typeof tree === "object") {
    const out = {};
    for (const [k, v] of Object.entries(tree)) {
      Object.defineProperty(out, k, { value: plain(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return tree;
}

function quote(s) {
  // Python's json.dumps with ensure_ascii: every character outside ' '..'~' escaped.
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c >= 0x20 && c <= 0x7e) out += s[i];
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x09) out += "\\t";
    else if (c === 0x08) out += "\\b";
    else if (c === 0x0c) out += "\\f";
    else out += "\\u" + c.toString(16).padStart(4, "0"); // UTF-16 code units: surrogate pairs as Python writes them
  }
  return out + '"';
}

function byCodePoint(a, b) {
  // Python sorts str keys by code point; UTF-16 order differs only between astral and high-BMP characters.
  const x = Array.from(a, (ch) => ch.codePointAt(0));
  const y = Array.from(b, (ch) => ch.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** The canonical JSON text of a tree (parsed by parseJSON, or built of plain values: a plain number is written by
 * JavaScript's rules, so use RawNumber where Python's float text matters). */
export function canonical(tree) {
  if (tree instanceof RawNumber) return tree.text;
  if (tree === null || tree === undefined) return "null";
  if (tree === true) return "true";
  if (tree === false) return "false";
  if (typeof tree === "number") {
    if (Number.isNaN(tree)) return "NaN";
    if (!Number.isFinite(tree)) return tree > 0 ? "Infinity" : "-Infinity";
    if (!Number.isInteger(tree)) throw new TypeError("canonical: a float must be a RawNumber (Python's text)");
    return String(tree);
  }
  if (typeof tree === "string") return quote(tree);
  if (Array.isArray(tree)) return "[" + tree.map(canonical).join(",") + "]";
  const keys = Object.keys(tree).sort(byCodePoint);
  return "{" + keys.map((k) => quote(k) + ":" + canonical(tree[k])).join(",") + "}";
}

/** Plain JSON equality as Python's canonical comparison sees it (lookup.store._canonical). */
export function sameJSON(a, b) {
  return canonical(a) === canonical(b);
}
