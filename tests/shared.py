"""Tables built once per test run and shared by every pytest-xdist worker (and tests/test_core_install.py).

A session fixture runs once per worker process; the tables of the fixtures here are built once per *run*: the
first process to ask builds them under a file lock in a directory beside the workers' temporary directories
(``<run basetemp>/shared``), the others wait for it and then read the same files. Nothing in such a directory is
ever written again: a fixture that gives tests a directory they may write to hands them a private copy
(:func:`private_copy`), and a build that needs other shared tables copies them in first, so that the registry
reuses them (checked: a copied artifact that the registry built again fails the run).

Each shared build is one ``registry.build(names)`` with one params text; the name of its directory is a hash of
both, so two fixtures asking for the same tables with the same params get the same directory.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import pickle
import shutil
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pipeline import registry
from pipeline.store import MANIFEST_NAME, artifact_paths, write_manifest

# The small instances of every game (the sizes the per-game tests and the core-install test use).
POKER_EVALUATOR = "poker:\n  preflop: {}\n"
LAB = ("yahtzee:\n  rule_sets: [hasbro, seed]\nyahtzee_lab:\n"
       "  perturbation:\n    iterations: 2\n    games: 400\n    seed: 3\n")
# The web app's directory: hasbro Yahtzee, one dice-race game, 151 stated to 500.
WEB = ("dicerace:\n  max_dice: 5\n  grid: [[3, 20]]\nyahtzee:\n  rule_sets: [hasbro]\n"
       "g151:\n  variants: [stated]\n  targets: [500]\n")


def yahtzee_params(rule_set: str) -> str:
    return f"yahtzee:\n  rule_sets: [{rule_set}]\n"


def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``<run basetemp>/shared``: the same directory for the controller and every xdist worker of one run
    (a worker's basetemp is ``<run basetemp>/popen-gwN``), and a new one for every run."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    path = base / "shared"
    path.mkdir(exist_ok=True)
    return path


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _copy_artifacts(source: Path, target: Path) -> list[str]:
    """Copy every artifact of ``source`` into ``target`` (not its manifest); returns the names copied."""
    target.mkdir(parents=True, exist_ok=True)
    names = []
    for path in artifact_paths(source):
        if path.is_dir():
            shutil.copytree(path, target / path.name, dirs_exist_ok=True)
        else:
            shutil.copy2(path, target / path.name)
        names.append(path.name)
    return names


# For working on the tests: DICETABLES_TEST_TABLES=<dir> keeps the shared builds in <dir> across runs. Each run
# still calls ``registry.build`` once per shared build there, which rebuilds exactly the tables whose
# fingerprints (code, params, layout) changed and reuses the others, so a kept table is never stale.
KEEP_ENV = "DICETABLES_TEST_TABLES"


def _builds_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    kept = os.environ.get(KEEP_ENV)
    if not kept:
        return run_dir(tmp_path_factory)
    path = Path(kept)
    path.mkdir(parents=True, exist_ok=True)
    return path


def shared_build(tmp_path_factory: pytest.TempPathFactory, params: str, names: Sequence[str],
                 reuse: Sequence[Path] = ()) -> Path:
    """The artifacts directory (read only, by convention) of ``registry.build(names)`` with ``params``, built
    once per run. The artifacts of the shared directories ``reuse`` are copied in first and must be reused."""
    key = hashlib.sha256(repr((params, tuple(names))).encode()).hexdigest()[:16]
    builds = _builds_dir(tmp_path_factory)
    home = builds / f"{names[0]}-{key}"
    artifacts = home / "artifacts"
    done = home / "built"
    this_run = str(run_dir(tmp_path_factory))
    with _locked(builds / f"{home.name}.lock"):
        if not done.exists() or done.read_text().split("\n", 1)[0] != this_run:
            if home.exists() and not (home / "tree.json").exists():  # a build that failed: start again
                shutil.rmtree(home)
            home.mkdir(exist_ok=True)
            (home / "params.yaml").write_text(params)
            copied = {n for source in reuse for n in _copy_artifacts(source, artifacts)}
            built = registry.build(list(names), params_path=home / "params.yaml", artifacts_dir=artifacts)
            again = sorted(p.name for p, status in built if status == "built" and p.name in copied)
            assert not again, f"shared tables built twice (fingerprints differ): {again}"
            (home / "tree.json").write_text(json.dumps(tree(artifacts), indent=0))
            done.write_text(this_run + "\n" + "".join(f"{status} {p.name}\n" for p, status in built))
            if os.environ.get(KEEP_ENV):
                (run_dir(tmp_path_factory) / f"{home.name}.tree").write_text(str(home))
    return artifacts


def tree(root: Path) -> dict[str, list[int]]:
    """Every file under ``root``: [size, mtime_ns]."""
    return {p.relative_to(root).as_posix(): [p.stat().st_size, p.stat().st_mtime_ns]
            for p in sorted(root.rglob("*")) if p.is_file()}


def changed_shared_builds(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The shared directories of this run whose files changed after their build (checked when the run ends)."""
    changed = []
    homes = sorted(run_dir(tmp_path_factory).glob("*/tree.json"))
    homes += [Path(p.read_text()) / "tree.json" for p in sorted(run_dir(tmp_path_factory).glob("*.tree"))]
    for listing in homes:
        if json.loads(listing.read_text()) != tree(listing.parent / "artifacts"):
            changed.append(listing.parent.name)
    return changed


