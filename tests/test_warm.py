"""``dicetables compile``: every game with numba kernels declares how to compile them, and after it a user's call
compiles nothing (numba's compile events are counted)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

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


# Run in a process of its own: in this one other tests may already have called (and so compiled or loaded) the
# kernels, and numba reads its cache directory once, when first imported.
# The start of each script: ``compiled`` lists every kernel numba compiles once ``listen()`` has been called.
_LISTENER = """
import pipeline  # first: it keys NUMBA_CACHE_DIR by the code before numba reads it
from numba.core import event

compiled = []

class Listener(event.Listener):
    def on_start(self, ev):
        compiled.append(str(ev.data.get("dispatcher")))

    def on_end(self, ev):
        pass

def listen():
    event.register("numba:compile", Listener())
"""

_FIRST_CALL = _LISTENER + """
import sys
from pipeline.poker.warm import compile_kernels, kernels_cached

assert kernels_cached()
listen()
compile_kernels(sys.argv[1])  # the calls a user's equity question makes
print(len(compiled), compiled)
"""


def test_after_compile_the_first_equity_call_compiles_nothing(tmp_path_factory):
    # `make test` ran `dicetables compile` before pytest: then this is instant. Run by hand, it compiles poker here.
    result = CliRunner().invoke(main, ["compile", "poker"])
    assert result.exit_code == 0, result.output
    evaluator = shared.poker_evaluator(tmp_path_factory)
    ran = subprocess.run([sys.executable, "-c", _FIRST_CALL, str(evaluator)], capture_output=True, text=True,
                         timeout=600, cwd=PIPELINE.parent, env={**os.environ, "PYTHONPATH": str(PIPELINE.parent)})
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.startswith("0 "), ran.stdout


# The strategy lab's engine (pipeline/yahtzee_lab/warm.py): compiled by Yahtzee's warm-up on players that read no
# table, so that the games of the tests and stages (here through `play`, another entry than the warm-up's)
# load it instead of compiling it, both pytest workers at once.
_FIRST_GAMES = _LISTENER + """
from pipeline.yahtzee_lab.match import play

listen()
for mode in ("independent", "coupled"):
    play("decision_une", "random", 40, seed=2, mode=mode)
play("random", None, 10, seed=3)
print(len(compiled), compiled)
"""


def test_after_compile_the_lab_games_compile_nothing():
    result = CliRunner().invoke(main, ["compile", "yahtzee"])
    assert result.exit_code == 0, result.output
    ran = subprocess.run([sys.executable, "-c", _FIRST_GAMES], capture_output=True, text=True, timeout=600,
                         cwd=PIPELINE.parent, env={**os.environ, "PYTHONPATH": str(PIPELINE.parent)})
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.startswith("0 "), ran.stdout
