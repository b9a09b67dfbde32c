"""dicetables producers: numba kernels, LP solving, simulation, DVC stages and the `dicetables` command."""

import hashlib
import os
import shutil
import time
from pathlib import Path

# Numba caches compiled kernels next to the project; an unwritable cache directory is an import error.
_PROJECT_ROOT = Path(__file__).resolve().parent.parent
_STAMP_LENGTH = 16


def code_stamp(root: Path = _PROJECT_ROOT) -> str:
    """A digest (16 hex digits) of every ``.py`` file of ``root/lookup`` and ``root/pipeline``.

    Numba's on-disk cache notices a change to a kernel's own file only: a kernel that reads a constant or calls a
    function of another module keeps the old compiled code when that module changes (a mutation of
    ``pipeline/dicerace/kernels.py:BUST_SCORE`` passed every test through ``sequential.py``'s cached kernels).
    Keying the cache directory by all of the code makes any change compile afresh.
    """
    digest = hashlib.sha256()
    for package in ("lookup", "pipeline"):
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:_STAMP_LENGTH]


def _numba_cache_dir(base: Path, stamp: str) -> Path:
    """``base/stamp`` (``base`` itself when it already is one: a child process inherits the variable); stamps of
    older code under ``base`` untouched for a day are removed."""
    if base.name == stamp:
        return base
    if base.is_dir() and not (base / stamp).exists():
        for old in base.iterdir():
            if (len(old.name) == _STAMP_LENGTH and old.is_dir() and not old.is_symlink()
                    and time.time() - old.stat().st_mtime > 86400):
                shutil.rmtree(old, ignore_errors=True)
    return base / stamp


os.environ["NUMBA_CACHE_DIR"] = str(_numba_cache_dir(
    Path(os.environ.get("NUMBA_CACHE_DIR") or _PROJECT_ROOT / ".numba_cache"), code_stamp()))

# Builds are byte-reproducible across x86-64 machines (tests/test_dvc.py compares a fresh build with the
# committed dvc.lock): OpenBLAS picks its kernels by CPU, and its AVX-512 and AVX2 kernels round the dot
# products, least squares and solves of the matrix-game code differently (the dice-race one-shot and
# simultaneous tables differed in their last bits between an Intel AVX-512 and an AMD machine). One kernel
# set for every machine with AVX2; set before numpy is first imported (the `dicetables` command imports
# this package first). Other architectures (aarch64) may round differently: docs/artifacts.md says so.
os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")
