// What every view shares: the JSON API call (every error is application/problem+json with one `detail`
// string, docs/web.md "Errors"), number formatting, counts with their nouns, a small DOM helper, a view's own style sheet, and a game
// record saved to a file and read back.
export const $ = (id) => document.getElementById(id);

export async function api(path, body) {
  const r = await fetch("/api/" + path, body === undefined ? {} :
    {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await r.json();
  if (!r.ok) throw new Error(data.detail || data.title || `HTTP ${r.status}`);
  return data;
}

export const fmt = (x, n = 4) => Number(x).toFixed(n);

// A count and its noun, singular for exactly 1 ("1 die", "3 dice", "2,000 deals"): lookup/words.py's `counted`,
// the same rule for the page as for the library's and the command line's text.
const IRREGULAR = {die: "dice", box: "boxes"};
export const counted = (n, noun, plural) =>
  `${Number(n).toLocaleString("en")} ${Math.abs(n) === 1 ? noun : plural ?? IRREGULAR[noun] ?? noun + "s"}`;

// The style sheet static/<name>.css of a view, linked once (a view brings its own: index.html lists no game);
// resolves when it has loaded.
export function stylesheet(name) {
  if (document.querySelector(`link[data-view="${name}"]`)) return Promise.resolve();
  const link = Object.assign(document.createElement("link"), {rel: "stylesheet", href: `/static/${name}.css`});
  link.dataset.view = name;
  const loaded = new Promise((resolve) => { link.onload = link.onerror = resolve; });
  document.head.append(link);
  return loaded;
}

// A game record (lookup/records.py: the JSON of the command line's --record) downloaded as a file.
export function saveRecord(record) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], {type: "application/json"}));
  const a = Object.assign(document.createElement("a"), {href: url, download: `${record.game}-record.json`});
  a.click();
  // The browser reads the blob after the click returns, later still on a busy machine: revoking it after a second
  // lost some downloads; a minute keeps one record's bytes (kilobytes) that long.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// The record in a file the player chose (an <input type="file">): its JSON, or an error saying it is not JSON.
export async function readRecord(file) {
  try { return JSON.parse(await file.text()); } catch (e) { throw new Error(`${file.name}: not a JSON game record (${e.message})`); }
}
