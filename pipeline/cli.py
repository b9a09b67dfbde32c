"""The ``dicetables`` command: build, verify and inspect the tables, and query them."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from lookup.words import counted
from pipeline.cli_options import artifacts_option, artifacts_root, files_root, params_option
from pipeline.progress import say, set_quiet


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
    from lookup.environment import check_environment

    set_quiet(quiet)
    check_environment()  # a bad $DICETABLES_* is a message and exit status 1, before anything runs



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
        params = load_params(params_path)
        for name, fam in registry.families(params).items():
            click.echo(f"{name}\tparams: {fam.section}\tcode: {', '.join(fam.code_files(params[fam.section]))}")
        return
    registry.build(list(family_names), params_path=params_path, artifacts_dir=files_root(artifacts_dir, "build"),
                 force=force, manifest=not no_manifest)


@main.command()
@artifacts_option
def manifest(artifacts_dir: Path | None) -> None:
    """Regenerate artifacts/MANIFEST.json from the artifacts present, each verified first unless the manifest
    already lists it as it is (how a family built with --no-manifest is registered)."""
    from pipeline.store import write_manifest

    say(f"wrote {write_manifest(files_root(artifacts_dir, 'manifest'))}")


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=300.0, show_default=True,
              help="Seconds allowed per artifact; one that takes longer is reported as failed.")
@click.option("--repair", is_flag=True, help="First do what `dicetables clean` does (restore an artifact an "
              "interrupted publish moved aside, remove dead writers' leftovers), then check.")
@artifacts_option
def verify(paths: tuple[Path, ...], timeout: float, repair: bool, artifacts_dir: Path | None) -> None:
    """Make every check a reader makes on PATHS (default: the whole artifacts directory), every checksum
    recomputed; exit 1 on any problem.

    Each artifact is held to the MANIFEST.json beside it, as lookup holds it (unless $DICETABLES_TRUST is
    "artifact"). Without PATHS, what is on disk is checked, not only what MANIFEST.json lists: every NAME.zarr /
    NAME.h5 present or listed (missing, not in the manifest, symlinked, damaged), and every .tmp-* /
    .old-* leftover of a publish (with its size; a live writer's or a dead one's). One line each on stdout:
    ``OK   PATH`` or ``FAIL PATH: problem; problem``. Nothing is changed unless --repair.
    """
    from pipeline.store import clean as clean_dir
    from pipeline.verify import check_directory, verify_paths

    root = files_root(artifacts_dir, "verify")
    for folder in sorted({p.parent for p in paths} if paths else {root}) if repair else ():
        for path, size in clean_dir(folder):
            click.echo(f"repaired: removed or restored {path} ({_size(size)})", err=True)
    if paths:
        results = verify_paths(paths, timeout)
    else:
        results = check_directory(root, timeout)
    bad = checked = 0
    for path, problems in results:
        checked += 1
        if problems:
            bad += 1
            click.echo(f"FAIL {path}: " + "; ".join(p.replace("\n", " ") for p in problems))
        else:
            click.echo(f"OK   {path}")
    if not checked:
        raise click.ClickException(f"{root}: no artifacts, nothing listed in its MANIFEST.json, nothing to verify")
    if bad:
        click.echo(f"{counted(bad, 'problem')} in {counted(checked, 'item')} checked", err=True)
        sys.exit(1)


@main.command()
@artifacts_option
def clean(artifacts_dir: Path | None) -> None:
    """Remove what killed builds left (.tmp-*, .old-* of writers that are gone; an .old-* whose artifact is
    missing is renamed back; a live writer's are kept), and the .runtime/ copies older versions made."""
    from pipeline.store import clean as clean_dir

    root = files_root(artifacts_dir, "clean")
    removed = clean_dir(root)
    for path, size in removed:
        click.echo(f"removed {path} ({_size(size)})")
    click.echo(f"cleaned {root}: {counted(len(removed), 'item')}, {_size(sum(s for _, s in removed))}")


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


def _default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


@main.command()
@click.argument("stages", nargs=-1)
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Stages run at once [default: the CPUs this process may use].")
@click.option("--force", is_flag=True, help="Run every planned stage even if DVC finds it up to date.")
@click.option("--dry", is_flag=True, help="Print what would run, in start order, and exit.")
@click.option("--root", type=click.Path(file_okay=False, exists=True, path_type=Path), default=Path("."),
              show_default=True, help="A directory inside the DVC project (its root is found upwards).")
def repro(stages: tuple[str, ...], jobs: int | None, force: bool, dry: bool, root: Path) -> None:
    """Bring the DVC pipeline up to date, several stages at once (default: every stage).

    Like `dvc repro STAGES`, but independent stages run in parallel (pipeline/repro.py says how).
    """
    import time

    from pipeline import repro as parallel

    started = time.monotonic()
    plan = parallel.make_plan(root, stages, force=force)
    if dry:
        for name in plan.stages:
            after = ", ".join(sorted(plan.upstream[name])) or "-"
            click.echo(f"{name}\tafter: {after}\test. {plan.priority[name]:.0f} s to the end of its chain")
        return
    if not plan.stages:
        say("Everything is up to date.")
        return
    jobs = jobs or _default_jobs()
    say(f"{counted(len(plan.stages), 'stage')} to run, {jobs} at a time")
    try:
        parallel.run(plan, jobs, say)
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from exc
    left = parallel.stale(plan.root) if not stages else []
    if left:
        raise click.ClickException(f"dvc status still reports changed stages: {', '.join(left)}")
    say(f"pipeline up to date in {time.monotonic() - started:.0f} s")


@main.command()
@artifacts_option
def summary(artifacts_dir: Path | None) -> None:
    """What is built (from the manifest), and one example query."""
    from lookup.store import artifact_files, load_manifest

    root = files_root(artifacts_dir, "summary")
    entries = load_manifest(root)["artifacts"]
    files = {e["path"]: artifact_files(root / e["path"]) for e in entries}
    sizes = {name: sum(f.stat().st_size for f in found) for name, found in files.items()}
    click.echo(f"{len(entries)} artifacts in {root}: {sum(map(len, files.values()))} files, "
               f"{_size(sum(sizes.values()))}")
    for e in entries:
        click.echo(f"  {e['path']:<40} {e['schema']} v{e['schema_version']}  {_size(sizes[e['path']])}")
    if not (root / "dicerace-probabilities.zarr").exists():
        return
    from lookup.dicerace import probabilities

    dist = probabilities(3, artifacts_dir=root)
    click.echo("example: lookup.dicerace.probabilities(3).p[1] = "
               f"{dist.p[1]:.12f} (exactly 91/216 = {91 / 216:.12f}): three dice show a 1")
    if (root / "yahtzee-hasbro-policy.zarr").exists():
        from lookup.yahtzee import decide

        decision = decide([1, 3, 3, 5, 6], 2, {"ones": 3, "chance": 22}, artifacts_dir=root)
        click.echo("example: lookup.yahtzee.decide([1, 3, 3, 5, 6], rerolls=2, sheet={'ones': 3, 'chance': 22})"
                   f"\n  -> {decision}")


@main.command("compile")
@click.argument("games", nargs=-1)
@click.option("--jobs", "-j", type=click.IntRange(min=1, max=64), default=2, show_default=True,
              help="Games compiled at once, each in a process of its own.")
@click.option("--force", is_flag=True, help="Compile again even the games already compiled for this code.")
def compile_(games: tuple[str, ...], jobs: int, force: bool) -> None:
    """Compile every game's numba kernels (or GAMES') into numba's cache for the current code, so that no
    test compiles and poker's equity uses its numba engine (pipeline/warm.py); `make test` runs it first. Returns at
    once when nothing changed."""
    import time

    from pipeline.warm import cache_dir, compile_all

    start = time.perf_counter()
    try:
        done = compile_all(games, jobs=jobs, force=force, report=say)
    except ValueError as exc:  # an unknown game
        raise click.UsageError(str(exc)) from None
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None
    if done:
        say(f"compiled {counted(len(done), 'game')} in {time.perf_counter() - start:.1f} s into {cache_dir()}")
    else:
        say("every game's kernels are already compiled for this code")


@main.command("dvc-yaml")
@params_option
@click.option("--write", is_flag=True, help="Write the project's dvc.yaml instead of printing it.")
def dvc_yaml(params_path: Path | None, write: bool) -> None:
    """Print dvc.yaml as the games' declarations (pipeline/<game>/game.py) and params.yaml make it."""
    from pipeline.dvc_yaml import DVC_YAML, generate
    from pipeline.family import DEFAULT_PARAMS

    text = generate(params_path or DEFAULT_PARAMS)
    if not write:
        click.echo(text, nl=False)
        return
    DVC_YAML.write_text(text)
    say(f"wrote {DVC_YAML}")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback by default).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes (each maps the tables; see docs/web.md \"Load\" for 1 vs 2).")
