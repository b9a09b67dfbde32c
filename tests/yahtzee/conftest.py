import shutil
from pathlib import Path

import pytest

from pipeline.store import write_manifest
from tests import shared


@pytest.fixture(scope="session")
def hasbro_tables(tmp_path_factory) -> Path:
    """An artifacts directory with the hasbro value, policy and distribution tables, built once per run (shared:
    only read; tests that damage tables copy them first)."""
    return shared.yahtzee(tmp_path_factory, "hasbro")


@pytest.fixture(scope="session")
def hasbro_values_only(hasbro_tables, tmp_path_factory) -> Path:
    """The same value table without the policy tables: decide() must compute turns instead."""
    root = tmp_path_factory.mktemp("values_only") / "artifacts"
    root.mkdir()
    shutil.copytree(hasbro_tables / "yahtzee-hasbro-values.zarr", root / "yahtzee-hasbro-values.zarr")
    write_manifest(root)
    return root


@pytest.fixture(scope="session")
def lab(tmp_path_factory) -> Path:
    """hasbro and seed tables plus small tuned Perturbation weights, in one artifacts directory (shared)."""
    return shared.lab(tmp_path_factory)


@pytest.fixture(scope="session")
def forced_tables(tmp_path_factory) -> Path:
    """Built tables of `scandinavian+forced` (the smallest Scandinavian game: 16 masks), shared."""
    return shared.yahtzee(tmp_path_factory, "scandinavian+forced")


@pytest.fixture(scope="session")
def towin_tables(tmp_path_factory) -> Path:
    """scandinavian+forced goal, win and law tables built through the registry (a LocalCluster)."""
    # Built once per run, shared by both pytest workers (only read).
    return shared.small(tmp_path_factory, "yahtzee")
