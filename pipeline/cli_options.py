"""Options and helpers shared by every `dicetables` command group (one definition each).

Every game's ``cli.py`` takes its ``--artifacts``, ``--params``, ``--out``, ``--rules``, ``--seed``,
``--games`` and ``--json`` options from here, and its ``report`` command reads its params section and
picks its output directory through ``params_section`` and ``report_dir``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import click

artifacts_option = click.option(
    "--artifacts", "artifacts_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Artifacts directory (default: $DICETABLES_ARTIFACTS or the project's artifacts/).")
params_option = click.option(
    "--params", "params_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="params.yaml to read (default: the project's).")
out_option = click.option(
    "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Output directory (default: ARTIFACTS/reports/GAME).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


def rules_option(rule_sets: Iterable[str], default: str, help: str = "Rule set.") -> Callable[[Any], Any]:
    """``--rules`` (parameter ``rules_name``): one of a game's rule sets."""
    return click.option("--rules", "rules_name", type=click.Choice(list(rule_sets)), default=default,
                        show_default=True, help=help)


def seed_option(default: int | None = 0, help: str = "Seed of the random numbers.") -> Callable[[Any], Any]:
    """``--seed`` (an int; ``None`` as default means unseeded)."""
    return click.option("--seed", type=int, default=default, show_default=default is not None, help=help)


def games_option(default: int = 100_000, help: str = "Games to play.") -> Callable[[Any], Any]:
    """``--games``: how many games a simulation plays."""
    return click.option("--games", type=int, default=default, show_default=True, help=help)


def artifacts_root(artifacts_dir: Path | None) -> Path:
    """The artifacts directory a command works on."""
    from lookup.store import default_artifacts_dir

    return artifacts_dir if artifacts_dir is not None else default_artifacts_dir()


def params_section(params_path: Path | None, section: str) -> Mapping[str, Any]:
    """One section of params.yaml (default: the project's); ValueError naming a missing section."""
    from pipeline.family import DEFAULT_PARAMS, load_params

    path = params_path or DEFAULT_PARAMS
    params = load_params(path)
    if not isinstance(params.get(section), Mapping):
        raise ValueError(f"{path}: no '{section}' section")
    return params[section]


def report_dir(out_dir: Path | None, artifacts_dir: Path | None, game: str) -> tuple[Path, Path]:
    """(artifacts root, output directory) of a game's report: ``--out``, else ``ARTIFACTS/reports/GAME``."""
    root = artifacts_root(artifacts_dir)
    return root, out_dir if out_dir is not None else root / "reports" / game
