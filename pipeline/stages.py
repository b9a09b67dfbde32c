"""The table families the pipeline builds, and the one builder they all go through.

Each family is one DVC stage (``dvc.yaml``) and one ``dicetables build FAMILY``; both call ``build``.
A family names its params section and the source files that compute it; the same list makes the
artifact's fingerprint and the stage's DVC deps (tests/test_dvc.py keeps them equal).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from pipeline.progress import say
from pipeline.store import PROJECT_ROOT, ArtifactSpec, StoredArray, reusable, write_artifact, write_manifest

DEFAULT_PARAMS = PROJECT_ROOT / "params.yaml"

Computed = tuple[dict[str, StoredArray], dict[str, Any]]


@dataclass(frozen=True)
class Family:
    """A table family: what it is called, which params it reads, which code computes it, and how.

    ``artifacts(params)`` gives the specs it publishes; ``compute(spec, params, artifacts_dir)`` returns the
    arrays and stats of one spec. ``upstream`` names the artifacts (file names in the artifacts directory)
    that the computation reads: they are the stage's other DVC deps, and their fingerprints belong in the
    specs' params so that a change upstream changes the fingerprint.
    """

    name: str
    section: str
    code: tuple[str, ...]
    artifacts: Callable[[Mapping[str, Any]], list[ArtifactSpec]]
    compute: Callable[[ArtifactSpec, Mapping[str, Any], Path], Computed]
    upstream: tuple[str, ...] = ()


def load_params(path: str | Path = DEFAULT_PARAMS) -> dict[str, Any]:
    """params.yaml as a dict; a missing or malformed file is a ValueError naming it."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text())
    except FileNotFoundError as exc:
        raise ValueError(f"{path}: params file not found") from exc
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: not valid YAML ({exc})") from exc
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping of sections")
    return data


def families(params: Mapping[str, Any]) -> dict[str, Family]:
    """Every family the params define, by name."""
    from pipeline.dicerace.stage import probabilities_family, strategies_family
    from pipeline.g151.stage import g151_families
    from pipeline.yahtzee.stage import yahtzee_families

    found = [probabilities_family()]
    if params.get("dicerace", {}).get("grid") is not None:
        found.append(strategies_family())
    if "yahtzee" in params:
        found += yahtzee_families(params["yahtzee"])
    if "g151" in params:
        found += g151_families(params["g151"])
    if "poker" in params:
        from pipeline.poker.stage import poker_families

        found += poker_families(params["poker"])
    if "yahtzee_lab" in params:
        from pipeline.yahtzee.tuning import weights_family

        found.append(weights_family(params["yahtzee_lab"]))
    return {f.name: f for f in found}


def build_family(
    family: Family,
    params: Mapping[str, Any],
    artifacts_dir: str | Path,
    *,
    force: bool = False,
) -> list[tuple[Path, str]]:
    """Build (or reuse) every artifact of ``family``; returns (path, "built" | "reused") pairs."""
    if family.section not in params:
        raise ValueError(f"params has no '{family.section}' section (needed by {family.name})")
    section = params[family.section]
    done = []
    for spec in family.artifacts(section):
        fingerprint = spec.fingerprint()
        names = [f"{spec.name}.zarr"] + ([f"{spec.name}.h5"] if spec.hdf5 else [])
        if not force and reusable(spec, artifacts_dir, fingerprint):
            say(f"[green]reused[/] {', '.join(names)} (fingerprint {fingerprint[:12]} matches)")
            done += [(Path(artifacts_dir) / n, "reused") for n in names]
            continue
        start = time.perf_counter()
        arrays, stats = family.compute(spec, section, Path(artifacts_dir))
        paths = write_artifact(spec, arrays, artifacts_dir, stats=stats, fingerprint=fingerprint)
        say(f"[bold]built[/] {', '.join(names)} in {time.perf_counter() - start:.2f} s")
        done += [(p, "built") for p in paths]
    return done


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
