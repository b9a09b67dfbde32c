"""`dicetables repro`: DVC stages run in parallel, in dependency order, and leave the project up to date.

A throw-away DVC project (no git) with a chain a -> b and an independent stage c; each command records
when it started and ended, so the order is checked from what the commands saw, and DVC's own
`dvc status` says whether anything is left to reproduce.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import main

STEP = ("python -c \"import sys, time; t = time.time(); time.sleep({sleep}); "
        "src = [open(p).read() for p in sys.argv[2:]]; "
        "open(sys.argv[1], 'w').write(f'{{t}} {{time.time()}} ' + '|'.join(src))\"")


def _stage(name: str, deps: list[str], sleep: float = 0.3, seconds: float | None = None,
           fail: bool = False) -> str:
    cmd = STEP.format(sleep=sleep) + f" {name}.out " + " ".join(deps)
    if fail:
        cmd = "python -c \"raise SystemExit('stage c is broken')\""
    lines = [f"  {name}:", f"    cmd: {cmd}"]
    if deps:
        lines += ["    deps:"] + [f"      - {d}" for d in deps]
    lines += ["    outs:", f"      - {name}.out"]
    if seconds is not None:
        lines += ["    meta:", f"      seconds: {seconds}"]
    return "\n".join(lines)


def _project(tmp_path: Path, c_fails: bool = False, a_seconds: object = 3) -> Path:
    (tmp_path / "input.txt").write_text("x")
    stages = [_stage("a", ["input.txt"], seconds=a_seconds), _stage("b", ["a.out"]), _stage("c", [], fail=c_fails)]
    (tmp_path / "dvc.yaml").write_text("stages:\n" + "\n".join(stages) + "\n")
    subprocess.run([sys.executable, "-m", "dvc", "init", "--no-scm", "-q"], cwd=tmp_path, check=True)
    return tmp_path


def _times(path: Path) -> tuple[float, float]:
    start, end, *_ = path.read_text().split()
    return float(start), float(end)


def _status(root: Path) -> str:
    return subprocess.run([sys.executable, "-m", "dvc", "status"], cwd=root, capture_output=True, text=True,
                          check=True).stdout


def test_runs_in_dependency_order_and_leaves_nothing_stale(tmp_path):
    root = _project(tmp_path)
    runner = CliRunner()
    dry = runner.invoke(main, ["repro", "--root", str(root), "--dry"])
    assert dry.exit_code == 0, dry.output
    planned = [line.split("\t")[0] for line in dry.output.splitlines()]
    assert planned == ["a", "b", "c"]
    result = runner.invoke(main, ["repro", "--root", str(root), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    a_start, a_end = _times(root / "a.out")
    b_start, _ = _times(root / "b.out")
    assert b_start >= a_end  # b read a's output only once a had written it
    assert (root / "b.out").read_text().endswith((root / "a.out").read_text())
    assert "Data and pipelines are up to date" in _status(root)
    lock = (root / "dvc.lock").read_text()
    assert all(f"  {name}:" in lock for name in "abc")
    again = runner.invoke(main, ["repro", "--root", str(root)])
    assert again.exit_code == 0 and "Everything is up to date" in again.output


def test_only_what_changed_and_its_downstream_runs(tmp_path):
    root = _project(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["repro", "--root", str(root)]).exit_code == 0
    (root / "input.txt").write_text("y")
    dry = runner.invoke(main, ["repro", "--root", str(root), "--dry"])
    assert [line.split("\t")[0] for line in dry.output.splitlines()] == ["a", "b"]
    # A target limits the plan to it and what it depends on.
    dry_a = runner.invoke(main, ["repro", "--root", str(root), "--dry", "a"])
    assert [line.split("\t")[0] for line in dry_a.output.splitlines()] == ["a"]


def test_priority_follows_the_longest_chain(tmp_path):
    from pipeline.repro import make_plan

    plan = make_plan(_project(tmp_path, a_seconds=30))
    # a (30 s, meta) then b (default 5 s) is the long chain: a starts before c.
    assert plan.priority["a"] == pytest.approx(35.0) and plan.priority["c"] == pytest.approx(5.0)


def test_failure_names_the_stage_and_stops_its_downstream(tmp_path):
    root = _project(tmp_path, c_fails=True)
    result = CliRunner().invoke(main, ["repro", "--root", str(root), "--jobs", "1"])
    assert result.exit_code == 1
    assert "stage c failed" in result.output and "stage c is broken" in result.output


def test_bad_meta_seconds_is_refused(tmp_path):
    root = _project(tmp_path)
    good = (root / "dvc.yaml").read_text()
    for bad in ("-1", "true", "'ten'"):
        (root / "dvc.yaml").write_text(good.replace("seconds: 3", f"seconds: {bad}"))
        result = CliRunner().invoke(main, ["repro", "--root", str(root), "--dry"])
        assert result.exit_code == 1 and "meta.seconds must be a non-negative number" in result.output, bad


def test_unknown_stage_and_bad_jobs(tmp_path):
    root = _project(tmp_path)
    runner = CliRunner()
    unknown = runner.invoke(main, ["repro", "--root", str(root), "nope"])
    assert unknown.exit_code == 1 and "unknown stage nope" in unknown.output
    assert runner.invoke(main, ["repro", "--root", str(root), "--jobs", "0"]).exit_code == 2
    outside = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    outside.mkdir()
    refused = runner.invoke(main, ["repro", "--root", str(outside), "--dry"])
    assert refused.exit_code == 1 and "not inside a DVC project" in refused.output


def test_runs_from_a_subdirectory_at_the_project_root(tmp_path):
    from pipeline.repro import make_plan

    root = _project(tmp_path)
    (root / "sub").mkdir()
    plan = make_plan(root / "sub")
    assert plan.root == root and plan.stages == ("a", "b", "c")