def private_copy(tmp_path_factory: pytest.TempPathFactory, folder: str, *sources: Path) -> Path:
    """A new artifacts directory of this process holding copies of the artifacts of ``sources``, and its
    manifest: tests may write there."""
    root = tmp_path_factory.mktemp(folder) / "artifacts"
    root.mkdir()
    for source in sources:
        _copy_artifacts(source, root)
    write_manifest(root, verified=artifact_paths(root))  # copies of verified builds: not read again
    assert (root / MANIFEST_NAME).exists()
    return root


def union(tmp_path_factory: pytest.TempPathFactory, name: str, *sources: Path) -> Path:
    """One artifacts directory (read only, by convention) holding copies of the artifacts of the shared
    directories ``sources`` and its manifest, made once per run (the web app's tables come from several builds
    with different params: they cannot be one ``registry.build``)."""
    home = run_dir(tmp_path_factory) / f"union-{name}"
    with _locked(run_dir(tmp_path_factory) / f"union-{name}.lock"):
        if not (home / "tree.json").exists():
            if home.exists():
                shutil.rmtree(home)
            artifacts = home / "artifacts"
            for source in sources:
                _copy_artifacts(source, artifacts)
            write_manifest(artifacts, verified=artifact_paths(artifacts))  # copies of verified builds
            (home / "tree.json").write_text(json.dumps(tree(artifacts), indent=0))
    return home / "artifacts"


def computed(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[], Any]) -> Any:
    """``make()``, called once per run: the first process to ask computes it under a file lock and pickles it
    into the run's shared directory, the others (the other xdist worker, another module) load that file.

    For in-memory results that several modules use, or that a module-scoped fixture would compute again on the
    other worker when worksteal hands it some of that module's tests. ``name`` must identify the computation.
    """
    path = run_dir(tmp_path_factory) / f"computed-{name}.pickle"
    with _locked(path.with_suffix(".lock")):
        if not path.exists():
            value = make()
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(tmp, path)
            return value
    return pickle.loads(path.read_bytes())


# --- the shared builds ------------------------------------------------------------------------------------

def declaration(game: str) -> Any:
    """The declaration (``pipeline/<game>/game.py``) of a game."""
    from pipeline.declaration import declarations

    found = [d for d in declarations() if d.name == game]
    assert found, f"no declaration pipeline/{game}/game.py"
    return found[0]


def small_params(game: str) -> str:
    """The params text of a game's smallest instance, as its declaration states it (``small``)."""
    text = declaration(game).small
    assert text, f"pipeline/{game}/game.py declares no small instance (small=...)"
    return text


