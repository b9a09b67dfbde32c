"""What heavy and hostile clients cost a decide on `dicetables serve` (docs/web.md, "Limits").

Starts the server (one worker, loopback, a free port) on the project's artifacts (hasbro tables needed),
times sequential decide requests alone, then again while two client processes loop on coach and explain
(~60 and ~25 ms of CPU each) and 10 MB bodies (413), and 20 connections hold half-sent bodies (408 after
10 s). Prints the decide latency of both phases and how many half-sent bodies got their 408.

    python benchmarks/serve_stall.py [--decides 300]

BENCH_QUICK=1 (what `make test` runs, tests/test_benchmarks.py): 10 decides per phase, one heavy client, and no
half-sent bodies (their 408 comes after the 10 s body deadline).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))

import aiohttp  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
TURN = {"dice": [1, 3, 3, 5, 6], "rerolls": 2, "sheet": {"ones": 3, "chance": 22}}
HALF_BODY = (b"POST /api/yahtzee/hasbro/value HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             b"Content-Length: 100\r\n\r\n{")


async def decides(session: aiohttp.ClientSession, url: str, n: int) -> list[float]:
    """Milliseconds of ``n`` decide requests, one after the other."""
    out = []
    for _ in range(n):
        start = time.perf_counter()
        async with session.post(url + "/api/yahtzee/hasbro/decide", json=TURN) as r:
            assert r.status == 200, r.status
            await r.read()
        out.append((time.perf_counter() - start) * 1e3)
    return out


def heavy_client(url: str) -> None:
    """A client process: coach, explain and a 10 MB body, for ever (terminated by the parent)."""

    async def run() -> None:
        async with aiohttp.ClientSession() as s:
            while True:
                for route in ("coach", "explain"):
                    async with s.post(url + f"/api/yahtzee/hasbro/{route}", json=TURN) as r:
                        await r.read()
                async with s.post(url + "/api/yahtzee/hasbro/value", data=b"x" * (10 << 20),
                                  headers={"content-type": "application/json"}) as r:
                    assert r.status == 413, r.status

    asyncio.run(run())


def summary(name: str, ms: list[float]) -> str:
    ordered = sorted(ms)
    return (f"{name}: decides={len(ms)} p50_ms={statistics.median(ms):.2f} "
            f"p99_ms={ordered[int(0.99 * (len(ms) - 1))]:.2f} max_ms={ordered[-1]:.2f}")


async def measure(url: str, port: int, n: int) -> None:
    async with aiohttp.ClientSession() as session:
        await decides(session, url, 5 if QUICK else 50)  # tables loaded, sheet state cached
        alone = await decides(session, url, n)
        clients = [multiprocessing.Process(target=heavy_client, args=(url,), daemon=True)
                   for _ in range(1 if QUICK else 2)]
        for p in clients:
            p.start()
        held = []
        for _ in range(0 if QUICK else 20):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(HALF_BODY)
            held.append((reader, writer))
        await asyncio.sleep(1.0)
        beside = await decides(session, url, n)
        for p in clients:
            p.terminate()
        answers = [await reader.read(200) for reader, _ in held]
    print(summary("decide alone", alone))
    print(summary(f"decide beside {len(clients)} processes of coach/explain/10 MB bodies and {len(held)} half-sent "
                  "bodies", beside))
    print(f"half-sent bodies answered 408: {sum(a.startswith(b'HTTP/1.1 408') for a in answers)} of {len(answers)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decides", type=int, default=10 if QUICK else 300)
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = str(Path(sys.executable).parent / "dicetables")
    server = subprocess.Popen([command, "serve", "--port", str(port)], cwd=ROOT, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        asyncio.run(measure(f"http://127.0.0.1:{port}", port, args.decides))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
