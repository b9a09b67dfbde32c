"""Write tests/golden/<game>.json: a modest set of inputs and the outputs of the PLAIN reference
implementation of each game's compiled engine. Run once (and after a deliberate change of behaviour):

    python tests/golden/make_golden.py [game ...]

tests/test_golden.py checks that the plain reference and the compiled engine both reproduce each file.
Outputs are integers (game results, move logs, scores, enumeration counts) or exact fractions written as
strings (dominoes' model probabilities and players' values): compared exactly, except the compiled
engine's floating-point values, within 1e-9 of the fractions.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

# dominoes, three kinds of cases.
# "game": whole games of lookup.dominoes.engine.play_game (plain Python) -> result and move log.
DOMINOES_CASES = [
    {"seed": seed, "kind": kind, "seat": seed % 2, "model": model, "mk": [0, 3, 4] if kind else [model],
     "depth": 2, "samples": 3, "max_exact": 50.0, "rollouts": 0, "endgame": 0, "budget": 300}
    for seed, (kind, model) in enumerate([(0, 0), (1, 3), (2, 4), (1, 0), (0, 1), (2, 2)])
]
# "position": positions of random games of the plain game API (lookup.dominoes.game; the standard set and
# reduced instances) -> legal moves, every model's distribution (lookup.opponents), each move's next
# position and result.
DOMINOES_POSITIONS = [{"max_pip": mp, "hand": h, "seed": seed, "plies": plies, "branching": seed % 3 != 0}
                      for mp, h, seed, plies in [
                          (6, 7, 1, 0), (6, 7, 2, 5), (6, 7, 3, 11), (6, 7, 4, 17), (6, 7, 5, 24), (6, 7, 6, 30),
                          (6, 7, 7, 8), (6, 7, 8, 14), (6, 7, 9, 20), (6, 7, 10, 4), (6, 7, 11, 9), (6, 7, 12, 26),
                          (3, 3, 13, 2), (3, 3, 14, 5), (2, 2, 15, 1), (2, 2, 16, 0)]]
# "decision": a player of lookup.opponents (exact, over its information sets) on a reduced instance, after
# a history (the opponent playing ``opponent``, the player's earlier choices at random) -> its value of
# each legal move and its choice; the engine's move_values, searching to the end with every hand listed,
# must give the same values.
DOMINOES_DECISIONS = [
    {"max_pip": mp, "hand": h, "seed": seed, "seat": seat, "opponent": opp, "skip": skip, "player": player,
     "models": models}
    for mp, h, seed, seat, opp, skip, player, models in [
        (2, 2, 0, 0, "greedy", 0, "predictive", ["greedy"]),
        (2, 2, 2, 0, "random", 0, "realistic", ["random", "first", "last", "strong", "greedy"]),
        (2, 2, 4, 0, "strong", 0, "bayesian", ["random", "first", "last", "strong", "greedy"]),
        (3, 3, 1, 1, "greedy", 0, "predictive", ["greedy"]),
        (3, 3, 1, 1, "last", 0, "realistic", ["first", "last"]),
        (3, 3, 1, 1, "random", 0, "bayesian", ["random", "strong", "greedy"]),
        (3, 3, 0, 0, "random", 1, "realistic", ["random", "greedy"]),
        (3, 3, 2, 0, "first", 1, "bayesian", ["first", "last"]),
    ]]
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


def dominoes_state(case: dict):
    """The game and the position of a "position" case: ``plies`` random moves from the deal ``seed`` (fewer
    if the game would end: the position is one with a move to make), then with ``branching`` more until
    there are two legal moves or more."""
    from lookup.dominoes.game import Dominoes

    game = Dominoes(case["max_pip"], case["hand"])
    state, rnd = game.deal(case["seed"]), random.Random(case["seed"])
    plies = 0
    while plies < case["plies"] or (case["branching"] and len(game.legal_actions(state)) < 2):
        nxt = game.apply(state, rnd.choice(game.legal_actions(state)))
        if game.is_terminal(nxt):
            break
        state, plies = nxt, plies + 1
    return game, state


def dominoes_position(case: dict) -> dict:
    """Legal moves, every model's distribution and each move's next position (plain game API)."""
    from lookup.opponents import models_for

    game, s = dominoes_state(case)
    legal = game.legal_actions(s)
    models = {m.name: {str(a): str(p) for a, p in m.distribution(game, s).items()} for m in models_for(game)}
    after = []
    for a in legal:
        n = game.apply(s, a)
        after.append([n.hands[0], n.hands[1], n.left, n.right, n.to_move, n.passes, n.drawn, len(n.boneyard),
                      game.returns(n)[0] if game.is_terminal(n) else None])
    return {"position": [s.hands[0], s.hands[1], list(s.boneyard), s.left, s.right, s.to_move, s.passes, s.drawn],
            "legal": list(legal), "models": models, "after": after}


def dominoes_history(case: dict) -> list[int]:
    """The history of a "decision" case: from the deal, the opponent plays its model (sampled), the
    player's choices at random, until the player's (skip + 1)-th choice between two moves or more."""
    from lookup.dominoes.game import Dominoes
    from lookup.opponents import get_model

    game = Dominoes(case["max_pip"], case["hand"])
    state, rnd, history, choices = game.deal(case["seed"]), random.Random(case["seed"]), [], 0
    opponent = get_model(case["opponent"])
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        if state.to_move == case["seat"]:
            if len(legal) > 1:
                if choices == case["skip"]:
                    return history
                choices += 1
            move = rnd.choice(legal)
        else:
            dist = opponent.distribution(game, state)
            move = rnd.choices(list(dist), [float(p) for p in dist.values()])[0]
        history.append(move)
        state = game.apply(state, move)
    raise ValueError(f"no decision in {case}")


def dominoes_decision(case: dict, history: list[int]) -> dict:
    """The exact player of lookup.opponents after ``history``: each legal move's value and its choice."""
    from lookup.dominoes.game import Dominoes
    from lookup.opponents import Player, models_for

    game = Dominoes(case["max_pip"], case["hand"])
    player = Player(case["player"], game, case["seat"], models_for(game, case["models"]))
    state = game.deal(case["seed"])
    belief = player.initial_belief(state)
    for move in history:
        belief = player.observe(belief, state, move)
        state = game.apply(state, move)
    values = player.move_values(state, belief)
    return {"history": history, "moves": [m for m, _ in values], "values": [str(v) for _, v in values],
            "choice": player.choose(state, belief)}


