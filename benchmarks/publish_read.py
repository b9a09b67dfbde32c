"""The read-back of an in-place publish (``pipeline.store.write_zarr_in_place``) on an existing Zarr artifact.

Reads every array of ``BENCH_ARTIFACT`` (a ``NAME.zarr``, e.g. ``yahtzee-hasbro-law.zarr``) the way the publish
did before (three reads: ``sha256_of_array``, ``chunk_digests``, then verification's ``sha256_of_array`` again)
and the way it does now (one ``array_digests`` read, with 1 and with 2 threads), and checks that both give the
same checksums. ``BENCH_ARRAYS`` (comma-separated names) limits it to those arrays; companion ``*.sha256``
arrays are left out (small, read once either way). One run each (the store is large), after a first read that
brings the files into the page cache, so that every way reads the same cached files.
Last line: ``publish_read three_s=.. one_s_1thread=.. one_s_2threads=.. gib=..``. BENCH_QUICK=1 without
BENCH_ARTIFACT (what `make test` runs, tests/test_benchmarks.py): the smallest Zarr artifact of the artifacts
directory.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from lookup.store import default_artifacts_dir, sha256_of_array, zarr_module
from pipeline.layout import DIGEST_SUFFIX, chunk_digests
from pipeline.store import array_digests


def main() -> None:
    if "BENCH_ARTIFACT" not in os.environ and os.environ.get("BENCH_QUICK") == "1":
        path = min(default_artifacts_dir().glob("*.zarr"), key=lambda p: sum(f.stat().st_size for f in p.rglob("*")))
    else:
        path = Path(os.environ["BENCH_ARTIFACT"])
    zarr = zarr_module()
    group = zarr.open_group(zarr.storage.LocalStore(str(path), read_only=True), mode="r")
    wanted = set(filter(None, os.environ.get("BENCH_ARRAYS", "").split(",")))
    arrays = [(name, arr) for name, arr in sorted(group.arrays())
              if not name.endswith(DIGEST_SUFFIX) and (not wanted or name in wanted)]
    gib = sum(arr.nbytes for _, arr in arrays) / 2**30
    for _, arr in arrays:  # warm the page cache
        array_digests(arr, tuple(arr.chunks))
    t = time.perf_counter()
    before = {name: (sha256_of_array(arr), chunk_digests(arr, tuple(arr.chunks)), sha256_of_array(arr))
              for name, arr in arrays}
    three = time.perf_counter() - t
    ones = []
    for threads in (1, 2):
        t = time.perf_counter()
        after = {name: array_digests(arr, tuple(arr.chunks), threads=threads) for name, arr in arrays}
        ones.append(time.perf_counter() - t)
        for name, (sha, digests) in after.items():
            assert sha == before[name][0] == before[name][2] and np.array_equal(digests, before[name][1]), name
    print(f"{path.name}: {len(arrays)} arrays, {gib:.2f} GiB decoded; three reads (sha256, chunk digests, "
          f"verification) {three:.1f} s; one read {ones[0]:.1f} s (1 thread), {ones[1]:.1f} s (2 threads)")
    print(f"publish_read three_s={three:.2f} one_s_1thread={ones[0]:.2f} one_s_2threads={ones[1]:.2f} gib={gib:.2f}")


if __name__ == "__main__":
    main()
