"""The registry of table families: which families the params define, and building them by name.

The one module that imports every game's ``stage.families``; no game imports it (tests/test_imports.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pipeline.dicerace.stage import probabilities_family, strategies_family
from pipeline.family import DEFAULT_PARAMS, Family, build_family, load_params
from pipeline.g151.stage import g151_families
from pipeline.store import PROJECT_ROOT, write_manifest
from pipeline.yahtzee.stage import yahtzee_families
from pipeline.yahtzee_lab.tuning import weights_family


def families(params: Mapping[str, Any]) -> dict[str, Family]:
    """Every family the params define, by name."""
    found = [probabilities_family()]
    if params.get("dicerace", {}).get("grid") is not None:
        found.append(strategies_family())
    if "yahtzee" in params:
        found += yahtzee_families(params["yahtzee"])
    if "g151" in params:
        found += g151_families(params["g151"])
    if "yahtzee_lab" in params:
        found.append(weights_family(params["yahtzee_lab"]))
    return {f.name: f for f in found}


def build(
    names: list[str] | None,
    *,
    params_path: str | Path = DEFAULT_PARAMS,
    artifacts_dir: str | Path | None = None,
    force: bool = False,
    manifest: bool = True,
) -> list[tuple[Path, str]]:
    """Build the named families (all when ``names`` is empty), then regenerate the manifest."""
    params = load_params(params_path)
    known = families(params)
    names = list(names or known)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown table famil{'y' if len(unknown) == 1 else 'ies'} {unknown}; "
                         f"known: {sorted(known)}")
    root = Path(artifacts_dir) if artifacts_dir is not None else PROJECT_ROOT / "artifacts"
    done = []
    for name in names:
        done += build_family(known[name], params, root, force=force)
    if manifest:
        write_manifest(root)
    return done
