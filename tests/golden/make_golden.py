"""Write tests/golden/<game>.json: a modest set of inputs and the outputs of the PLAIN reference
implementation of each game's compiled engine. Run once (and after a deliberate change of behaviour):

    python tests/golden/make_golden.py [game ...]

tests/test_golden.py checks that the plain reference and the compiled engine both reproduce each file.
Every output is an integer (game results, move logs, scores, enumeration counts): compared exactly.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

# dominoes: whole games of lookup.dominoes.engine.play_game (plain Python) -> result and move log.
DOMINOES_CASES = [
    {"seed": seed, "kind": kind, "seat": seed % 2, "model": model, "mk": [0, 3, 4] if kind else [model],
     "depth": 2, "samples": 3, "max_exact": 50.0, "rollouts": 0, "endgame": 0, "budget": 300}
    for seed, (kind, model) in enumerate([(0, 0), (1, 3), (2, 4), (1, 0), (0, 1), (2, 2)])
]
# poker: exact equity counts of the numpy engine (lookup.poker.equity).
POKER_CASES = [
    {"hands": ["AsAh", "KdKc"], "board": ["2c", "7d", "Jh"], "opponents": 0},
    {"hands": ["AsKs"], "board": ["Qs", "Js", "2d", "7c"], "opponents": 2},
    {"hands": ["7h8h", "AcKd"], "board": ["9h", "Th", "2s", "Kc", "3d"], "opponents": 1},
    {"hands": ["2c2d"], "board": ["Ah", "Kh", "Qd"], "opponents": 1},
    {"hands": ["JcTc", "9d9s", "AhQh"], "board": ["8c", "7c", "2h"], "opponents": 0},
]
# yahtzee lab: games of players that read no table, pipeline.yahtzee_lab.pyengine.play_python.
YAHTZEE_LAB_CASES = [
    {"a": "random", "b": "decision_une", "games": 6, "seed": 3, "mode": "antithetic", "first": 0},
    {"a": "decision_une", "b": None, "games": 6, "seed": 11, "mode": "solo", "first": 5},
    {"a": "decision_une", "b": "random", "games": 4, "seed": 7, "mode": "independent", "first": 2},
]


def dominoes_game(engine, case: dict) -> dict:
    log = np.full((256, 2), -1, np.int64)
    result = engine.play_game(case["seed"], case["kind"], case["seat"], case["model"],
                              np.array(case["mk"], np.int64), np.ones(len(case["mk"])), case["depth"],
                              case["samples"], case["max_exact"], case["rollouts"], case["endgame"], case["budget"],
                              log)
    end = int(np.argmax(log[:, 0] == -1)) if (log[:, 0] == -1).any() else len(log)
    return {"result": int(result), "log": log[:end].tolist()}


def poker_counts(case: dict, engine=None, artifacts_dir=None) -> dict:
    from lookup.poker.equity import equity

    e = equity(case["hands"], case["board"], case["opponents"], budget=1e9, engine=engine,
               artifacts_dir=artifacts_dir, use_table=False)
    assert e.exact
    return {"deals": int(e.deals), "wins": [int(x) for x in e.wins], "ties": [int(x) for x in e.ties],
            "shares": [str(x) for x in e.shares]}


def yahtzee_lab_games(case: dict, play) -> dict:
    from pipeline.yahtzee_lab.players import game_rules, get_player

    a, b = get_player(case["a"]), get_player(case["b"]) if case["b"] is not None else None
    scores, bonus = play(a, b, case["games"], seed=case["seed"], mode=case["mode"], rules=game_rules("hasbro"),
                         first=case["first"])
    return {"scores": scores.tolist(), "upper_bonus": bonus.tolist()}


def make(game: str, artifacts_dir: Path | None = None) -> dict:
    if game == "dominoes":
        from lookup.dominoes import engine

        cases = [{"input": c, "output": dominoes_game(engine, c)} for c in DOMINOES_CASES]
        reference = "lookup.dominoes.engine (plain Python)"
    elif game == "poker":
        cases = [{"input": c, "output": poker_counts(c, None, artifacts_dir)} for c in POKER_CASES]
        reference = "lookup.poker.equity with the numpy engine"
    elif game == "yahtzee_lab":
        from pipeline.yahtzee_lab.pyengine import play_python

        cases = [{"input": c, "output": yahtzee_lab_games(c, play_python)} for c in YAHTZEE_LAB_CASES]
        reference = "pipeline.yahtzee_lab.pyengine.play_python"
    else:
        raise SystemExit(f"unknown game {game!r}")
    return {"game": game, "reference": reference, "compare": "exact (integers)", "cases": cases}


def main(games: list[str]) -> None:
    import tempfile

    from pipeline import registry

    with tempfile.TemporaryDirectory() as tmp:
        artifacts = None
        if "poker" in games:  # the evaluator tables the numpy engine reads
            params = Path(tmp) / "params.yaml"
            params.write_text("poker:\n  preflop: {}\n")
            artifacts = Path(tmp) / "artifacts"
            registry.build(["poker-evaluator"], params_path=params, artifacts_dir=artifacts)
        for game in games:
            data = make(game, artifacts)
            (HERE / f"{game}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
            print(f"wrote {game}.json: {len(data['cases'])} cases")


if __name__ == "__main__":
    main(sys.argv[1:] or ["dominoes", "poker", "yahtzee_lab"])
