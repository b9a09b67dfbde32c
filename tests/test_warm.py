"""``dicetables compile``: every game with numba kernels declares how to compile them, and after it a user's call
compiles nothing (numba's compile events are counted)."""

import ast
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.declaration import declarations
from tests import shared

PIPELINE = Path(__file__).resolve().parent.parent / "pipeline"


def _imports_numba(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "numba" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numba":
            return True
    return False


def test_every_game_with_kernels_declares_its_warm_up():
    # A package that extends a game (the strategy lab) is compiled by its game's warm-up.
    warmed = {g.name for g in declarations() if g.warm is not None}
    for game in declarations():
        kernels = sorted(p.name for p in (PIPELINE / game.name).glob("*.py") if _imports_numba(p))
        if kernels:
            assert game.game_name in warmed, f"pipeline/{game.name} has numba kernels ({kernels}) and no warm-up"


def test_unknown_game_is_a_usage_error():
    result = CliRunner().invoke(main, ["compile", "chess"])
    assert result.exit_code == 2
    assert "no kernels declared for chess" in result.output and "poker" in result.output


class CompileEvents:
    """Counts numba's compile events while it is registered."""

    def __enter__(self):
        from numba.core import event

        self.compiled: list[str] = []
        outer = self

        class Listener(event.Listener):
            def on_start(self, ev):
                outer.compiled.append(str(ev.data.get("dispatcher")))

            def on_end(self, ev):
                pass

        self.listener = Listener()
        event.register("numba:compile", self.listener)
        return self

    def __exit__(self, *exc):
        from numba.core import event

        event.unregister("numba:compile", self.listener)


def test_after_compile_the_first_equity_call_compiles_nothing(tmp_path_factory):
    # `make test` ran `dicetables compile` before pytest: then this is instant. Run by hand, it compiles poker here.
    result = CliRunner().invoke(main, ["compile", "poker"])
    assert result.exit_code == 0, result.output
    evaluator = shared.poker_evaluator(tmp_path_factory)
    from pipeline.poker.warm import EQUITY_KERNELS, compile_kernels, kernels_cached

    assert kernels_cached()
    if any(k.signatures for k in EQUITY_KERNELS):
        pytest.skip("this process already called the equity kernels: the cache is not what answers here")
    with CompileEvents() as events:
        compile_kernels(evaluator)  # the calls a user's equity question makes
    assert events.compiled == []
