"""dicetables producers: numba kernels, LP solving, simulation, DVC stages and the `dicetables` command."""

import os
from pathlib import Path

# Numba caches compiled kernels next to the project; an unwritable cache directory is an import error.
_PROJECT_ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("NUMBA_CACHE_DIR", str(_PROJECT_ROOT / ".numba_cache"))

# Builds are byte-reproducible across x86-64 machines (tests/test_dvc.py compares a fresh build with the
# committed dvc.lock): OpenBLAS picks its kernels by CPU, and its AVX-512 and AVX2 kernels round the dot
# products, least squares and solves of the matrix-game code differently (the dice-race one-shot and
# simultaneous tables differed in their last bits between an Intel AVX-512 and an AMD machine). One kernel
# set for every machine with AVX2; set before numpy is first imported (the `dicetables` command imports
# this package first). Other architectures (aarch64) may round differently: docs/artifacts.md says so.
os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")
