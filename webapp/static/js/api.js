// What every view shares: the JSON API call (every error is application/problem+json with one `detail`
// string, docs/web.md "Errors"), number formatting, and a small DOM helper.
export const $ = (id) => document.getElementById(id);

export async function api(path, body) {
  const r = await fetch("/api/" + path, body === undefined ? {} :
    {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await r.json();
  if (!r.ok) throw new Error(data.detail || data.title || `HTTP ${r.status}`);
  return data;
}

export const fmt = (x, n = 4) => Number(x).toFixed(n);
