// The service worker of a `dicetables export-site` site: the page works offline once visited.
//
// Every same-origin GET or HEAD is answered from one cache of WHOLE files: the first request for a file (whatever
// its Range) fetches the whole file (a plain GET, no Range) and caches it under its URL; a request with a Range
// header (bytes=A-B, bytes=A-, bytes=-N) is answered 206 with that slice of the cached file. So the tables a game
// reads are cached whole the first time any part of them is read (a few MB), and every later position works offline.
// The cache's name holds the export's version: a new export replaces the old cache.
const VERSION = "__VERSION__";
const CACHE = `dicetables-site-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(["./", "./index.html"]);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key.startsWith("dicetables-site-") && key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

const loading = new Map(); // url -> Promise of null (cached) or the response not cached (not 200)
const bytes = new Map(); // url -> ArrayBuffer of a cached file already read (ranges are sliced from it)

/** The whole file at `url`: a Response (200 from the cache, or the server's answer when it is not a 200). */
async function whole(url) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(url);
  if (hit) return hit;
  let p = loading.get(url);
  if (p === undefined) {
    p = (async () => {
      const response = await fetch(url, { cache: "no-store" });
      if (response.status !== 200) return response;
      await cache.put(url, response);
      return null;
    })();
    loading.set(url, p);
    p.finally(() => loading.delete(url));
  }
  const failed = await p;
  return failed ? failed.clone() : cache.match(url);
}

async function answer(request) {
  const url = request.url.split("#")[0];
  const range = request.headers.get("Range");
  const full = await whole(url);
  if (full.status !== 200) return full;
  if (request.method === "HEAD" || range) {
    let data = bytes.get(url);
    if (data === undefined) {
      data = await full.arrayBuffer();
      if (url.includes("/artifacts/")) bytes.set(url, data);
    }
    const size = data.byteLength;
    if (request.method === "HEAD") {
      return new Response(null, { status: 200, headers: { "Content-Length": String(size) } });
    }
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    let start;
    let end;
    if (m && m[1] === "" && m[2] !== "") {
      start = Math.max(0, size - Number(m[2]));
      end = size - 1;
    } else if (m && m[1] !== "") {
      start = Number(m[1]);
      end = m[2] === "" ? size - 1 : Math.min(size - 1, Number(m[2]));
    }
    if (start === undefined || start >= size || start > end) {
      return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
    }
    return new Response(data.slice(start, end + 1), { status: 206, headers: {
      "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": String(end - start + 1),
      "Content-Type": "application/octet-stream" } });
  }
  return full;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (new URL(request.url).origin !== location.origin) return;
  if (request.method !== "GET" && request.method !== "HEAD") return;
  event.respondWith(answer(request));
});
