import shutil
from pathlib import Path

import pytest

from pipeline import registry
from pipeline.store import write_manifest


def _built_tables(tmp_path_factory, folder: str, rule_set: str) -> Path:
    """A fresh artifacts directory holding the value and policy tables of one rule set."""
    root = tmp_path_factory.mktemp(folder) / "artifacts"
    params = root.parent / "params.yaml"
    params.write_text(f"dicerace:\n  max_dice: 5\nyahtzee:\n  rule_sets: [{rule_set}]\n")
    registry.build([f"yahtzee-{rule_set}"], params_path=params, artifacts_dir=root)
    return root


@pytest.fixture(scope="session")
def hasbro_tables(tmp_path_factory) -> Path:
    """An artifacts directory with the hasbro value and policy tables, built once per session."""
    return _built_tables(tmp_path_factory, "yahtzee", "hasbro")


@pytest.fixture(scope="session")
def hasbro_values_only(hasbro_tables, tmp_path_factory) -> Path:
    """The same value table without the policy tables: decide() must compute turns instead."""
    root = tmp_path_factory.mktemp("values_only") / "artifacts"
    root.mkdir()
    shutil.copytree(hasbro_tables / "yahtzee-hasbro-values.zarr", root / "yahtzee-hasbro-values.zarr")
    write_manifest(root)
    return root


@pytest.fixture(scope="session")
def lab(hasbro_tables, tmp_path_factory):
    """hasbro and seed tables plus small tuned Perturbation weights, in one artifacts directory."""
    params = tmp_path_factory.mktemp("lab") / "params.yaml"
    params.write_text("dicerace:\n  max_dice: 5\nyahtzee:\n  rule_sets: [hasbro, seed]\nyahtzee_lab:\n"
                      "  perturbation:\n    iterations: 2\n    games: 400\n    seed: 3\n")
    registry.build(["yahtzee-seed", "yahtzee-perturbation-weights"], params_path=params, artifacts_dir=hasbro_tables)
    return hasbro_tables


@pytest.fixture(scope="session")
def forced_tables(tmp_path_factory) -> Path:
    """Built tables of `scandinavian+forced` (the smallest Scandinavian game: 16 masks) in a temp dir."""
    return _built_tables(tmp_path_factory, "scandinavian", "scandinavian+forced")
