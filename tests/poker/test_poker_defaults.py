"""One set of equity defaults: the command line's `poker equity` and `poker range`, and ``decide``, use the library's
DEFAULT_BUDGET and DEFAULT_SAMPLES (the web routes: tests/web/test_web_games.py)."""

import importlib
import inspect

import pytest
from click.testing import CliRunner

from lookup.poker.equity import DEFAULT_BUDGET, DEFAULT_SAMPLES, equity
from lookup.poker.play import decide
from lookup.poker.range_equity import range_equity
from pipeline.cli import main


class Asked(Exception):
    """Raised by the stand-in of the library call once it has recorded what the command asked for."""


@pytest.mark.parametrize("command, module, name", [("equity", "lookup.poker.equity", "equity"),
                                                   ("range", "lookup.poker.range_equity", "range_equity")])
def test_the_command_line_asks_the_library_with_its_defaults(monkeypatch, poker_artifacts, command, module, name):
    """No --budget or --samples: the command passes the library's defaults (equity: DEFAULT_SAMPLES deals; range:
    as many as the budget allows, the library's None), and its help names the library's numbers."""
    asked = {}

    def record(*args, **kwargs):
        asked.update(kwargs)
        raise Asked

    # The module, not the package's attribute of the same name (lookup.poker.equity is also the function).
    monkeypatch.setattr(importlib.import_module(module), name, record)
    out = CliRunner().invoke(main, ["--quiet", "poker", command, "AsAh", "KdKc", "--artifacts", str(poker_artifacts)])
    assert isinstance(out.exception, Asked), out.output
    library = inspect.signature({"equity": equity, "range": range_equity}[command]).parameters
    assert (asked["budget"], asked["samples"], asked["seed"]) == (
        library["budget"].default, library["samples"].default, library["seed"].default)
    assert asked["budget"] == DEFAULT_BUDGET
    assert asked["samples"] == (DEFAULT_SAMPLES if command == "equity" else None)
    text = " ".join(CliRunner().invoke(main, ["poker", command, "--help"]).output.split())
    assert f"DEFAULT_BUDGET = {DEFAULT_BUDGET:g}]" in text
    if command == "equity":
        assert f"DEFAULT_SAMPLES = {DEFAULT_SAMPLES:,}]" in text


def test_decide_and_range_equity_default_to_equitys_budget():
    for function in (decide, range_equity):
        assert inspect.signature(function).parameters["budget"].default == DEFAULT_BUDGET
    assert inspect.signature(equity).parameters["samples"].default == DEFAULT_SAMPLES
