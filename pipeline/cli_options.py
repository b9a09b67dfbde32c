"""Options shared by every `dicetables` command group (one definition each)."""

from __future__ import annotations

from pathlib import Path

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


def artifacts_root(artifacts_dir: Path | None) -> Path:
    """The artifacts directory a command works on."""
    from lookup.store import default_artifacts_dir

    return artifacts_dir if artifacts_dir is not None else default_artifacts_dir()