def dominoes_engine_decision(engine, case: dict, history: list[int]) -> tuple[list[int], list[float]]:
    """The engine's move values at the same decision (the player's view rebuilt from the history: its
    hand, the tiles it has not seen, the opponent's events), searching to the end with every hand listed
    (``endgame`` above the boneyard; ``max_exact`` 10,000, above any count of hands of these instances:
    it also sizes the engine's arrays): exact but for rounding."""
    from lookup.dominoes.game import Dominoes

    game = Dominoes(case["max_pip"], case["hand"])
    me, state = case["seat"], game.deal(case["seed"])
    ev, n_ev = np.zeros((64, 6), np.int64), 0
    for move in history:
        if state.to_move != me:
            board = game.tile_set & ~state.hands[0] & ~state.hands[1] & ~sum(1 << t for t in state.boneyard)
            engine.record(ev, n_ev, move, state.drawn, state.left, state.right, board, len(state.boneyard))
            n_ev += 1
        state = game.apply(state, move)
    board = game.tile_set & ~state.hands[0] & ~state.hands[1] & ~sum(1 << t for t in state.boneyard)
    kind, n_models = engine.PLAYER_CODES[case["player"]], len(case["models"])
    mk = np.array([engine.MODEL_CODES[m] for m in case["models"]], np.int64)
    w0 = np.full(n_models, 1.0 / n_models if case["player"] == "bayesian" else 1.0)
    moves, values = np.empty(engine.MAX_MOVES, np.int64), np.zeros(engine.MAX_MOVES)
    n = engine.move_values(me, state.hands[me], engine.popcount(state.hands[1 - me]),
                           game.tile_set & ~state.hands[me] & ~board, len(state.boneyard), state.left, state.right,
                           state.passes, state.drawn, ev, n_ev, kind, w0, mk, 1, 4, 1e4, 0, engine.N_TILES, 0,
                           engine.seed_rng(1), moves, values, True)
    return [int(m) for m in moves[:n]], [float(v) for v in values[:n]]


def poker_counts(case: dict, engine=None, artifacts_dir=None) -> dict:
    from lookup.poker.equity import equity

    e = equity(case["hands"], case["board"], case["opponents"], budget=3600, engine=engine,  # the largest allowed
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

        cases = [{"kind": "game", "input": c, "output": dominoes_game(engine, c)} for c in DOMINOES_CASES]
        cases += [{"kind": "position", "input": c, "output": dominoes_position(c)} for c in DOMINOES_POSITIONS]
        cases += [{"kind": "decision", "input": c, "output": dominoes_decision(c, dominoes_history(c))}
                  for c in DOMINOES_DECISIONS]
        reference = ("games: lookup.dominoes.engine (plain Python); positions: the game API lookup.dominoes.game "
                     "and the models of lookup.opponents; decisions: the exact players of lookup.opponents")
    elif game == "poker":
        cases = [{"input": c, "output": poker_counts(c, None, artifacts_dir)} for c in POKER_CASES]
        reference = "lookup.poker.equity with the numpy engine"
    elif game == "yahtzee_lab":
        from pipeline.yahtzee_lab.pyengine import play_python

        cases = [{"input": c, "output": yahtzee_lab_games(c, play_python)} for c in YAHTZEE_LAB_CASES]
        reference = "pipeline.yahtzee_lab.pyengine.play_python"
    else:
        raise SystemExit(f"unknown game {game!r}")
    compare = "exact (integers; fractions as strings)" + (", the compiled engine's values within 1e-9"
                                                          if game == "dominoes" else "")
    return {"game": game, "reference": reference, "compare": compare, "cases": cases}


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
