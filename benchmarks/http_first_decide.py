"""A fresh process's first Yahtzee decide over HTTP (``DICETABLES_ARTIFACTS=http://...``: lookup/remote.py).

Serves the artifacts directory (``$DICETABLES_ARTIFACTS`` or the project's ``artifacts/``; the hasbro tables are
needed) with tests/range_server.py on localhost. Then N fresh Python processes, each with an empty disk cache
(its own ``XDG_CACHE_HOME``), import ``lookup.yahtzee`` and answer one ``decide``: the whole process is timed,
interpreter start included (as benchmarks/first_answer.py does), and the server counts the requests and body
bytes it sent. Then the same with the disk cache a previous process left (warm), and with the manifest pinned
too (``DICETABLES_MANIFEST_SHA256``: then it is read from the cache); the same decide read from the directory
itself (local); and the first decide again with the server waiting 20 ms before every answer (a
distant server's round trip). Every answer must equal the local one.

BENCH_QUICK=1 (what `make test` runs, tests/test_benchmarks.py): one run of each. Last line: ``http_first_decide
cold_s=<median wall> cold_cpu_s=<median user + sys> cold_requests=<n> cold_bytes=<n> warm_s=<> warm_cpu_s=<>
warm_requests=<n> warm_bytes=<n> pinned_s=<> pinned_requests=<n> pinned_bytes=<n> local_s=<> local_cpu_s=<>
delayed_s=<> table_bytes=<the hasbro values and policy stores> manifest_bytes=<n> load=<1-min>``.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lookup.store import default_artifacts_dir  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
RUNS = 1 if QUICK else 7
DELAY = 0.02
FIRST = """
import json
from lookup.yahtzee import decide
print(json.dumps(decide([1, 3, 3, 5, 6], 2, {"ones": 3}, "hasbro").as_dict()))
"""


class Server:
    def __init__(self, root: Path, *flags: str) -> None:
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "range_server.py"), str(root), *flags],
                                     stdout=subprocess.PIPE, text=True)
        self.url = f"http://127.0.0.1:{int(self.proc.stdout.readline())}/"

    def stats(self) -> dict[str, int]:
        with urllib.request.urlopen(self.url + "__stats__", timeout=10) as answer:
            return json.loads(answer.read())

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


def fresh(artifacts: str, cache: Path, **more: str) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds, answer) of one fresh interpreter answering ``FIRST`` (``more``: environment
    variables). The CPU time (user + sys, from ``wait4``) is what a busy machine's load changes least."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DICETABLES_")}
    env.update(DICETABLES_ARTIFACTS=artifacts, XDG_CACHE_HOME=str(cache), PYTHONPATH=str(ROOT), **more)
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", FIRST], cwd=ROOT, env=env, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode:
            raise SystemExit(f"the fresh process failed:\n{err.read()}")
        return wall, usage.ru_utime + usage.ru_stime, json.loads(out.read())


def timed(server: Server, runs: int, cache: Path | None, local: dict,
          **more: str) -> tuple[float, float, int, int]:
    """(median wall seconds, median CPU seconds, requests, bytes per run) of ``runs`` fresh processes over
    ``server``: each with an empty cache, or all with ``cache`` (filled beforehand)."""
    walls, cpus, counts = [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as empty:
            before = server.stats()
            wall, cpu, answer = fresh(server.url, cache or Path(empty), **more)
            after = server.stats()
        assert answer == local, (answer, local)
        walls.append(wall)
        cpus.append(cpu)
        counts.append((after["requests"] - before["requests"], after["bytes"] - before["bytes"]))
    assert len(set(counts)) == 1, counts  # every run fetches the same
    return statistics.median(walls), statistics.median(cpus), *counts[0]


def main() -> None:
    root = default_artifacts_dir()
    if not (root / "yahtzee-hasbro-policy.zarr").exists():
        print(f"{root}: the hasbro tables are not built (make run): nothing measured")
        return
    tables = sum(p.stat().st_size for name in ("values", "policy")
                 for p in (root / f"yahtzee-hasbro-{name}.zarr").rglob("*") if p.is_file())
    manifest = (root / "MANIFEST.json").stat().st_size
    local_runs, local = [], None
    for _ in range(RUNS):
        wall, cpu, answer = fresh(str(root), Path("/nonexistent"))
        local_runs.append((wall, cpu))
        local = answer if local is None else local
        assert answer == local
    local_s, local_cpu = (statistics.median(x) for x in zip(*local_runs, strict=True))
    print(f"local: fresh process, first decide from the directory: median {local_s:.3f} s ({local_cpu:.3f} CPU-s) "
          f"over {RUNS} runs")
    server = Server(root)
    try:
        cold = timed(server, RUNS, None, local)
        print(f"http, empty cache: median {cold[0]:.3f} s ({cold[1]:.3f} CPU-s), {cold[2]} requests, {cold[3]} bytes "
              f"fetched ({100 * cold[3] / tables:.1f} % of the {tables} bytes of the hasbro values and policy "
              f"stores; the manifest is {manifest} bytes)")
        with tempfile.TemporaryDirectory() as kept:
            fresh(server.url, Path(kept))
            warm = timed(server, RUNS, Path(kept), local)
        print(f"http, disk cache of a previous run: median {warm[0]:.3f} s ({warm[1]:.3f} CPU-s), {warm[2]} requests, "
              f"{warm[3]} bytes")
        pin = hashlib.sha256((root / "MANIFEST.json").read_bytes()).hexdigest()
        with tempfile.TemporaryDirectory() as kept:
            fresh(server.url, Path(kept), DICETABLES_MANIFEST_SHA256=pin)
            pinned = timed(server, RUNS, Path(kept), local, DICETABLES_MANIFEST_SHA256=pin)
        print(f"http, the same with the manifest pinned (read from the cache): median {pinned[0]:.3f} s "
              f"({pinned[1]:.3f} CPU-s), {pinned[2]} requests, {pinned[3]} bytes")
    finally:
        server.stop()
    slow = Server(root, "--delay", str(DELAY))
    try:
        delayed = timed(slow, RUNS, None, local)
    finally:
        slow.stop()
    print(f"http, empty cache, the server waiting {DELAY * 1e3:.0f} ms before each answer: median {delayed[0]:.3f} s")
    print(f"http_first_decide cold_s={cold[0]:.3f} cold_cpu_s={cold[1]:.3f} cold_requests={cold[2]} "
          f"cold_bytes={cold[3]} warm_s={warm[0]:.3f} warm_cpu_s={warm[1]:.3f} warm_requests={warm[2]} "
          f"warm_bytes={warm[3]} pinned_s={pinned[0]:.3f} pinned_requests={pinned[2]} pinned_bytes={pinned[3]} "
          f"local_s={local_s:.3f} local_cpu_s={local_cpu:.3f} delayed_s={delayed[0]:.3f} table_bytes={tables} "
          f"manifest_bytes={manifest} load={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
