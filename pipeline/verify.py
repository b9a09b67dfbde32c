"""``dicetables verify`` without aborting or hanging: each artifact is checked in a worker process under
a time limit, and a whole artifacts directory is checked as it is on disk (``check_directory``).

Why a process: some damaged HDF5 files (e.g. a flipped length byte of the metadata attribute) make the
HDF5 library loop forever inside one C call, which no Python-level timeout can interrupt; a worker can
be killed. One worker serves every artifact (imports are paid once) and is replaced after a timeout.
Protocol: the parent writes one JSON line per artifact, ``[path, trust]``; the worker answers one JSON list of
problems per line. Before any library opens an artifact, ``pipeline.store.disk_problems`` checks what is there
without following a symlink or reading anything but bounded regular files: a symlink, a FIFO or a device in
place of a file is a problem, never a hang. Then ``lookup.store.verify_problems`` makes every check a reader
makes, held to ``MANIFEST.json`` as a reader is (``trust``): one meaning of valid.
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

from lookup.store import MANIFEST_NAME, ArtifactError, load_manifest, trust_mode
from pipeline.store import artifact_paths, disk_problems, find_leftovers

DEFAULT_TIMEOUT_S = 300.0


class _Worker:
    def __init__(self) -> None:
        root = str(Path(__file__).resolve().parent.parent)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        # In the project's directory: ``-m`` puts the working directory first on the path, and another checkout
        # there must not answer for this one.
        self.proc = subprocess.Popen([sys.executable, "-m", "pipeline.verify"], stdin=subprocess.PIPE, cwd=root,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)

    def ask(self, path: Path, trust: str, timeout: float) -> list[str] | None:
        """The problems of ``path`` (held to the manifest unless ``trust`` is ``"artifact"``), or None when the
        worker did not answer within ``timeout`` s (or died)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(json.dumps([str(path), trust]) + "\n")
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


def verify_paths(paths: Iterable[Path], timeout: float = DEFAULT_TIMEOUT_S, trust: str | None = None,
                 unlisted: Iterable[Path] = (),
                 known: dict[Path, list[str]] | None = None) -> Iterator[tuple[Path, list[str]]]:
    """(path, problems) for every path, in order; problems is empty when the artifact passes every check a
    reader makes, held to the ``MANIFEST.json`` beside it unless ``trust`` (default ``$DICETABLES_TRUST``) is
    ``"artifact"`` (and for the paths of ``unlisted``, which the caller reports as not in the manifest). A path
    in ``known`` is not examined: its problems are those given."""
    mode = trust_mode(trust)
    unlisted = set(unlisted)
    worker: _Worker | None = None
    try:
        for path in paths:
            if known and path in known:
                yield path, known[path]
                continue
            worker = worker or _Worker()
            problems = worker.ask(path, "artifact" if path in unlisted else mode, timeout)
            if problems is None:
                worker.kill()
                worker = None
                problems = [f"verification did not finish within {timeout:g} s or its worker died (a damaged "
                            "file can make the HDF5 library loop or abort); treat it as corrupted"]
            yield path, [str(p) for p in problems]
    finally:
        if worker is not None:
            worker.close()


def check_directory(root: Path, timeout: float = DEFAULT_TIMEOUT_S) -> Iterator[tuple[Path, list[str]]]:
    """(path, problems) for everything ``dicetables verify`` reports on the artifacts directory ``root``,
    as it is on disk, not only as the manifest lists it:

    - ``MANIFEST.json`` when it is missing or malformed (then the artifacts on disk are still checked);
    - every artifact the manifest lists or that is on disk (``NAME.zarr`` / ``NAME.h5``), in name order:
      one listed but absent, one present but not listed (checked against its own metadata checksum), a
      symlink, a special file, damage of any kind, an entry of the manifest that differs from the artifact's
      metadata in any field;
    - every ``.tmp-*`` / ``.old-*`` leftover of a publish, with its size and whether its writer lives.

    Reads only: nothing is renamed or removed (``dicetables clean`` or the next build does that).
    """
    manifest = root / MANIFEST_NAME
    entries: list[dict] | None
    try:
        entries = load_manifest(root)["artifacts"]
    except ArtifactError as exc:
        yield manifest, [str(exc).removeprefix(f"{manifest}: ")]
        entries = None
    listed = {root / e["path"]: e for e in entries or []}
    on_disk = set(artifact_paths(root))
    leftovers = find_leftovers(root)
    olds = {left.name for left in leftovers if left.kind == "old" and not left.alive and not left.symlink}
    missing = {}
    for path in set(listed) - on_disk:
        if not os.path.lexists(path):
            restore = "; a dead writer's .old-* copy of it is there: `dicetables clean` renames it back" \
                if path.name in olds else ""
            missing[path] = [f"listed in {MANIFEST_NAME} but missing{restore}"]
    unlisted = on_disk - set(listed) if entries is not None else on_disk
    for path, problems in verify_paths(sorted(set(listed) | on_disk), timeout, "manifest", unlisted, missing):
        if entries is not None and path not in listed:
            problems = [f"not in the manifest ({MANIFEST_NAME} does not list it: not built by this pipeline, "
                        "or the manifest is stale)", *problems]
        yield path, problems
    for left in leftovers:
        yield left.path, [f"leftover: {left.describe()}"]


def _serve() -> None:
    from lookup.store import verify_problems

    for line in sys.stdin:
        try:
            name, trust = json.loads(line)
            path = Path(name)
            problems = disk_problems(path) or verify_problems(path, trust=trust)
        except Exception as exc:  # never let one artifact end the run
            problems = [f"verification failed ({type(exc).__name__}: {exc})"]
        sys.stdout.write(json.dumps(problems) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    _serve()
