"""``dvc.yaml``, generated from the games' declarations and params.yaml (``dicetables dvc-yaml``).

One stage per table family (named as the family): ``dicetables build FAMILY``, deps = the code its
artifacts' fingerprints hash (the import closure of its specs' entry modules and of the writer,
``pipeline.code_deps``) and the upstream artifacts it reads; params, seconds and a comment from the game's
declaration (``pipeline.declaration.Stage``); outs = its artifacts. One stage per report
(``pipeline.declaration.Report``: deps its code's closure and the artifacts it reads). The ``manifest``
stage depends on every other stage's outs and on the code that writes it.
The committed dvc.yaml is this module's output for the project's params.yaml (tests/test_dvc.py).
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from pipeline.code_deps import closure
from pipeline.declaration import declarations
from pipeline.family import DEFAULT_PARAMS, load_params
from pipeline.store import PROJECT_ROOT, WRITER

DVC_YAML = PROJECT_ROOT / "dvc.yaml"
BUILD = "dicetables --quiet build --params params.yaml --artifacts artifacts --no-manifest"
MANIFEST_SECONDS = 4
HEADER = """\
# Generated from the games' declarations (pipeline/<game>/game.py) and params.yaml by
# `dicetables dvc-yaml --write`: do not edit by hand (tests/test_dvc.py fails when the two differ).
# One stage per table family: its deps are exactly the code its artifacts' fingerprints hash (the import closure
# of its code, pipeline/code_deps.py) and the artifacts it reads; its params are the params.yaml keys whose
# change reruns it. One stage per report (its code's closure), then the manifest. meta.seconds: rough
# quiet-machine wall time (`dicetables repro` starts long chains first).
# Run through `make run`, or `dvc repro` with .venv/bin on PATH.
"""


def stages(params: Mapping[str, Any]) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """(stage name -> stage as ``yaml.safe_load`` of dvc.yaml gives it, stage name -> comment).

    ValueError for a stage param outside the family's (or report's) params section, a report reading an
    artifact no stage writes, or two stages of one name.
    """
    table: dict[str, dict[str, Any]] = {}
    notes: dict[str, str] = {}

    def add(name: str, stage: dict[str, Any], note: str, section: str) -> None:
        if name in table:
            raise ValueError(f"two dvc.yaml stages are named {name!r}")
        wrong = [p for p in stage.get("params", ()) if p.split(".")[0] != section]
        if wrong:
            raise ValueError(f"stage {name}: params {wrong} are outside its params section {section!r}")
        table[name] = stage
        if note:
            notes[name] = note

    for game in declarations():
        section = game.params_section
        if section in params:
            for family in game.families_of()(params[section]):
                declared = game.stage_of(family.name)
                outs = [f"artifacts/{spec.name}{ext}" for spec in family.artifacts(params[section])
                        for ext in (".zarr", *((".h5",) if spec.hdf5 else ()))]
                add(family.name, _stage(f"{BUILD} {family.name}", declared.seconds,
                                        [*family.code_files(params[section]),
                                         *(f"artifacts/{u}" for u in family.upstream)],
                                        declared.params, outs), declared.note, family.section)
        for report in game.reports:
            out = game.report_out(report)
            cmd = (f"dicetables --quiet {game.game_name} {report.command} --params params.yaml --artifacts artifacts"
                   + (f" --out artifacts/reports/{out}" if out != game.game_name else ""))
            add(f"{out}-report", _stage(cmd, report.seconds,
                                        [*report.code_files(), *(f"artifacts/{a}" for a in report.artifacts)],
                                        report.params, [f"artifacts/reports/{out}"]),
                report.note, game.report_section(report))
    written = [o for stage in table.values() for o in stage["outs"]]
    for name, stage in table.items():
        missing = [d for d in stage["deps"] if d.startswith("artifacts/") and d not in written]
        if missing:
            raise ValueError(f"stage {name} reads {missing}, which no stage writes")
    table["manifest"] = _stage("dicetables --quiet manifest --artifacts artifacts", MANIFEST_SECONDS,
                               [*closure((WRITER,)), *written], (),
                               [{"artifacts/MANIFEST.json": {"cache": False}}])
    return table, notes


def _stage(cmd: str, seconds: float, deps: list[str], params: tuple[str, ...], outs: list[Any]) -> dict[str, Any]:
    stage: dict[str, Any] = {"cmd": cmd, "meta": {"seconds": seconds}, "deps": deps}
    if params:
        stage["params"] = list(params)
    stage["outs"] = outs
    return stage


def _scalar(value: Any) -> str:
    """A YAML scalar: plain when it reads back as itself, else JSON-quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(int(value)) if float(value).is_integer() else repr(value)
    text = str(value)
    return text if yaml.safe_load(f"k: {text}") == {"k": text} else json.dumps(text)


def render(table: Mapping[str, Mapping[str, Any]], notes: Mapping[str, str]) -> str:
    """The dvc.yaml text of ``table``: the header, then each stage with its comment above it."""
    lines = [HEADER.rstrip("\n"), "stages:"]
    for i, (name, stage) in enumerate(table.items()):
        if i:
            lines.append("")
        lines += textwrap.wrap(notes.get(name, ""), 114, initial_indent="  # ", subsequent_indent="  # ")
        lines.append(f"  {_scalar(name)}:")
        lines.append(f"    cmd: {_scalar(stage['cmd'])}")
        lines.append(f"    meta: {{seconds: {_scalar(stage['meta']['seconds'])}}}")
        for key in ("deps", "params", "outs"):
            for j, item in enumerate(stage.get(key, ())):
                if j == 0:
                    lines.append(f"    {key}:")
                if isinstance(item, Mapping):  # an out with options: {path: {option: value}}
                    for path, options in item.items():
                        lines.append(f"      - {_scalar(path)}:")
                        lines += [f"          {k}: {_scalar(v)}" for k, v in options.items()]
                else:
                    lines.append(f"      - {_scalar(item)}")
    text = "\n".join(lines) + "\n"
    if yaml.safe_load(text)["stages"] != table:
        raise AssertionError("the rendered dvc.yaml does not read back as the stages it was made from")
    return text


def generate(params_path: str | Path = DEFAULT_PARAMS) -> str:
    """The dvc.yaml text the declarations and ``params_path`` give."""
    return render(*stages(load_params(params_path)))
