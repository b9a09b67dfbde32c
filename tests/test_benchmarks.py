"""Benchmarks stay alive (issue 37): every script in benchmarks/ runs in its quick mode (``BENCH_QUICK=1``: the
smallest instances, one run each; each script's docstring says what it shrinks) and must exit 0 with its figures
printed, so that a broken benchmark fails the tests instead of rotting unseen until someone measures.

The figures themselves are not checked here (they are measured on a shared machine, docs/benchmarks.md); the
scripts' own checks are (answers equal to lookup's over HTTP, to HiGHS at every state, to the plain-Python engine).
Tables: the run's shared hasbro tables (``$DICETABLES_ARTIFACTS``) and play-to-win tables (``$BENCH_ARTIFACTS``),
read only; a script that needs other tables says they are not built and goes on.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import shared

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))


def test_every_script_is_found():
    assert len(SCRIPTS) >= 20 and ROOT / "benchmarks" / "g151.py" in SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_the_benchmark_runs_in_its_quick_mode(script, tmp_path_factory, tmp_path):
    f = tmp_path_factory
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_")}
    env.update(BENCH_QUICK="1", DICETABLES_ARTIFACTS=str(shared.yahtzee(f, "hasbro")), TMPDIR=str(tmp_path),
               BENCH_ARTIFACTS=str(shared.small(f, "yahtzee")))
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, (f"{script.name} failed in its quick mode:\n{done.stdout[-2000:]}\n"
                                  f"{done.stderr[-4000:]}")
    assert done.stdout.strip(), f"{script.name} printed nothing"
