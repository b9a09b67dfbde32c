"""Artifact store throughput: publish (write + verify + rename), verify, and a verified open.

Medians over several runs of a 64 MiB float64 array. Last line: `store write_s=.. verify_s=.. open_s=..`.
BENCH_QUICK=1: one run of a 1 MiB array (what `make test` runs, tests/test_benchmarks.py).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from lookup.store import open_artifact, verify_problems
from pipeline.store import ArtifactSpec, StoredArray, write_artifact, write_manifest

QUICK = os.environ.get("BENCH_QUICK") == "1"
RUNS = 1 if QUICK else 5


def main() -> None:
    data = np.random.default_rng(1).random((16 if QUICK else 1024, 8192))
    spec = ArtifactSpec(name="bench", schema="bench.store", schema_version=1, game="bench", rules={},
                        params={}, code=("pipeline.store",))
    writes, verifies, opens = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for _ in range(RUNS):
            t = time.perf_counter()
            write_artifact(spec, {"x": StoredArray(data, "random", chunks=(min(64, len(data)), 8192))}, root)
            writes.append(time.perf_counter() - t)
            write_manifest(root, verified=[root / "bench.zarr"])  # lookup holds artifacts to it
            t = time.perf_counter()
            assert verify_problems(root / "bench.zarr") == []
            verifies.append(time.perf_counter() - t)
            t = time.perf_counter()
            with open_artifact(root / "bench.zarr", schema="bench.store", versions=[1]) as art:
                art.read("x")
            opens.append(time.perf_counter() - t)
    mib = data.nbytes / 2**20
    w, v, o = (statistics.median(x) for x in (writes, verifies, opens))
    print(f"{mib:.0f} MiB float64, {RUNS} runs, medians: publish {w:.3f} s, verify {v:.3f} s, "
          f"verified open+read {o:.3f} s")
    print(f"store write_s={w:.4f} verify_s={v:.4f} open_s={o:.4f} mib={mib:.0f}")


if __name__ == "__main__":
    main()
