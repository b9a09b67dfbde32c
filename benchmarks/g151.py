"""151: time to compute every default table (params.yaml: g151.variants x g151.targets), and decisions.

"All tables" = for every variant and target, the roll law plus the optimal solitaire and two-player
tables: exactly what the g151-* stages compute. Timed in one process: the first pass includes loading
the numba kernels from their cache (compiling them if the cache is empty), then REPEATS warm passes; then
one full build (compute + publish Zarr and HDF5, verified) into a temporary directory, and decide()
latency over the built tables. The LAST line is ``g151 all_tables_s=<first pass, cache loaded>``.
BENCH_QUICK=1: the variants of params.yaml to 300 points only, one warm pass, 50 decisions (what `make test` runs,
tests/test_benchmarks.py).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))

import yaml  # noqa: E402

from pipeline import registry  # noqa: E402
from pipeline.family import load_params  # noqa: E402
from pipeline.progress import set_quiet  # noqa: E402
from pipeline.store import PROJECT_ROOT  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
REPEATS = 1 if QUICK else int(os.environ.get("BENCH_REPEATS", "5"))


def all_tables(section: dict) -> float:
    """Seconds to compute every table of the section (no writing)."""
    from pipeline.g151.stage import families

    start = time.perf_counter()
    for family in families(section):
        for spec in family.artifacts(section):
            family.compute(spec, section, PROJECT_ROOT / "artifacts")  # reads nothing there
    return time.perf_counter() - start


def main() -> None:
    set_quiet(True)
    params = load_params()
    section = {**params["g151"], "targets": [300]} if QUICK else params["g151"]
    print(f"variants {section['variants']}, targets {section['targets']}")
    first = all_tables(section)
    warm = [all_tables(section) for _ in range(REPEATS)]
    print(f"all tables: first pass {first:.3f} s (kernels loaded from the numba cache), warm median "
          f"{statistics.median(warm):.4f} s ({' '.join(f'{t:.4f}' for t in warm)})")
    with tempfile.TemporaryDirectory() as tmp:
        names = [f"g151-{v}" for v in section["variants"]]
        params_path = Path(tmp) / "params.yaml"
        params_path.write_text(yaml.safe_dump({"g151": section}))
        start = time.perf_counter()
        # With its manifest, which lookup holds every artifact to (issue 37: without it, decide() refused them).
        registry.build(names, params_path=params_path, artifacts_dir=tmp)
        build_s = time.perf_counter() - start
        print(f"build (compute + publish zarr and h5, verified) of {len(names)} artifacts: {build_s:.3f} s")
        from lookup.g151 import decide

        target, top = (300, 3) if QUICK else (1000, 10)  # in points; states up to 50 * (top - 1)
        decide(600 % target, 250 % target, 900 % target, target, artifacts_dir=tmp)  # loads the tables once
        rng = __import__("numpy").random.default_rng(0)
        situations = [(int(a) * 50, int(t) * 50, int(b) * 50) for a, t, b in
                      rng.integers(0, top, (50 if QUICK else 2000, 3))]
        times = []
        for a, t, b in situations:
            s = time.perf_counter()
            decide(a, t, b, target, artifacts_dir=tmp)
            times.append(time.perf_counter() - s)
        print(f"decide() with other_banked, target {target}: median {statistics.median(times) * 1e6:.1f} us "
              f"over {len(situations)} situations")
    print(f"g151 all_tables_s={first:.3f}")


if __name__ == "__main__":
    main()
