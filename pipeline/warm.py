"""Compiling every game's numba kernels once per version of the code, before anything needs them:
``dicetables compile`` (run by ``make test`` before its tests; ``make run``'s stages compile what they use).

Why: numba compiles a kernel the first time it is called with new argument types and keeps the machine code in
its on-disk cache (``NUMBA_CACHE_DIR``, keyed by the code: ``pipeline.code_stamp``). Left to the first call, the
compiling happens inside the stages and tests that call first, on both cores at once for the same kernel
(two stages of one game, two pytest workers), and in a user's first ``poker equity`` against its time budget.
Done here, each game compiles once, the games in parallel, and every later call loads machine code.

Each game declares how (``GameDeclaration.warm``, a ``WarmUp``): the params of its smallest instance, whose
families and reports this builds into a temporary directory (the real code paths, so the compiled signatures
are those of the real calls), then optionally one more function of the game for kernels no build calls.
A game done for the current code leaves a mark ``warm-<game>`` in the cache directory, so a second
``dicetables compile`` returns at once.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path

from pipeline.declaration import GameDeclaration, declarations, resolve


def cache_dir() -> Path:
    """numba's cache directory for the current code (set by ``pipeline`` on import)."""
    return Path(os.environ["NUMBA_CACHE_DIR"])


def _mark(game: str) -> Path:
    return cache_dir() / f"warm-{game}"


def warm_games() -> list[GameDeclaration]:
    """The declarations that have kernels to compile, the longest warm-up first (so two processes finish
    together)."""
    games = [g for g in declarations() if g.warm is not None]
    return sorted(games, key=lambda g: -g.warm.seconds)


def warm_one(name: str, quiet: bool = True) -> float:
    """Compile game ``name``'s kernels and mark it done; returns the seconds taken. Builds the warm-up's
    families (default: every one its params define) and writes every report of the game (and of the packages
    that extend it) into a temporary directory, then calls the warm-up's ``then(artifacts_dir)``. ``quiet``: no
    progress bars (two games at a time would interleave theirs; ``compile_all`` reports each game instead)."""
    from pipeline import registry
    from pipeline.family import load_params
    from pipeline.progress import set_quiet

    set_quiet(quiet)
    game = next(g for g in declarations() if g.name == name)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"dicetables-warm-{name}-") as tmp:
        root = Path(tmp)
        (root / "params.yaml").write_text(game.warm.params)
        params = load_params(root / "params.yaml")
        artifacts = root / "artifacts"
        registry.build(list(game.warm.families) or None, params_path=root / "params.yaml", artifacts_dir=artifacts)
        for owner in declarations():
            if owner.game_name != name:
                continue
            for report in owner.reports:
                if owner.report_section(report) in params and not game.warm.families:
                    write = resolve(f"{report.module}:write_report")
                    write(params[owner.report_section(report)], artifacts, root / "reports" / owner.report_out(report))
        if game.warm.then:
            resolve(game.warm.then)(artifacts)
    seconds = time.perf_counter() - start
    _mark(name).parent.mkdir(parents=True, exist_ok=True)
    _mark(name).write_text(f"{seconds:.1f}\n")
    return seconds


def compile_all(names: Sequence[str] = (), jobs: int = 2, force: bool = False,
                report: Callable[[str], None] = print) -> dict[str, float]:
    """Compile the kernels of the games ``names`` (default: every game that declares a warm-up) not yet
    compiled for this code (all of them with ``force``), ``jobs`` games at a time, each in a process of its own;
    returns the seconds each took. ``report`` gets one line per game."""
    games = warm_games()
    known = {g.name for g in games}
    unknown = sorted(set(names) - known)
    if unknown:
        raise ValueError(f"no kernels declared for {', '.join(unknown)}; "
                         f"games with kernels: {', '.join(sorted(known))}")
    todo = [g.name for g in games if (not names or g.name in names) and (force or not _mark(g.name).exists())]
    done: dict[str, float] = {}
    if not todo:
        return done
    report(f"compiling the numba kernels of {', '.join(todo)} ({min(jobs, len(todo))} at a time; minutes with an "
           "empty cache)")
    with ProcessPoolExecutor(max_workers=max(1, min(jobs, len(todo))), mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(warm_one, name): name for name in todo}
        for future in as_completed(futures):
            name = futures[future]
            try:
                done[name] = future.result()
            except Exception as exc:  # the warm-up of a game failed: a bug to report, with the game's name
                raise RuntimeError(f"compiling {name}'s kernels failed: {type(exc).__name__}: {exc}") from exc
            report(f"{name}: compiled in {done[name]:.1f} s")
    return done
