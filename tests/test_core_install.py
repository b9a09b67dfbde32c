"""The core install (`pip install .`, no extra) is the query library: in a fresh virtual environment holding only
it, every game answers from built tables exactly as in the full environment, without installing or importing
any package of the build or serve extras, and the `dicetables` command says which extra it needs.

One test, so that pytest-xdist never builds the environment twice: a fresh venv, a non-editable install of a
copy of the sources (pip may use its cache), and meanwhile the tables of the small instances of every game
(every declared game's ``small`` params) and of every Yahtzee rule set params.yaml builds: the run's shared tables
(tests/shared.py), built once for the whole run and reused here, not built again.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pipeline import registry
from pipeline.declaration import declarations
from tests import shared

ROOT = Path(__file__).resolve().parent.parent
# Distributions of the build and serve extras: the core install must not bring any (PyYAML it does: zarr needs it).
NOT_CORE = {"numba", "llvmlite", "scipy", "dask", "distributed", "click", "rich", "matplotlib", "dvc", "fastapi",
            "fastapi-offline", "starlette", "uvicorn", "httptools", "uvloop", "orjson"}
CORE = {"dicetables", "numpy", "zarr", "numcodecs", "crc32c", "h5py", "zstandard", "google-crc32c"}
NEEDS_BUILD = "the dicetables command needs the build extra: pip install 'dicetables[build]'"


def default_rule_sets() -> list[str]:
    return list(yaml.safe_load((ROOT / "params.yaml").read_text())["yahtzee"]["rule_sets"])


def params_text(rule_sets: list[str]) -> str:
    """params.yaml of every declared game's small instance (its declaration's ``small``), Yahtzee's with the
    default rule sets added."""
    params: dict = {}
    for game in declarations():
        if game.small:
            for section, value in yaml.safe_load(game.small).items():
                params[section] = {**params.get(section, {}), **value}
    yahtzee = params.setdefault("yahtzee", {})
    yahtzee["rule_sets"] = sorted(set(yahtzee.get("rule_sets", [])) | set(rule_sets))
    return yaml.safe_dump(params, sort_keys=True)


def _env() -> dict[str, str]:
    """The environment for the core venv's processes: nothing pointing at this checkout."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


# A fresh venv, a pip install and the tables of every default rule set: ~4 CPU-minutes, in `make test-full`.
@pytest.mark.full
def test_core_install_answers_every_game_alone(tmp_path_factory):
    root = tmp_path_factory.mktemp("core_install")
    # The wheel is built from a copy: building in the checkout would write build/ and *.egg-info there.
    src = root / "src"
    for name in ("lookup", "pipeline"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    venv = root / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True, env=_env())
    assert made.returncode == 0, f"python -m venv failed:\n{made.stderr}"
    python = venv / "bin" / "python"
    log = root / "pip.log"
    with log.open("w") as out:  # the install runs while the tables are built
        pip = subprocess.Popen([str(python), "-m", "pip", "install", "--quiet", "-c", str(ROOT / "constraints.txt"),
                                str(src)], stdout=out, stderr=subprocess.STDOUT, env=_env())
        try:
            rule_sets = default_rule_sets()
            params = root / "params.yaml"
            params.write_text(params_text(rule_sets))
            # The run's shared tables (tests/shared.py: built once for every test of the run) are these params'
            # tables: copied in, the registry reuses every one of them (their fingerprints match) and builds none.
            f = tmp_path_factory
            small = [shared.small(f, g.name) for g in declarations() if g.small]
            artifacts = shared.private_copy(f, "core_artifacts", *small, *(shared.yahtzee(f, r) for r in rule_sets))
            built = registry.build([], params_path=params, artifacts_dir=artifacts)
            assert {status for _, status in built} == {"reused"}, [p.name for p, s in built if s != "reused"]
        finally:
            status = pip.wait()
    assert status == 0, f"pip install of the core failed:\n{log.read_text()[-4000:]}"

    # The core install is small: no package of the build or serve extras.
    listed = subprocess.run([str(python), "-m", "pip", "list", "--format=json"], capture_output=True, text=True,
                            check=True, env=_env()).stdout
    installed = {p["name"].lower().replace("_", "-") for p in json.loads(listed)}
    assert not installed & NOT_CORE, f"the core install brought {sorted(installed & NOT_CORE)}"
    assert CORE <= installed, f"missing from the core install: {sorted(CORE - installed)}"

    # Every game answers there (artifacts from $DICETABLES_ARTIFACTS) as here, importing no build or serve package.
    script = ROOT / "tests" / "core_install_queries.py"
    run = subprocess.run([str(python), "-I", str(script), str(artifacts)], capture_output=True, text=True,
                         cwd=root, env=_env())
    assert run.returncode == 0, f"the queries failed in the core venv:\n{run.stderr[-4000:]}"
    there = json.loads(run.stdout)
    assert Path(there["lookup_file"]).is_relative_to(venv), there["lookup_file"]  # the installed copy, not ROOT
    assert there["imported"] == [], f"the queries imported {there['imported']}"
    # "Here" in a fresh process of this venv too: this process has imported the build's modules and run its
    # kernels, after which the dice race's float sums differ in their last bits (2.5e-17 against -1.6e-17 for a 0).
    mine = subprocess.run([sys.executable, "-I", str(script), str(artifacts)], capture_output=True, text=True, cwd=root)
    assert mine.returncode == 0, mine.stderr[-4000:]
    here = json.loads(mine.stdout)["answers"]
    assert sorted(there["answers"]) == sorted(here)
    assert {key.partition("/")[0] for key in here} == {g.name for g in declarations() if g.small}
    assert all(any(f'"rules": "{r}"' in key for key in here) for r in rule_sets)
    for key, answer in here.items():
        assert there["answers"][key] == answer, key

    # The command says which extra it needs instead of a traceback.
    command = subprocess.run([str(venv / "bin" / "dicetables"), "--help"], capture_output=True, text=True, cwd=root,
                             env=_env())
    assert command.returncode == 1
    assert command.stderr.strip() == NEEDS_BUILD
