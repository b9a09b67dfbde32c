"""Load on `dicetables serve`: Yahtzee decide requests per second and latency, then many concurrent clients.

Starts the server (uvicorn, loopback only, a free port) on the project's artifacts (hasbro tables needed),
drives it with aiohttp (keep-alive connections, uvloop) over real HTTP from this process, and checks every
answer against lookup's own. Bounded: at most --requests requests in phase 1, at most --seconds s in
phase 2. The client runs on the same (shared, 2-core) machine as the server and takes about half of the
CPU, so figures are pessimistic. One server per --workers value; last lines machine readable, with the
load average beside them, and the CPU microseconds per request of the server (its processes) and of the
client (this process), which the other jobs on the machine change far less than the rate. "lost" counts
requests sent without an HTTP answer (connection errors, timeouts); "wrong" answers that are not 200 or
differ from lookup's (reroll, box and expected final score, exactly).

    python benchmarks/serve_load.py [--workers 1 2] [--requests 6000] [--clients 100] [--seconds 30]

BENCH_QUICK=1 (what `make test` runs, tests/test_benchmarks.py): one worker, 100 requests, 4 clients for 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))

import aiohttp  # noqa: E402
import httpx  # noqa: E402
import orjson  # noqa: E402
import psutil  # noqa: E402
import uvloop  # noqa: E402

from lookup.yahtzee import decide  # noqa: E402


def situations(n: int, seed: int = 1) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        sheet = {b: v for b, v in (("ones", 3), ("chance", 22), ("sixes", 24)) if rng.random() < 0.5}
        out.append({"dice": [rng.randint(1, 6) for _ in range(5)], "rerolls": rng.randint(0, 2), "sheet": sheet})
    return out


def expected(body: dict) -> tuple:
    """(reroll list or None, category or None, expected final): lookup's answer in this process."""
    d = decide(body["dice"], body["rerolls"], body["sheet"])
    return (None if d.reroll is None else list(d.reroll)), d.category, d.expected_final


JSON = {"Content-Type": "application/json"}


async def run(url: str, bodies: list[bytes], answers: list[tuple], clients: int, limit_s: float,
              max_requests: int) -> tuple[list[float], int, int]:
    """(latencies in s, wrong answers, requests without an answer) of `clients` concurrent keep-alive clients."""
    latencies: list[float] = []
    bad = errors = 0
    stop = time.perf_counter() + limit_s
    counter = iter(range(max_requests))

    async def client(http: aiohttp.ClientSession) -> None:
        nonlocal bad, errors
        for i in counter:
            if time.perf_counter() > stop:
                return
            k = i % len(bodies)
            t = time.perf_counter()
            try:
                async with http.post(url, data=bodies[k], headers=JSON) as r:
                    status, raw = r.status, await r.read()
            except (TimeoutError, aiohttp.ClientError):
                errors += 1
            else:
                try:
                    got = orjson.loads(raw)
                    ok = status == 200 and (got["reroll"], got["category"], got["expected_final"]) == answers[k]
                except (orjson.JSONDecodeError, KeyError, TypeError):
                    ok = False
                bad += not ok
            latencies.append(time.perf_counter() - t)

    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=30)) as http:
        await asyncio.gather(*(client(http) for _ in range(clients)))
    return latencies, bad, errors


def cpu_seconds(server: psutil.Process) -> tuple[float, float]:
    """(CPU seconds of the server and its worker processes, CPU seconds of this process: the client)."""
    procs = [server, *server.children(recursive=True)]
    busy = 0.0
    for proc in procs:
        try:
            t = proc.cpu_times()
            busy += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return busy, time.process_time()


def report(name: str, lat: list[float], seconds: float, bad: int, errors: int, cpu: tuple[float, float]) -> None:
    """One machine-readable line. server_us / client_us: CPU microseconds per request, which the load of
    other jobs on the machine changes much less than the rate (a server alone on a core would answer
    about 1e6 / server_us requests per second)."""
    lat = sorted(lat)
    p = lambda q: 1000 * lat[min(len(lat) - 1, int(q * len(lat)))]  # noqa: E731
    n = len(lat)
    print(f"{name} requests={n} seconds={seconds:.2f} rps={n / seconds:.0f} p50_ms={p(0.5):.2f} "
          f"p99_ms={p(0.99):.2f} wrong={bad} lost={errors} server_us={1e6 * cpu[0] / n:.0f} "
          f"client_us={1e6 * cpu[1] / n:.0f} load={os.getloadavg()[0]:.2f}", flush=True)


def main() -> None:
    quick = os.environ.get("BENCH_QUICK") == "1"
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, nargs="+", default=[1] if quick else [1, 2])
    ap.add_argument("--requests", type=int, default=100 if quick else 6000)
    ap.add_argument("--concurrency", type=int, default=4 if quick else 8)
    ap.add_argument("--clients", type=int, default=4 if quick else 100)
    ap.add_argument("--seconds", type=float, default=1.0 if quick else 30.0)
    args = ap.parse_args()
    situations_ = situations(50 if quick else 500)
    answers = [expected(b) for b in situations_]
    bodies = [orjson.dumps(b) for b in situations_]
    for workers in args.workers:
        measure(workers, args, bodies, answers)


def measure(workers: int, args: argparse.Namespace, bodies: list[bytes], answers: list[tuple]) -> None:
    """Start a server with ``workers`` processes, run both phases against it, stop it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = str(Path(sys.executable).parent / "dicetables")
    server = subprocess.Popen([command, "serve", "--port", str(port), "--workers",
                               str(workers)], cwd=ROOT, stdout=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/api/yahtzee/hasbro/decide"
        for _ in range(300):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/yahtzee/categories").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        uvloop.run(run(url, bodies, answers, 4, 20, min(400, 4 * args.requests)))  # warm up each worker's tables
        proc = psutil.Process(server.pid)
        for name, clients, limit_s, count in (
                (f"serve_decide workers={workers} concurrency={args.concurrency}", args.concurrency, 60, args.requests),
                (f"serve_clients workers={workers} clients={args.clients}", args.clients, args.seconds, 10**9)):
            cpu0, t = cpu_seconds(proc), time.perf_counter()
            lat, bad, errors = uvloop.run(run(url, bodies, answers, clients, limit_s, count))
            cpu1 = cpu_seconds(proc)
            report(name, lat, time.perf_counter() - t, bad, errors,
                   (cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
