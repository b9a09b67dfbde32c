"""A table family's code is the import closure of its entry modules (``pipeline.code_deps``), and dvc.yaml lists
all of it: a stage whose deps omit a project module that its code can import fails here. The case that started it
(issue 37): g151's stage listed its code by hand and left out ``lookup/g151/tables.py``, whose ``array_name()``
names the stored arrays, so that editing it would have left DVC calling stale tables current."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

import pipeline.store as wstore
from pipeline import registry
from pipeline.code_deps import PACKAGES, closure, edges_of
from pipeline.declaration import REPORT_RUNNER, declarations
from pipeline.family import load_params
from pipeline.store import WRITER

ROOT = Path(__file__).resolve().parent.parent
# g151's stage code as it was listed by hand before issue 37 (with pipeline/layout.py, which every stage had).
G151_HAND_KEPT = ["lookup/g151/rules.py", "pipeline/g151/kernels.py", "pipeline/g151/solve.py",
                  "pipeline/g151/stage.py", "pipeline/layout.py"]


def entry_modules(params: dict) -> dict[str, set[str]]:
    """Stage name -> the modules its command runs, from the declarations: a family's specs' code and the writer
    of artifacts, a report's module and the command that runs it, the manifest's writer."""
    found = {name: {m for spec in family.artifacts(params[family.section]) for m in spec.code} | {WRITER}
             for name, family in registry.families(params).items()}
    for game in declarations():
        for report in game.reports:
            found[f"{game.report_out(report)}-report"] = {report.module, REPORT_RUNNER}
    found["manifest"] = {WRITER}
    return found


def omitted(deps: list[str], modules: set[str]) -> list[str]:
    """The files of the import closure of ``modules`` that ``deps`` does not list."""
    return sorted(set(closure(modules)) - set(deps))


def _committed() -> dict:
    return yaml.safe_load((ROOT / "dvc.yaml").read_text())["stages"]


def test_every_stage_lists_every_module_its_code_can_import():
    stages = _committed()
    entries = entry_modules(load_params())
    assert set(entries) == set(stages)
    missing = {name: omitted(stages[name]["deps"], modules) for name, modules in entries.items()}
    assert {name: files for name, files in missing.items() if files} == {}


def test_each_family_s_code_holds_its_own_functions():
    """A spec names its code's entry modules: the module that computes, publishes or lists the family's artifacts
    must be among the files they reach (a spec naming the wrong module would leave its computation unhashed)."""
    params = load_params()
    for name, family in registry.families(params).items():
        files = set(family.code_files(params[family.section]))
        for function in filter(None, (family.compute, family.publish, family.artifacts)):
            source = Path(sys.modules[function.__module__].__file__).resolve().relative_to(ROOT).as_posix()
            assert source in files, (name, function.__qualname__, source)


def test_the_check_catches_the_g151_stage_that_left_out_its_array_names():
    entries = entry_modules(load_params())["g151-stated"]
    assert "lookup/g151/tables.py" in omitted(G151_HAND_KEPT, entries)
    deps = [d for d in _committed()["g151-stated"]["deps"] if d != "lookup/g151/tables.py"]
    assert omitted(deps, entries) == ["lookup/g151/tables.py"]


def test_editing_the_array_names_changes_the_g151_fingerprint(tmp_path, monkeypatch):
    from pipeline.g151.stage import families

    root = tmp_path / "project"
    for package in ("lookup", "pipeline"):
        shutil.copytree(ROOT / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(wstore, "PROJECT_ROOT", root)
    section = {"variants": ["stated"], "targets": [300]}
    (spec,) = families(section)[0].artifacts(section)
    before = spec.fingerprint()
    assert "lookup/g151/tables.py" in spec.code_files()
    names = root / "lookup" / "g151" / "tables.py"
    text = names.read_text()
    assert "def array_name(" in text
    names.write_text(text.replace("def array_name(", "def array_name(  ", 1))
    assert spec.fingerprint() != before


def test_imports_inside_functions_count():
    """tic-tac-toe's stage imports its solver only inside the function that computes (finding the families stays
    fast); the solver is part of the stage's code all the same."""
    edges = edges_of("pipeline.tictactoe.stage")
    assert ("pipeline.tictactoe.retrograde", False) in {(t, top) for t, top, _ in edges}
    assert "pipeline.tictactoe.retrograde" not in {t for t, top, _ in edges if top}
    assert "pipeline/tictactoe/retrograde.py" in closure(["pipeline.tictactoe.stage"])


def test_a_data_file_a_spec_declares_is_hashed_and_a_dependency(tmp_path, monkeypatch):
    from pipeline.store import ArtifactSpec

    root = tmp_path / "project"
    for package in ("lookup", "pipeline"):
        shutil.copytree(ROOT / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "weights.csv").write_text("1,2\n")
    monkeypatch.setattr(wstore, "PROJECT_ROOT", root)
    spec = ArtifactSpec(name="d", schema="t.d", schema_version=1, game="t", rules={}, params={},
                        code=("pipeline.store",), data=("weights.csv",))
    assert "weights.csv" in spec.code_files()
    before = spec.fingerprint()
    (root / "weights.csv").write_text("1,3\n")
    assert spec.fingerprint() != before


# What a build loads, in a fresh process: every project module imported after the declarations were read.
LOADS = """
import json, sys
from pathlib import Path
from pipeline.declaration import declarations
games = {{g.name: g for g in declarations()}}
before = set(sys.modules)
from pipeline.family import build_family, load_params
from pipeline.store import trusting_own_artifacts
params = load_params({params!r})
game = games[{game!r}]
family = next(f for f in game.families_of()(params[game.params_section]) if f.name == {family!r})
with trusting_own_artifacts():
    build_family(family, params, Path({artifacts!r}))
root = Path({root!r})
files = [Path(m.__file__).resolve() for n, m in list(sys.modules.items())
         if n not in before and getattr(m, "__file__", None)]
ours = [f.relative_to(root) for f in files if f.is_relative_to(root)]
print(json.dumps(sorted(f.as_posix() for f in ours if f.parts[0] in {packages!r})))
"""

# Small instances: g151 (the case) and the dice race's probabilities (computed by a module its stage
# imports inside a function).
BUILDS = {"g151-stated": ("g151", "g151:\n  variants: [stated]\n  targets: [300]\n"),
          "dicerace-probabilities": ("dicerace", "dicerace:\n  max_dice: 3\n")}


def test_a_build_loads_no_project_module_its_stage_omits(tmp_path):
    """Python's own account (a second method: the import system at run time, not the source): a fresh process
    builds a small instance of a family and lists the project modules the build loaded; each is in the deps
    dvc.yaml gives its stage for those params."""
    runs = {}
    for family, (game, params) in BUILDS.items():
        folder = tmp_path / family
        folder.mkdir()
        (folder / "params.yaml").write_text(params)
        script = LOADS.format(params=str(folder / "params.yaml"), game=game, family=family,
                              artifacts=str(folder / "artifacts"), root=str(ROOT), packages=PACKAGES)
        runs[family] = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
    for family, proc in runs.items():
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        loaded = json.loads(out.splitlines()[-1])
        params = load_params(tmp_path / family / "params.yaml")
        deps = registry.families(params)[family].code_files(params[BUILDS[family][0]])  # dvc.yaml's deps
        assert f"pipeline/{family.split('-')[0]}/stage.py" in loaded, family
        assert sorted(set(loaded) - set(deps)) == [], family
        runs[family] = loaded
    assert "lookup/g151/tables.py" in runs["g151-stated"]
    assert "pipeline/dicerace/probabilities.py" in runs["dicerace-probabilities"]
