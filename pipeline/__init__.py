"""dicetables producers: numba kernels, LP solving, simulation, DVC stages and the `dicetables` command."""

import os
from pathlib import Path

# Numba caches compiled kernels next to the project; an unwritable cache directory is an import error.
_PROJECT_ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("NUMBA_CACHE_DIR", str(_PROJECT_ROOT / ".numba_cache"))
