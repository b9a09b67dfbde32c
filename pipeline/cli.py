"""The ``dicetables`` command: build, verify and inspect the tables, and query them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from pipeline.cli_options import artifacts_option, artifacts_root, params_option
from pipeline.progress import console, say, set_quiet


class _Group(click.Group):
    """Turns a ValueError (bad input, damaged or mismatched artifact) into a message and exit code 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from exc




@click.group(cls=_Group)
@click.option("--quiet", "-q", is_flag=True, help="No progress bars or status lines.")
@click.version_option(package_name="dicetables")
def main(quiet: bool) -> None:
    """Exact strategy tables for dice games: build them, check them, query them."""
    set_quiet(quiet)



@main.command()
@click.argument("family_names", nargs=-1)
@click.option("--force", is_flag=True, help="Recompute even when a matching verified artifact exists.")
@params_option
@click.option("--no-manifest", is_flag=True, help="Leave MANIFEST.json alone (DVC writes it).")
@click.option("--list", "list_only", is_flag=True, help="List the families and exit.")
@artifacts_option
def build(family_names: tuple[str, ...], force: bool, params_path: Path | None, no_manifest: bool,
          list_only: bool, artifacts_dir: Path | None) -> None:
    """Build the table FAMILY_NAMES (default: all), reusing artifacts whose fingerprint matches."""
    from pipeline import registry
    from pipeline.family import DEFAULT_PARAMS, load_params

    params_path = params_path or DEFAULT_PARAMS
    if list_only:
        for name, fam in registry.families(load_params(params_path)).items():
            click.echo(f"{name}\tparams: {fam.section}\tcode: {', '.join(fam.code)}")
        return
    registry.build(list(family_names), params_path=params_path, artifacts_dir=artifacts_root(artifacts_dir),
                 force=force, manifest=not no_manifest)


@main.command()
@artifacts_option
def manifest(artifacts_dir: Path | None) -> None:
    """Regenerate artifacts/MANIFEST.json from the artifacts present."""
    from pipeline.store import write_manifest

    say(f"wrote {write_manifest(artifacts_root(artifacts_dir))}")


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@artifacts_option
def verify(paths: tuple[Path, ...], artifacts_dir: Path | None) -> None:
    """Recompute every checksum of PATHS (default: every artifact in the manifest); exit 1 on any problem."""
    from lookup.store import load_manifest, read_meta, verify_problems

    root = artifacts_root(artifacts_dir)
    expected: dict[Path, dict[str, Any]] = {}
    if not paths:
        entries = load_manifest(root)["artifacts"]
        if not entries:
            raise click.ClickException(f"{root}/MANIFEST.json lists no artifacts")
        expected = {root / e["path"]: e for e in entries}
        paths = tuple(expected)
    bad = 0
    for path in paths:
        problems = verify_problems(path)
        entry = expected.get(path)
        if entry and not problems:
            meta = read_meta(path)
            if meta["fingerprint"] != entry["fingerprint"]:
                problems.append("fingerprint differs from MANIFEST.json (stale manifest?)")
            for name, arr in entry["arrays"].items():
                if meta["arrays"].get(name, {}).get("sha256") != arr["sha256"]:
                    problems.append(f"array {name!r}: sha256 differs from MANIFEST.json")
        if problems:
            bad += 1
            console.print(f"[red]FAIL[/] {path}", highlight=False, soft_wrap=True)
            for problem in problems:
                console.print(f"  - {problem}", highlight=False, soft_wrap=True)
        else:
            click.echo(f"OK   {path}")
    if bad:
        click.echo(f"{bad} of {len(paths)} artifact(s) failed verification", err=True)
        sys.exit(1)


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


@main.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the raw metadata as JSON.")
def info(path: Path, as_json: bool) -> None:
    """Show an artifact's schema, rules, params, statistics and arrays."""
    from rich.console import Console
    from rich.table import Table

    from lookup.store import describe

    meta, arrays = describe(path)
    if as_json:
        click.echo(json.dumps(meta, indent=2, sort_keys=True))
        return
    # stdout: info is the command's output, not a status line; piped output keeps whole table rows.
    con = Console(width=None if sys.stdout.isatty() else 160)
    con.print(f"[bold]{path}[/]")
    con.print(f"schema      {meta['schema']} v{meta['schema_version']}   game {meta['game']}")
    con.print(f"fingerprint {meta['fingerprint']}   package {meta['package_version']}")
    con.print(f"rules       {json.dumps(meta['rules'], sort_keys=True)}", soft_wrap=True)
    con.print(f"params      {json.dumps(meta['params'], sort_keys=True)}", soft_wrap=True)
    for key, value in meta.get("stats", {}).items():
        shown = json.dumps(value) if not isinstance(value, float) else f"{value:.10g}"
        con.print(f"stat        {key} = {shown[:200]}", soft_wrap=True)
    table = Table("array", "shape", "dtype", "chunks", "shards", "stored", "codecs")
    for a in arrays:
        table.add_row(a.name, str(a.shape), a.dtype, str(a.chunks), str(a.shards), _size(a.stored_bytes),
                      a.codecs)
    con.print(table)


@main.command()
@artifacts_option
def summary(artifacts_dir: Path | None) -> None:
    """What is built (from the manifest), and one example query."""
    from lookup.store import load_manifest

    root = artifacts_root(artifacts_dir)
    entries = load_manifest(root)["artifacts"]
    files = sum(e["files"] for e in entries)
    size = sum(e["bytes"] for e in entries)
    click.echo(f"{len(entries)} artifacts in {root}: {files} files, {_size(size)}")
    for e in entries:
        click.echo(f"  {e['path']:<40} {e['schema']} v{e['schema_version']}  {_size(e['bytes'])}")
    from lookup.dicerace import probabilities

    dist = probabilities(3, artifacts_dir=root)
    click.echo("example: lookup.dicerace.probabilities(3).p[1] = "
               f"{dist.p[1]:.12f} (exactly 91/216 = {91 / 216:.12f}): three dice show a 1")
    if (root / "yahtzee-hasbro-policy.zarr").exists():
        from lookup.yahtzee import decide

        decision = decide([1, 3, 3, 5, 6], 2, {"ones": 3, "chance": 22}, artifacts_dir=root)
        click.echo("example: lookup.yahtzee.decide([1, 3, 3, 5, 6], rerolls=2, sheet={'ones': 3, 'chance': 22})"
                   f"\n  -> {decision}")


def _register_games() -> None:
    """Each game's click group ``cli`` becomes ``dicetables GAME``; one line per game."""
    from pipeline.dicerace.cli import cli as dicerace
    from pipeline.g151.cli import cli as g151
    from pipeline.web.cli import serve
    from pipeline.yahtzee.cli import cli as yahtzee
    from pipeline.yahtzee_lab.cli import cli as yahtzee_lab

    for group in (dicerace, g151, yahtzee):
        main.add_command(group)
    main.add_command(serve)
    # The strategy lab plays Yahtzee: its commands stand in the game's group (`dicetables yahtzee match`).
    for name, command in yahtzee_lab.commands.items():
        yahtzee.add_command(command, name)


_register_games()
