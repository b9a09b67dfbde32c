"""Numba's cache is keyed by all of the code (pipeline.code_stamp): a change in any module, not only in a
kernel's own file, gives compiled code a new directory."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pipeline

ROOT = Path(__file__).resolve().parent.parent


def _tree(tmp_path: Path) -> Path:
    for package in ("lookup", "pipeline"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_any_module_change_changes_the_stamp(tmp_path):
    root = _tree(tmp_path)
    before = pipeline.code_stamp(root)
    assert before == pipeline.code_stamp(ROOT) and len(before) == 16
    # A constant in a module that no kernel file is (the case numba's own check misses).
    rules = root / "lookup" / "dicerace" / "rules.py"
    rules.write_text(rules.read_text() + "\n# changed\n")
    assert pipeline.code_stamp(root) != before
    (root / "pipeline" / "new_module.py").write_text("X = 1\n")
    assert len({before, pipeline.code_stamp(root)}) == 2


def test_the_cache_directory_is_the_stamp_under_the_chosen_base(tmp_path):
    base = tmp_path / "cache"
    stale = base / ("0" * 16)
    stale.mkdir(parents=True)
    old = time.time() - 2 * 86400
    os.utime(stale, (old, old))
    fresh = base / ("1" * 16)
    fresh.mkdir()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(base)}
    code = "import os, pipeline; print(os.environ['NUMBA_CACHE_DIR'])"
    got = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert Path(got.stdout.strip()) == base / pipeline.code_stamp()
    assert not stale.exists() and fresh.exists()  # a day-old stamp is removed, a recent one kept
    # A child process inherits the stamped directory and keeps it.
    env["NUMBA_CACHE_DIR"] = got.stdout.strip()
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert again.stdout == got.stdout