@artifacts_option
def serve(host: str, port: int, workers: int, artifacts_dir: Path | None) -> None:
    """Serve the JSON API (OpenAPI at /docs) and the advisor page at http://HOST:PORT/ (the web app, webapp/).

    Its settings are checked before it starts (a bad one is a message and exit status 1, not a server that
    answers every request with an error): the environment (``dicetables``'s own check), the artifacts directory
    (a directory, with its MANIFEST.json unless $DICETABLES_TRUST is "artifact"), the address."""
    import socket

    import uvicorn

    from lookup.remote import remote_root
    from lookup.store import load_manifest, trust_mode

    root = remote_root(artifacts_root(artifacts_dir)) or artifacts_root(artifacts_dir).resolve()
    if remote_root(root) is None and not root.is_dir():
        raise ValueError(f"{root}: the artifacts directory is not a directory (build the tables first: make run; or "
                         "name it with --artifacts or $DICETABLES_ARTIFACTS)")
    if trust_mode() == "manifest":
        load_manifest(root)  # an ArtifactError naming the file (over HTTP, the URL) and its first problem
    try:
        socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise ValueError(f"--host {host!r}: not an address this machine can listen on ({exc})") from None
    # Workers are separate processes: they find the artifacts through the environment.
    os.environ["DICETABLES_ARTIFACTS"] = str(root)
    click.echo(f"dicetables serving {root} on http://{host}:{port}/ (API docs at /docs)")
    # httptools and uvloop are dependencies: named here so a missing one fails loudly instead of uvicorn
    # falling back to its pure-Python parser (about half the requests per second, docs/web.md "Load"). The
    # protocol is uvicorn's httptools one with a deadline on request headers (webapp/server.py); an idle
    # keep-alive connection is closed after 5 s, a body must arrive within 10 s (docs/web.md, "Limits").
    uvicorn.run("webapp.app:create_app", factory=True, host=host, port=port, workers=workers,
                http="webapp.server:TimedHttpToolsProtocol", loop="uvloop", timeout_keep_alive=5,
                log_level="warning", access_log=False)


