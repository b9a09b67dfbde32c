"""Every game follows the template of docs/adding_a_game.md where something real is wired: its public API and
rules, its artifacts' schemas, its declaration (``pipeline/<game>/game.py``, found by discovery: families,
CLI group, report stages, web routes), its registration in the protocol (``lookup/<game>/game.py``), its docs and
tests. A module is never required merely by its name (a game without kernels has no ``kernels.py``); how the
game behaves is checked by tests/test_protocol.py."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import click
import pytest
import yaml

from pipeline import registry
from pipeline.cli import main
from pipeline.declaration import GameDeclaration, declarations, resolve

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.parent.name for p in (ROOT / "lookup").glob("*/__init__.py"))
# A game whose strategy lab is a package of its own: the lab holds the game's report (docs/adding_a_game.md).
LABS = {"yahtzee": "yahtzee_lab"}


def _docstring(path: Path) -> str:
    return ast.get_docstring(ast.parse(path.read_text())) or ""


def test_the_games_are_found():
    assert {"dicerace", "g151", "yahtzee"} <= set(GAMES)  # a new game is found, and checked, by its lookup package


@pytest.mark.parametrize("game", GAMES)
def test_lookup_modules_and_exports(game):
    package = importlib.import_module(f"lookup.{game}")
    assert _docstring(ROOT / "lookup" / game / "__init__.py")
    assert {"decide", "value"} <= set(package.__all__)
    rules = importlib.import_module(f"lookup.{game}.rules")
    assert rules.DEFAULT_RULES in rules.RULE_SETS
    assert isinstance(rules.get_rules(rules.DEFAULT_RULES).to_dict(), dict)
    assert all(rules.get_rules(name).name == name for name in rules.RULE_SETS)
    with pytest.raises(ValueError, match="unknown"):
        rules.get_rules("no-such-rules")
    tables = vars(importlib.import_module(f"lookup.{game}.tables"))
    assert any(k.endswith("SCHEMA") and isinstance(v, str) for k, v in tables.items())
    assert any(k.endswith("VERSIONS") and isinstance(v, tuple) for k, v in tables.items())


@pytest.mark.parametrize("game", GAMES)
def test_pipeline_modules_and_exports(game):
    packages = [game, *([LABS[game]] if game in LABS else [])]
    assert any((ROOT / "pipeline" / p / "report.py").is_file() for p in packages)
    for package in packages:
        doc = _docstring(ROOT / "pipeline" / package / "__init__.py")
        assert "May import" in doc, package
        declared = importlib.import_module(f"pipeline.{package}.game").GAME
        assert isinstance(declared, GameDeclaration) and declared.name == package and declared.game_name == game
        stage = importlib.import_module(f"pipeline.{package}.stage")
        assert list(inspect.signature(stage.families).parameters) == ["section"]
        assert declared.families_of() is stage.families
        assert registry.sections()[declared.params_section] is stage.families
        if declared.cli is None:  # a game may have no commands of its own: the protocol's are every game's
            continue
        group = importlib.import_module(f"pipeline.{package}.cli").cli
        assert resolve(declared.cli) is group
        assert isinstance(group, click.Group) and group.name == game
        assert all(main.commands[game].commands.get(name) is cmd for name, cmd in group.commands.items())
    reports = [r for p in packages for r in importlib.import_module(f"pipeline.{p}.game").GAME.reports]
    assert any(r.command == "report" for r in reports)
    for report in reports:
        write_report = importlib.import_module(report.module).write_report
        assert list(inspect.signature(write_report).parameters)[:3] == ["section", "artifacts_dir", "out_dir"]
        assert main.commands[game].commands[report.command].callback.__doc__ == report.help


@pytest.mark.parametrize("game", GAMES)
def test_the_game_is_registered_in_the_protocol_with_its_commands(game):
    """Every game declares itself to the protocol (``lookup/<game>/game.py``, ``SPEC``) and so has its commands."""
    from lookup.games import get_spec

    assert get_spec(game).name == game
    assert {"setups", "advise", "review", "play", "simulate", "map"} <= set(main.commands[game].commands)


def test_the_declarations_are_found_and_are_every_package_with_a_game_module():
    found = {d.name for d in declarations()}
    assert found == {p.parent.name for p in (ROOT / "pipeline").glob("*/game.py")}
    assert {d.game_name for d in declarations()} == set(GAMES)
    # A package that extends a game comes after it (its families may read the game's tables).
    order = [d.name for d in declarations()]
    assert all(order.index(d.game_name) < order.index(d.name) for d in declarations() if d.game_name != d.name)


@pytest.mark.parametrize("game", GAMES)
def test_report_stage_docs_and_tests(game):
    stage = yaml.safe_load((ROOT / "dvc.yaml").read_text())["stages"][f"{game}-report"]
    assert stage["cmd"] == f"dicetables --quiet {game} report --params params.yaml --artifacts artifacts"
    assert stage["outs"] == [f"artifacts/reports/{game}"]
    assert "pipeline/reports.py" in stage["deps"]
    assert "report" in main.commands[game].commands
    assert (ROOT / "docs" / f"{game}.md").is_file()
    assert any((ROOT / "tests" / game).glob("test_*.py")), f"tests/{game}/ holds no tests"
    assert all(p.name.startswith(f"test_{game}_") for p in (ROOT / "tests" / game).glob("test_*.py"))
    assert game in yaml.safe_load((ROOT / "params.yaml").read_text())
