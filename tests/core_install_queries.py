"""The queries of tests/test_core_install.py, asked twice: as a script in a virtual environment holding only the
core install (``python -I core_install_queries.py RULE_SETS_JSON``, artifacts from ``$DICETABLES_ARTIFACTS``),
and imported in the test process (``answers(rule_sets, artifacts_dir)``). Both must give the same JSON.

Only the standard library and ``lookup`` here: this file runs where nothing else is installed.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

# The small instances the test builds (the per-game session fixtures' sizes, tests/<game>/conftest.py).
DICERACE_GRID = [[3, 20], [5, 30]]
G151_VARIANTS = ["stated", "notebook"]
G151_TARGETS = [300, 1000]
TICTACTOE_MODELS = ["random", "first", "last", "greedy", "perfect"]
DOMINOES_PLAYERS = ["predictive", "realistic"]
DOMINOES_MODELS = ["random", "strong"]

# Packages of the build and serve extras (and pipeline itself): none may be imported by these queries. Not
# yaml: zarr imports it (its config library, donfig, depends on PyYAML), so the core install has it anyway.
FORBIDDEN = ("numba", "scipy", "dask", "distributed", "click", "rich", "matplotlib", "dvc", "fastapi", "starlette",
             "uvicorn", "pipeline")


def plain(x: Any) -> Any:
    """``x`` as JSON-able data (dataclasses, tuples, numpy values, fractions), floats kept exact."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: plain(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [plain(v) for v in x]
    if isinstance(x, Fraction):
        return str(x)
    if hasattr(x, "tolist"):  # numpy arrays and scalars
        return plain(x.tolist())
    return x


def answers(rule_sets: list[str], artifacts_dir: str | Path | None = None) -> dict[str, Any]:
    """Every game's public answers (decide and value, or the game's equivalent) on the small instances."""
    from lookup import dicerace, dominoes, g151, poker, tictactoe, yahtzee

    at = {"artifacts_dir": artifacts_dir}
    out: dict[str, Any] = {}
    for rules in rule_sets:
        sheet = {"ones": 3, "chance": 22}
        out[f"yahtzee/{rules}"] = {
            "decide": [yahtzee.decide([1, 3, 3, 5, 6], r, sheet, rules, **at).as_dict() for r in (2, 1, 0)],
            "decide_start": yahtzee.decide([6, 6, 6, 2, 1], 2, {}, rules, **at).as_dict(),
            "value_start": yahtzee.value({}, rules, **at),
            "value_sheet": yahtzee.value(sheet, rules, **at),
            "explain": [o.as_dict() for o in yahtzee.explain([2, 2, 4, 5, 6], 1, sheet, rules, **at)[:5]],
            "distribution": plain(yahtzee.distribution(rules, **at).pmf[:400:7]),
        }
    for dice, target in DICERACE_GRID:
        game = {"dice": dice, "target": target, **at}
        out[f"dicerace/{dice}/{target}"] = {
            mode: [[dicerace.decide(a, b, mode=mode, rng=1, **game), dicerace.value(a, b, mode=mode, **game)]
                   for a, b in ((0, 0), (target // 2, target // 3), (target - 1, 1))]
            for mode in ("sequential", "simultaneous")}
    out["dicerace/probabilities"] = plain(dicerace.probabilities(3, **at).p)
    for variant in G151_VARIANTS:
        for target in G151_TARGETS:
            game = {"target": target, "rules": variant, **at}
            states = [(0, 0, None), (0, 150, None), (150, 100, 200), (target - 100, 50, target - 50)]
            out[f"g151/{variant}/{target}"] = [[g151.decide(a, t, b, **game), g151.value(a, t, b, **game)]
                                               for a, t, b in states]
    out["poker"] = {
        "decide": plain(poker.decide("AsAh", pot=100, to_call=60, board="2c7d9hKs", **at)),
        "equity": {k: v for k, v in plain(poker.equity(["AsAh", "KdKc"], board="2c7d9h", **at)).items()
                   if k != "seconds"},  # the time it took
        "value": [poker.value(hand, n, **at) for hand in ("AKs", "72o", "QQ") for n in (1, 2)],
        "preflop": plain(poker.preflop("AKs", 2, **at)),
        "heads_up": plain(poker.heads_up("AKs", "QQ", **at)),
    }
    boards = [".........", "X.O......", "XX..O.O..", "X...O...."]
    out["tictactoe"] = {str(model): [[tictactoe.decide(b, model, **at), tictactoe.value(b, model, **at)]
                                     for b in boards]
                        for model in (None, *TICTACTOE_MODELS)}
    hand = ["6-6", "1-1", "0-0", "0-1", "0-2", "0-3", "0-4"]
    players = [{"player": "predictive", "model": "strong"}, {"player": "realistic"}, {"player": "bayesian"}]
    search = {"depth": 2, "samples": 4, "seed": 9}
    out["dominoes"] = {
        "decide": [dominoes.decide(hand, "6-6 draw 1-6L", 0, **p, **search) for p in players],
        "value": [dominoes.value(hand, "6-6 draw 1-6L", 0, **p, **search) for p in players],
        "matchups": plain(dominoes.load_matchups(**at).counts),
    }
    return out


if __name__ == "__main__":  # in the core-only environment: the answers, then what got imported
    result = answers(json.loads(sys.argv[1]))
    import lookup

    print(json.dumps({"answers": result, "lookup_file": lookup.__file__,
                      "imported": sorted({m.partition(".")[0] for m in sys.modules} & set(FORBIDDEN))}))