@main.command("export-site")
@click.argument("out_dir", metavar="DIR", type=click.Path(path_type=Path))
@click.option("--rules", "rules_name", default="hasbro", show_default=True,
              help="Rule set: one whose value and policy tables are built (yahtzee-RULES-values/-policy).")
@artifacts_option
def export_site(out_dir: Path, rules_name: str, artifacts_dir: Path | None) -> None:
    """Write a static site into DIR (empty or new) that plays and advises a whole Yahtzee game in the browser alone:
    the page, the JavaScript advisor, the rule set's value and policy tables (verified, copied unchanged) and a
    service worker so that it works offline once visited. Serve DIR with any static server that answers range
    requests (docs/js.md, "A static advisor: dicetables export-site")."""
    from pipeline.site import export_site as write_site

    out = write_site(out_dir, files_root(artifacts_dir, "export-site"), rules_name)
    click.echo(f"wrote {out} ({rules_name}): serve it over http(s), e.g. with a static server answering ranges")


def _register_games() -> None:
    """Each declared game's click group becomes ``dicetables GAME`` (a group of its own when it declares none),
    with its report commands and, for a game registered in ``lookup`` (``lookup.games``), the protocol's commands
    (``pipeline.protocol_cli``: a command of the game's own under the same name is kept); a package that extends
    a game (the strategy lab) adds its commands and reports to that game's group."""
    from lookup.games import names
    from pipeline.cli_options import report_command
    from pipeline.declaration import declarations, resolve
    from pipeline.protocol_cli import protocol_commands

    for game in declarations():
        group = resolve(game.cli) if game.cli else click.Group(game.game_name, help=_group_help(game.game_name))
        if not isinstance(group, click.Group) or group.name != game.game_name:
            raise TypeError(f"{game.cli}: expected a click group named {game.game_name!r}")
        target = main.commands.get(game.game_name)
        if target is None:
            main.add_command(group)
            target = group
        elif target is not group:
            for name, command in group.commands.items():
                target.add_command(command, name)
        for report in game.reports:
            command = report_command(game.report_out(report), report.module, report.help,
                                     section=game.report_section(report), options=report.options)
            for name in (report.command, *report.aliases):
                target.add_command(command, name)
    for name in names():
        group = main.commands[name]
        for command in protocol_commands(name):
            if command.name not in group.commands:
                group.add_command(command)


def _group_help(game: str) -> str:
    return f"The {game} tables: setups, advise, review, play and simulate (`dicetables {game} setups`)."


_register_games()
