"""Run the DVC pipeline with several stages at once.

DVC reproduces one stage at a time (parallel execution is its open issue treeverse/dvc#755; the last
release of `dask4dvc`, 0.2.3 of April 2023, predates DVC 3). Its documented way to run independent
stages together is one ``dvc repro`` process per stage: the repo lock is held only while a stage is
checked and committed, not while its command runs. This module does exactly that and nothing more: it
reads the stage graph and what changed from DVC itself, starts ``dvc --wait-for-lock repro --single-item
STAGE`` for every changed stage (and every stage downstream of one) once all its upstream stages have
finished, at most ``jobs`` at a time, and checks with ``dvc status`` at the end that nothing is left to
reproduce. DVC still decides what is stale, runs each command, hashes its outputs and writes
``dvc.lock``; the results are the same as ``dvc repro`` (the stage commands are deterministic), only
sooner.

Measured need (docs/benchmarks.md, "make run"): on a fresh clone the stages used ~1.3 of the 2 cores
one after another; two at a time fill both.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from lookup.words import noun_for

DEFAULT_COST = 5.0  # seconds assumed for a stage whose dvc.yaml entry has no `meta: {seconds: N}`


@dataclass(frozen=True)
class Plan:
    """The stages to run, in dvc.yaml order, with the upstream stages each waits for.

    ``upstream[s]`` holds only stages that are themselves in the plan (the others are up to date).
    ``priority[s]`` is the estimated seconds from the start of ``s`` to the end of the longest chain of
    planned stages below it (its own cost included); ready stages start in decreasing priority, so
    that long chains start first.
    """

    stages: tuple[str, ...]
    upstream: dict[str, frozenset[str]]
    priority: dict[str, float]
    root: Path = Path(".")  # the DVC project's root, where each stage's `dvc repro` runs


def _cost(stage: object) -> float:
    meta = getattr(stage, "meta", None)
    seconds = meta.get("seconds") if isinstance(meta, dict) else None
    if seconds is None:
        return DEFAULT_COST
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
        raise ValueError(f"dvc.yaml: stage {stage.addressing!r}: meta.seconds must be a non-negative "
                         f"number, got {seconds!r}")
    return float(seconds)


def make_plan(root: Path, targets: Iterable[str] = (), force: bool = False) -> Plan:
    """What must run for ``targets`` (default: every stage) to be up to date, from DVC's own view.

    A stage runs when ``dvc status`` reports it changed (or ``force``), or when a stage it depends on
    runs. ``targets`` restricts the plan to those stages and the stages they depend on; an unknown
    name is a ``ValueError``.
    """
    import networkx as nx
    from dvc.exceptions import NotDvcRepoError
    from dvc.repo import Repo

    try:
        repo = Repo(str(root))
    except NotDvcRepoError as exc:
        raise ValueError(f"{Path(root).resolve()}: not inside a DVC project (no .dvc directory here or above)") from exc
    with repo:
        project = Path(repo.root_dir)
        graph = repo.index.graph  # an edge a -> b: stage a depends on stage b
        stages = {stage.name: stage for stage in repo.index.stages}
        if len(stages) != len(repo.index.stages):
            raise ValueError("two dvc.yaml files name a stage alike; run dvc repro instead")
        by_object = {stage: stage.name for stage in graph.nodes}
        by_address = {stage.addressing: stage.name for stage in repo.index.stages}
        wanted = set(stages)
        if targets:
            unknown = sorted(set(targets) - set(stages))
            if unknown:
                raise ValueError(f"unknown {noun_for(len(unknown), 'stage')} {', '.join(unknown)}; "
                                 f"dvc.yaml has: {', '.join(stages)}")
            wanted = set()
            for name in targets:
                wanted.add(name)
                wanted.update(by_object[s] for s in nx.descendants(graph, stages[name]))
        changed = set(stages) if force else {by_address[key] for key in repo.status()}
        run = set()
        for name in changed & wanted:
            run.add(name)
            run.update(by_object[s] for s in nx.ancestors(graph, stages[name]))
        run &= wanted
        order = tuple(name for name in stages if name in run)
        upstream = {name: frozenset(by_object[s] for s in graph.successors(stages[name])) & run for name in order}
        cost = {name: _cost(stages[name]) for name in order}
    priority: dict[str, float] = {}
    downstream = {name: [d for d in order if name in upstream[d]] for name in order}
    for name in reversed(_topological(order, upstream)):
        priority[name] = cost[name] + max((priority[d] for d in downstream[name]), default=0.0)
    return Plan(order, upstream, priority, project)


def _topological(order: tuple[str, ...], upstream: dict[str, frozenset[str]]) -> list[str]:
    done: list[str] = []
    left = list(order)
    while left:
        ready = [name for name in left if upstream[name] <= set(done)]
        if not ready:
            raise ValueError(f"dvc.yaml: the stages {', '.join(left)} depend on each other in a cycle")
        done.extend(ready)
        left = [name for name in left if name not in ready]
    return done


@dataclass
class _Running:
    name: str
    process: subprocess.Popen[str]
    started: float
    output: list[str] = field(default_factory=list)
    reader: threading.Thread | None = None


def _start(name: str, root: Path, env: dict[str, str]) -> _Running:
    cmd = [sys.executable, "-m", "dvc", "--wait-for-lock", "repro", "--single-item", name]
    process = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace")
    job = _Running(name, process, time.monotonic())

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            job.output.append(line)

    job.reader = threading.Thread(target=read, daemon=True)
    job.reader.start()
    return job


def run(plan: Plan, jobs: int, say: Callable[[str], None]) -> dict[str, float]:
    """Run the plan's stages, at most ``jobs`` at once; returns each stage's wall seconds.

    The stage commands find ``dicetables`` and ``dvc`` on PATH: the directory of this Python comes
    first. On a failure no further stage starts; the running ones finish (stopping DVC mid-commit would
    leave its locks), then a ``RuntimeError`` names the stage and carries its output.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    waiting = list(plan.stages)
    running: list[_Running] = []
    done: set[str] = set()
    seconds: dict[str, float] = {}
    failed: _Running | None = None
    total = len(plan.stages)
    while waiting or running:
        if failed is None:
            ready = [name for name in waiting if plan.upstream[name] <= done]
            ready.sort(key=lambda name: -plan.priority[name])
            for name in ready[: jobs - len(running)]:
                waiting.remove(name)
                running.append(_start(name, plan.root, env))
                say(f"[{len(done) + len(running)}/{total}] {name} started")
        elif not running:
            break
        time.sleep(0.05)
        for job in list(running):
            code = job.process.poll()
            if code is None:
                continue
            assert job.reader is not None
            job.reader.join()
            running.remove(job)
            seconds[job.name] = time.monotonic() - job.started
            if code == 0:
                done.add(job.name)
                say(f"  {job.name} done in {seconds[job.name]:.1f} s")
            elif failed is None:
                failed = job
                say(f"  {job.name} FAILED (exit {code}); waiting for the running stages to finish")
    if failed is not None:
        raise RuntimeError(f"stage {failed.name} failed:\n{''.join(failed.output[-40:])}")
    return seconds


def stale(root: Path) -> list[str]:
    """Stages ``dvc status`` still reports changed (empty when the pipeline is up to date)."""
    from dvc.repo import Repo

    with Repo(str(root)) as repo:
        by_address = {stage.addressing: stage.name for stage in repo.index.stages}
        return sorted(by_address.get(key, key) for key in repo.status())