def small(tmp_path_factory: pytest.TempPathFactory, game: str, reuse: Sequence[Path] = ()) -> Path:
    """Every table of a game's smallest instance (its declaration's ``small`` params), built once per run (the
    artifacts of the shared directories ``reuse`` copied in first, as ``shared_build``)."""
    import yaml

    text = small_params(game)
    return shared_build(tmp_path_factory, text, list(registry.families(yaml.safe_load(text))), reuse)


def yahtzee(tmp_path_factory: pytest.TempPathFactory, rule_set: str) -> Path:
    """Value, policy and distribution tables of one Yahtzee rule set (full size: the published figures)."""
    return shared_build(tmp_path_factory, yahtzee_params(rule_set), [f"yahtzee-{rule_set}"])


def dicerace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small(tmp_path_factory, "dicerace")


def g151(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small(tmp_path_factory, "g151")


def poker_evaluator(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared_build(tmp_path_factory, POKER_EVALUATOR, ["poker-evaluator"])


def poker_preflop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The evaluator and the small preflop tables (heads-up exact, two opponents by Monte Carlo)."""
    return small(tmp_path_factory, "poker", reuse=[poker_evaluator(tmp_path_factory)])


def tictactoe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small(tmp_path_factory, "tictactoe")


def dominoes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small(tmp_path_factory, "dominoes")


def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """hasbro and seed tables plus small tuned Perturbation weights."""
    return shared_build(tmp_path_factory, LAB, ["yahtzee-hasbro", "yahtzee-seed", "yahtzee-perturbation-weights"],
                        reuse=[yahtzee(tmp_path_factory, "hasbro"), yahtzee(tmp_path_factory, "seed")])


# --- Yahtzee solutions --------------------------------------------------------------------------------------

# Rule sets whose full tables some test builds anyway (published figures, the core install, the lab): their
# solutions are read back from those tables instead of being solved again.
TABLES = ("hasbro", "verhoeff", "seed", "scandinavian", "scandinavian+forced")


def solution(tmp_path_factory: pytest.TempPathFactory, name: str, policy: bool = False):
    """``pipeline.yahtzee.solver.solve(name, policy=policy)``, solved once per run.

    For the rule sets of TABLES it is the solution of the run's shared build of ``yahtzee-NAME`` (one
    ``solve(name, policy=True)``; values and policy read back from its verified artifacts). For the others, the
    value table of one value-only solve, kept as a .npy file (no policy: ask the tables' rule sets for one).
    """
    import numpy as np

    from lookup.yahtzee import get_rules
    from lookup.yahtzee.tables import load_tables
    from pipeline.yahtzee.solver import Solution, solve

    rules = get_rules(name)
    if rules.name in TABLES:
        tables = load_tables(rules, yahtzee(tmp_path_factory, rules.name))
        pol = tables.policy
        return Solution(rules=rules, value=np.asarray(tables.value), state_index=np.asarray(pol["state_index"]),
                        reroll=np.asarray(pol["reroll"]), category=np.asarray(pol["category"]))
    assert not policy, f"no shared policy tables of {rules.name!r}: add it to tests/shared.py TABLES"
    path = run_dir(tmp_path_factory) / f"values-{rules.name}.npy"
    with _locked(path.with_suffix(".lock")):
        if not path.exists():
            sol = solve(rules)
            np.save(path.with_suffix(".tmp.npy"), sol.value)
            os.replace(path.with_suffix(".tmp.npy"), path)
    value = np.load(path)
    from lookup.yahtzee.states import state_space

    return Solution(rules=rules, value=value, state_index=np.ascontiguousarray(state_space(rules).state_index))


def two_player_solution(tmp_path_factory: pytest.TempPathFactory, name: str):
    """``pipeline.yahtzee.party.solve_party(name, None, 2)``, solved once per run (tests/yahtzee/test_yahtzee_duel.py
    and test_yahtzee_party.py both read it)."""
    from lookup.yahtzee import get_rules
    from pipeline.yahtzee.party import solve_party

    rules = get_rules(name)
    return computed(tmp_path_factory, f"solve_party2-{rules.name}", lambda: solve_party(rules, None, 2))
