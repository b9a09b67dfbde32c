"""``dicetables verify`` without aborting or hanging: each artifact is checked in a worker process under
a time limit.

Why a process: some damaged HDF5 files (e.g. a flipped length byte of the metadata attribute) make the
HDF5 library loop forever inside one C call, which no Python-level timeout can interrupt; a worker can
be killed. One worker serves every artifact (imports are paid once) and is replaced after a timeout.
Protocol: the parent writes one path per line; the worker answers one JSON list of problems per line.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from lookup.store import meta_sha256, read_meta

DEFAULT_TIMEOUT_S = 300.0


class _Worker:
    def __init__(self) -> None:
        root = str(Path(__file__).resolve().parent.parent)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        self.proc = subprocess.Popen([sys.executable, "-m", "pipeline.verify"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)

    def ask(self, path: Path, timeout: float) -> list[str] | None:
        """The problems of ``path``, or None when the worker did not answer within ``timeout`` s (or died)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(str(path) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return None
        line = _readline(self.proc.stdout, timeout)
        if not line:
            return None
        try:
            problems = json.loads(line)
        except ValueError:
            return None
        return problems if isinstance(problems, list) else None

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def _readline(stream: IO[str], timeout: float) -> str:
    deadline = time.monotonic() + timeout
    chunks = []
    fd = stream.fileno()
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return ""
        data = os.read(fd, 65536).decode()
        if not data:
            return ""
        chunks.append(data)
        if data.endswith("\n"):
            return "".join(chunks)


def verify_paths(paths: Iterable[Path], timeout: float = DEFAULT_TIMEOUT_S,
                 expected: dict[Path, dict] | None = None) -> Iterator[tuple[Path, list[str]]]:
    """(path, problems) for every path, in order; problems is empty when the artifact is intact and (when
    ``expected`` has a manifest entry for it) its metadata equals the manifest's."""
    worker: _Worker | None = None
    try:
        for path in paths:
            worker = worker or _Worker()
            problems = worker.ask(path, timeout)
            if problems is None:
                worker.kill()
                worker = None
                problems = [f"verification did not finish within {timeout:g} s or its worker died (a damaged "
                            "file can make the HDF5 library loop or abort); treat it as corrupted"]
            elif not problems and expected and path in expected:
                problems = _manifest_problems(path, expected[path])
            yield path, [str(p) for p in problems]
    finally:
        if worker is not None:
            worker.close()


def _manifest_problems(path: Path, entry: dict) -> list[str]:
    meta = read_meta(path)  # already verified by the worker: reading it again cannot hang
    problems = []
    if meta["fingerprint"] != entry["fingerprint"]:
        problems.append("fingerprint differs from MANIFEST.json (stale manifest?)")
    if meta_sha256(meta) != entry["meta_sha256"]:
        problems.append("metadata differs from MANIFEST.json (stale manifest?)")
    for name, arr in entry["arrays"].items():
        if meta["arrays"].get(name, {}).get("sha256") != arr["sha256"]:
            problems.append(f"array {name!r}: sha256 differs from MANIFEST.json")
    return problems


def _serve() -> None:
    from lookup.store import verify_problems

    for line in sys.stdin:
        try:
            problems = verify_problems(Path(line.rstrip("\n")))
        except Exception as exc:  # never let one artifact end the run
            problems = [f"verification failed ({type(exc).__name__}: {exc})"]
        sys.stdout.write(json.dumps(problems) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    _serve()
