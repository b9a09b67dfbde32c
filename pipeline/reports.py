"""What every game's report stage shares: publishing ``artifacts/reports/<game>/`` all at once, writing its
JSON, and drawing its figures in one style (matplotlib, Agg backend, no display needed).

A report is a DVC output, so equal inputs must give byte-identical files: JSON keys are sorted and PNG
files carry no software or time stamp.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pipeline.store import _remove, _replace

T = TypeVar("T")
DPI = 90  # dots per inch of every report figure unless a figure asks for another


def publish_report(out_dir: str | Path, write: Callable[[Path], T]) -> T:
    """Run ``write(tmp)`` on a temporary sibling of ``out_dir``, then rename it into place; returns what
    ``write`` returns (names inside the directory, say). A reader sees the old report or the new one, never
    half of one; if ``write`` fails, ``out_dir`` is left as it was."""
    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tag = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
    tmp = out_dir.with_name(f".tmp-{tag}-{out_dir.name}")
    try:
        tmp.mkdir()
        result = write(tmp)
        _replace(tmp, out_dir, tag)
    finally:
        _remove(tmp)
    return result


def write_json(path: Path, data: Any, indent: int = 2) -> Path:
    """``data`` as JSON with sorted keys and a final newline."""
    path.write_text(json.dumps(data, indent=indent, sort_keys=True) + "\n")
    return path


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend with matplotlib's default style (a user's matplotlibrc
    must not change what a report draws)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.style.use("default")
    return plt


def save_figure(fig: Any, path: str | Path, dpi: float = DPI) -> Path:
    """Lay out, write (PNG, no metadata: equal figures give equal bytes) and close ``fig``. Written through a
    temporary sibling renamed over ``path``: never half a file; a path that cannot be written is a ValueError
    naming it (the commands' message), never a traceback."""
    import matplotlib.pyplot as plt

    path = Path(path)
    tmp = path.with_name(f".tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}-{path.name}")
    try:
        fig.tight_layout()
        fig.savefig(tmp, format="png", dpi=dpi, metadata={"Software": None})
        os.replace(tmp, path)
    except OSError as exc:
        raise ValueError(f"{path}: cannot be written ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)
        if os.path.lexists(tmp):
            _remove(tmp)
    return path
