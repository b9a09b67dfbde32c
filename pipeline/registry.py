"""The registry of table families: which families the params define, and building them by name.

The families come from the games' declarations (``pipeline/<package>/game.py``, found by
``pipeline.declaration.declarations``); no game imports this module (tests/test_imports.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pipeline.declaration import declarations
from pipeline.family import DEFAULT_PARAMS, Family, build_family, load_params
from pipeline.store import PROJECT_ROOT, trusting_own_artifacts, write_manifest


def sections() -> dict[str, Callable[[Mapping[str, Any]], list[Family]]]:
    """params.yaml section -> the ``families(section)`` of the package that owns it, in build order (the
    games, then the labs: the lab's weights read Yahtzee's tables)."""
    return {game.params_section: game.families_of() for game in declarations()}


def families(params: Mapping[str, Any]) -> dict[str, Family]:
    """Every family the params define, by name (a game whose section is absent has none)."""
    found = [f for section, of in sections().items() if section in params for f in of(params[section])]
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
    with trusting_own_artifacts():
        for name in names:
            done += build_family(known[name], params, root, force=force)
    if manifest:  # what this build published or reused was verified a moment ago: not read again
        write_manifest(root, verified=[path for path, _ in done])
    return done
