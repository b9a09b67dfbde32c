"""The `dicetables` console script: the command (pipeline.cli) when its install layer is there, else a message.

The core install (`pip install .`) is the query library only; the command needs the `build` extra (and
`dicetables serve` the `serve` extra). Without them this says so instead of a ModuleNotFoundError traceback.
"""

from __future__ import annotations

import importlib.util
import sys

# Top-level modules of each extra -> the extra that brings them.
EXTRAS = dict.fromkeys(("numba", "scipy", "dask", "distributed", "click", "rich", "matplotlib", "dvc", "yaml"),
                       "build")
EXTRAS.update(dict.fromkeys(("fastapi", "starlette", "uvicorn", "httptools", "uvloop", "orjson"), "serve"))


def _needs(extra: str, what: str = "the dicetables command") -> str:
    return f"{what} needs the {extra} extra: pip install 'dicetables[{extra}]'"


def main() -> None:
    if importlib.util.find_spec("click") is None:
        sys.exit(_needs("build"))
    try:
        from pipeline.cli import main as command

        command()
    except ModuleNotFoundError as exc:  # a lazily imported package of an extra that is not installed
        extra = EXTRAS.get((exc.name or "").partition(".")[0])
        if extra is None:
            raise
        sys.exit(_needs(extra, f"this command (it imports {exc.name})"))
