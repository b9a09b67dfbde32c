"""Options and helpers shared by every `dicetables` command group (one definition each).

Every game's ``cli.py`` takes its ``--artifacts``, ``--params``, ``--out``, ``--rules``, ``--seed``,
``--games`` and ``--json`` options from here; ``pipeline/cli.py`` makes each report command a game declares
(``pipeline.declaration.Report``, also its DVC report stage) with ``report_command``.
"""

from __future__ import annotations

import importlib
import os
import stat
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
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
class OutputFile(click.ParamType):
    """A file a command writes (a PNG, a record): checked before any work starts, so that a long run does not end
    on a path it cannot write. Its directory must exist and be writable; if it exists it must be a regular file
    (not a directory, FIFO, device or socket). The writer still writes through a temporary sibling renamed over
    it (``pipeline.reports.save_figure``): a path that passes here but cannot take a new file (``/proc``) is a
    message then, never a traceback."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        path = Path(value)
        folder = path.parent
        if not folder.is_dir():
            self.fail(f"{path}: directory {folder} does not exist", param, ctx)
        if not os.access(folder, os.W_OK | os.X_OK):
            self.fail(f"{path}: directory {folder} is not writable", param, ctx)
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            return path
        except OSError as exc:
            self.fail(f"{path}: cannot be examined ({exc.strerror})", param, ctx)
        if not stat.S_ISREG(mode):
            self.fail(f"{path}: exists and is not a regular file", param, ctx)
        return path


output_file = OutputFile()
MAX_GAMES = 10**9  # games a simulation may be asked for: far beyond any run's use, within int64 counts
json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print the result as JSON (shapes: docs/cli.md) instead of text.")


def echo_json(content: Any) -> None:
    """Print ``content`` as indented JSON on stdout: the ``--json`` output of every command."""
    import json

    click.echo(json.dumps(content, indent=2))


def fraction_text(p: Fraction | None) -> str | None:
    """An exact number in ``--json``: the text "numerator/denominator" (null for None: an estimate)."""
    return None if p is None else f"{p.numerator}/{p.denominator}"


def rules_option(rule_sets: Iterable[str], default: str, help: str = "Rule set.") -> Callable[[Any], Any]:
    """``--rules`` (parameter ``rules_name``): one of a game's rule sets."""
    return click.option("--rules", "rules_name", type=click.Choice(list(rule_sets)), default=default,
                        show_default=True, help=help)


def seed_option(default: int | None = 0, help: str = "Seed of the random numbers.") -> Callable[[Any], Any]:
    """``--seed`` (an int in 0..2**63 - 1, the range of the kernels' seeds: ``lookup.validate.SEED_MAX``;
    ``None`` as default means unseeded)."""
    from lookup.validate import SEED_MAX

    return click.option("--seed", type=click.IntRange(0, SEED_MAX), default=default,
                        show_default=default is not None, help=help)


def games_option(default: int = 100_000, help: str = "Games to play.") -> Callable[[Any], Any]:
    """``--games``: how many games a simulation plays (1..MAX_GAMES)."""
    return click.option("--games", type=click.IntRange(1, MAX_GAMES), default=default, show_default=True,
                        help=help)


def artifacts_root(artifacts_dir: Path | None) -> Path:
    """The artifacts directory a command works on."""
    from lookup.store import default_artifacts_dir

    return artifacts_dir if artifacts_dir is not None else default_artifacts_dir()


def files_root(artifacts_dir: Path | None, command: str) -> Path:
    """``artifacts_root`` for a command that works on the files themselves (build, verify, ...): a URL is refused
    with a message (only lookup reads tables over HTTP)."""
    from lookup.remote import remote_root

    root = artifacts_root(artifacts_dir)
    if remote_root(root) is not None:
        raise click.ClickException(f"{remote_root(root)}: `dicetables {command}` works on the files of an artifacts "
                                   "directory; a URL is read by lookup only (docs/artifacts.md, \"Reading over HTTP\")")
    return root


def params_section(params_path: Path | None, section: str) -> Mapping[str, Any]:
    """One section of params.yaml (default: the project's); ValueError naming a missing section."""
    from pipeline.family import DEFAULT_PARAMS, load_params

    path = params_path or DEFAULT_PARAMS
    params = load_params(path)
    if not isinstance(params.get(section), Mapping):
        raise ValueError(f"{path}: no '{section}' section")
    return params[section]


def report_command(game: str, module: str, help: str, *, section: str | None = None,
                   options: Iterable[Callable[[Any], Any]] = ()) -> click.Command:
    """The ``report`` command of a game: ``write_report(params[section], ARTIFACTS, OUT, **options)`` of
    ``module`` (imported when the command runs), OUT defaulting to ``ARTIFACTS/reports/GAME``.

    ``section`` is the params section (default: ``game``); ``options`` are extra click options, passed to
    ``write_report`` as keyword arguments.
    """

    def report(params_path: Path | None, artifacts_dir: Path | None, out_dir: Path | None, **extra: Any) -> None:
        from pipeline.progress import say
        from pipeline.store import trusting_own_artifacts

        root = artifacts_root(artifacts_dir)
        out = out_dir if out_dir is not None else root / "reports" / game
        write_report = importlib.import_module(module).write_report
        with trusting_own_artifacts():  # a report stage runs before the manifest is rewritten
            written = write_report(params_section(params_path, section or game), root, out, **extra)
        say(f"wrote {written}")

    report.__doc__ = help
    for option in (*options, out_option, artifacts_option, params_option):
        report = option(report)
    return click.command("report")(report)
