"""What a table family is, and how one family is built: ``Family``, ``Computed``, ``build_family``.

Each family is one DVC stage (``dvc.yaml``) and one ``dicetables build FAMILY``; both go through
``build_family``. A family names its params section and the specs of its artifacts; each spec names the
entry modules of its code, whose import closure (``pipeline.code_deps``) makes the artifact's fingerprint and
the stage's DVC deps (``dicetables dvc-yaml`` writes the stage from the family: ``pipeline/dvc_yaml.py``).

Imports no game: every game's ``stage.py`` imports this module, and ``pipeline.registry`` (which finds
the games' families through their declarations, ``pipeline.declaration``) imports both.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from pipeline.progress import say
from pipeline.store import PROJECT_ROOT, ArtifactSpec, StoredArray, clean_leftovers, reusable, write_artifact

DEFAULT_PARAMS = PROJECT_ROOT / "params.yaml"

Computed = tuple[dict[str, StoredArray], dict[str, Any]]


@dataclass(frozen=True)
class Family:
    """A table family: what it is called, which params it reads, and how it is computed.

    ``artifacts(params)`` gives the specs it publishes; ``compute(spec, params, artifacts_dir)`` returns the
    arrays and stats of one spec. ``upstream`` names the artifacts (file names in the artifacts directory)
    that the computation reads: they are the stage's other DVC deps, and their fingerprints belong in the
    specs' params so that a change upstream changes the fingerprint. ``publish(spec, params, artifacts_dir,
    fingerprint)``, when given, replaces compute-then-write for artifacts written in place by many tasks
    (``pipeline.store.write_zarr_in_place``); it returns the published paths.
    """

    name: str
    section: str
    artifacts: Callable[[Mapping[str, Any]], list[ArtifactSpec]]
    compute: Callable[[ArtifactSpec, Mapping[str, Any], Path], Computed]
    upstream: tuple[str, ...] = ()
    publish: Callable[[ArtifactSpec, Mapping[str, Any], Path, str], list[Path]] | None = None

    def code_files(self, section: Mapping[str, Any]) -> list[str]:
        """Every file the fingerprints of its artifacts hash (``ArtifactSpec.code_files``), for params
        ``section``: the DVC deps of its stage, besides the artifacts it reads."""
        return sorted({f for spec in self.artifacts(section) for f in spec.code_files()})


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


def nonempty_list(section: Mapping[str, Any], key: str, where: str, expected: str,
                  each: Callable[[Any], Any] | None = None) -> list[Any]:
    """``section[key]``, which params must give as a non-empty list; otherwise a ValueError naming ``where``
    (the params key, e.g. ``g151.variants``) and what the list holds (``expected``). ``each`` is called on
    every entry to validate it (``get_rules``: a ValueError naming an unknown rule set)."""
    value = section.get(key)
    if not isinstance(value, list) or not value:
        raise ValueError(f"{where} must be a non-empty list of {expected}")
    for entry in value if each is not None else ():
        each(entry)
    return value


def one_family_per_name(names: list[str], prefix: str, section: str,
                        specs: Callable[[str], list[ArtifactSpec]],
                        compute: Callable[[ArtifactSpec, Mapping[str, Any], Path], Computed]) -> list[Family]:
    """One family per entry of ``names`` (rule sets a params list asks for, already checked): ``PREFIX-NAME``
    ('+' written '-': stage names), publishing ``specs(name)`` by ``compute``."""
    return [Family(name=f"{prefix}-{name.replace('+', '-')}", section=section,
                   artifacts=lambda _section, n=name: specs(n), compute=compute) for name in names]


def build_family(
    family: Family,
    params: Mapping[str, Any],
    artifacts_dir: str | Path,
    *,
    force: bool = False,
) -> list[tuple[Path, str]]:
    """Build (or reuse) every artifact of ``family``; returns (path, "built" | "reused") pairs.

    First the leftovers of killed writers of every artifact in ``artifacts_dir`` are removed (or, for an
    ``.old-*`` whose artifact is missing, renamed back): ``pipeline.store.clean_leftovers``. Every build
    goes through here: ``dicetables build``, each DVC stage (which runs it) and a stage building its inputs.
    """
    if family.section not in params:
        raise ValueError(f"params has no '{family.section}' section (needed by {family.name})")
    section = params[family.section]
    for leftover, size in clean_leftovers(artifacts_dir):
        say(f"removed {leftover.name} ({size} bytes), left by a killed build")
    done = []
    for spec in family.artifacts(section):
        fingerprint = spec.fingerprint()
        names = [f"{spec.name}.zarr"] + ([f"{spec.name}.h5"] if spec.hdf5 else [])
        if not force and reusable(spec, artifacts_dir, fingerprint):
            say(f"[green]reused[/] {', '.join(names)} (fingerprint {fingerprint[:12]} matches)")
            done += [(Path(artifacts_dir) / n, "reused") for n in names]
            continue
        start = time.perf_counter()
        if family.publish is not None:
            paths = family.publish(spec, section, Path(artifacts_dir), fingerprint)
        else:
            arrays, stats = family.compute(spec, section, Path(artifacts_dir))
            paths = write_artifact(spec, arrays, artifacts_dir, stats=stats, fingerprint=fingerprint)
        say(f"[bold]built[/] {', '.join(names)} in {time.perf_counter() - start:.2f} s")
        done += [(p, "built") for p in paths]
    return done

