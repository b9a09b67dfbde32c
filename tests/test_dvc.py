"""The DVC pipeline: dvc.yaml is what the games' declarations generate, its stage deps mirror the
fingerprinted code; a fresh clone builds, then no-ops."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pipeline import dvc_yaml, registry
from pipeline.cli import main
from pipeline.code_deps import closure
from pipeline.declaration import Stage, declarations
from pipeline.family import load_params
from pipeline.store import WRITER

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _stage_table() -> dict:
    return yaml.safe_load((ROOT / "dvc.yaml").read_text())["stages"]


def test_the_committed_dvc_yaml_is_what_the_declarations_generate():
    assert (ROOT / "dvc.yaml").read_text() == dvc_yaml.generate(), \
        "dvc.yaml differs from the games' declarations: run `dicetables dvc-yaml --write` and commit it"
    out = CliRunner().invoke(main, ["dvc-yaml"])
    assert out.exit_code == 0, out.output
    assert out.output == (ROOT / "dvc.yaml").read_text()


def test_every_family_has_a_stage_whose_deps_are_its_fingerprinted_code():
    params = load_params()
    table, _ = dvc_yaml.stages(params)
    for name, family in registry.families(params).items():
        stage = table[name]
        assert stage["cmd"].endswith(f"build --params params.yaml --artifacts artifacts --no-manifest {name}")
        # pipeline/layout.py (how arrays are stored) is hashed into every fingerprint.
        upstream = {f"artifacts/{u}" for u in family.upstream}
        code = set(family.code_files(params[family.section]))
        assert "pipeline/layout.py" in code and set(stage["deps"]) == code | upstream, name
        assert all(p.split(".")[0] == family.section for p in stage.get("params", [])), name
    outs = {o for name, s in table.items() if name != "manifest" for o in s["outs"]}
    assert set(table["manifest"]["deps"]) == outs | set(closure((WRITER,)))  # and the code that writes it


def test_the_generator_refuses_what_dvc_would_run_wrongly(monkeypatch):
    params = load_params()
    games = declarations()
    g151 = next(g for g in games if g.name == "g151")
    undeclared = replace(g151, stages={"g151-stated": g151.stages["g151-stated"]})
    monkeypatch.setattr(dvc_yaml, "declarations", lambda: (*(g for g in games if g is not g151), undeclared))
    with pytest.raises(ValueError, match="'g151-straights' has no stage declared in pipeline/g151/game.py"):
        dvc_yaml.stages(params)
    reads_nothing = replace(g151, reports=(replace(g151.reports[0], artifacts=("g151-nothing.zarr",)),))
    monkeypatch.setattr(dvc_yaml, "declarations", lambda: (*(g for g in games if g is not g151), reads_nothing))
    with pytest.raises(ValueError, match="no stage writes"):
        dvc_yaml.stages(params)
    outside = replace(g151, stages={"g151-*": Stage(params=("dicerace.grid",))})
    monkeypatch.setattr(dvc_yaml, "declarations", lambda: (*(g for g in games if g is not g151), outside))
    with pytest.raises(ValueError, match="outside its params section 'g151'"):
        dvc_yaml.stages(params)


def test_committed_lock_is_current_for_code_params_and_commands():
    """The cheap half of test_dvc_repro_on_a_fresh_clone (which `make test-full` runs): every stage of dvc.lock
    is a stage of dvc.yaml with the same command, each of its code deps has the md5 and size DVC recorded, and
    each of its params has the value params.yaml gives. (That a fresh full build reproduces the recorded
    outputs byte for byte needs the full build: test_dvc_repro_on_a_fresh_clone.)"""
    lock = yaml.safe_load((ROOT / "dvc.lock").read_text())["stages"]
    table = _stage_table()
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    assert set(lock) == set(table)
    stale = []
    for name, stage in lock.items():
        assert stage["cmd"].split() == table[name]["cmd"].split(), name
        for dep in stage.get("deps", []):
            path = ROOT / dep["path"]
            if dep["path"].startswith("artifacts/"):
                continue  # an output of another stage: its hash is that stage's, checked by the full build
            assert dep["hash"] == "md5", (name, dep)
            data = path.read_bytes()
            if (hashlib.md5(data).hexdigest(), len(data)) != (dep["md5"], dep["size"]):
                stale.append(f"{name}: {dep['path']}")
        for key, recorded in stage.get("params", {}).get("params.yaml", {}).items():
            value = params
            for part in key.split("."):
                value = value[part]
            if value != recorded:
                stale.append(f"{name}: params {key}")
    assert not stale, f"dvc.lock is stale (run `dicetables repro` and commit dvc.lock): {stale}"


def _copy_worktree(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    subprocess.run([*git, "add", "-A"], cwd=dest, check=True)
    subprocess.run([*git, "commit", "-qm", "clone"], cwd=dest, check=True)


def _repro(cwd: Path) -> str:
    # No DICETABLES_ARTIFACTS: the stages must write into the clone by their own arguments.
    env = {k: v for k, v in os.environ.items() if k != "DICETABLES_ARTIFACTS"}
    env["PATH"] = f"{BIN}{os.pathsep}{os.environ['PATH']}"
    done = subprocess.run([str(BIN / "dvc"), "repro"], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


@pytest.mark.full  # the whole default pipeline (~465 CPU-s, 4-7 min alone): `make test-full`, run by CI
@pytest.mark.slow
def test_dvc_repro_on_a_fresh_clone(tmp_path):
    clone = tmp_path / "clone"
    clone.mkdir()
    _copy_worktree(clone)
    shutil.rmtree(clone / "artifacts", ignore_errors=True)
    first = _repro(clone)
    for name in _stage_table():
        assert f"Running stage '{name}'" in first
    assert (clone / "artifacts" / "MANIFEST.json").is_file()
    # Builds are byte-reproducible and the committed dvc.lock is current: a fresh build leaves it as is.
    lock = subprocess.run(["git", "diff", "--stat", "dvc.lock"], cwd=clone, capture_output=True, text=True)
    assert lock.stdout == "", f"a fresh build changed dvc.lock (stale lock or non-reproducible build): {lock.stdout}"
    second = _repro(clone)
    assert "Running stage" not in second
    # Changing one params section reruns its stages (and the manifest), nothing else.
    params = yaml.safe_load((clone / "params.yaml").read_text())
    params["dicerace"]["max_dice"] = 12
    (clone / "params.yaml").write_text(yaml.safe_dump(params))
    third = _repro(clone)
    ran = {line.split("'")[1] for line in third.splitlines() if line.startswith("Running stage")}
    assert ran == {"dicerace-probabilities", "manifest"}
    manifest = json.loads((clone / "artifacts" / "MANIFEST.json").read_text())
    assert {e["params"]["max_dice"] for e in manifest["artifacts"] if e["schema"] == "dicerace.probabilities"} == {12}
    verify = subprocess.run([str(BIN / "dicetables"), "verify", "--artifacts", str(clone / "artifacts")],
                            capture_output=True, text=True)
    assert verify.returncode == 0, verify.stdout + verify.stderr
