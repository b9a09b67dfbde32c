"""The tic-tac-toe table family: every reachable position with its minimax value and, for each opponent
model of ``tictactoe.models``, the exact value of best response to it (one artifact per rule set)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.opponents import get_model, models_for
from lookup.tictactoe.rules import GAME, START, board_code, get_rules
from lookup.tictactoe.tables import TABLES_NAME, TABLES_SCHEMA, TABLES_VERSIONS
from pipeline.family import Computed, Family, nonempty_list
from pipeline.store import ArtifactSpec, StoredArray


def model_names(section: Mapping[str, Any]) -> list[str]:
    """``tictactoe.models``: opponent models that apply to tic-tac-toe; ValueError naming a bad one."""
    names = nonempty_list(section, "models", "tictactoe.models", "opponent model names")
    try:
        return [m.name for m in models_for(GAME, [get_model(n).name for n in names])]
    except ValueError as exc:
        raise ValueError(f"tictactoe.models: {exc}") from None


def _specs(section: Mapping[str, Any], rules_name: str) -> list[ArtifactSpec]:
    rules = get_rules(rules_name)
    return [ArtifactSpec(name=TABLES_NAME, schema=TABLES_SCHEMA, schema_version=max(TABLES_VERSIONS),
                         game="tictactoe", rules=rules.to_dict(), params={"models": model_names(section)},
                         code=(__name__,), hdf5=True)]


def _compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    from pipeline.tictactoe.retrograde import best_mask, reachable, solve_best_response, solve_minimax

    boards = reachable()
    minimax = solve_minimax(boards)
    models = [get_model(n) for n in spec.params["models"]]
    n = len(boards)
    best = np.zeros((len(models), n))
    moves = np.zeros((len(models), n), dtype=np.uint16)
    start_values = {}
    for k, model in enumerate(models):
        respond, follow = solve_best_response(boards, model)
        for r, board in enumerate(boards):
            best[k, r] = float(respond[board])  # the one rounding of the exact fraction
            moves[k, r] = best_mask(board, follow)
        # The responder moving first (X) and second (O, the model opening): exact expected returns.
        start_values[model.name] = {"first": str(respond[START]), "second": str(follow[START])}
    arrays = {
        "code": StoredArray(np.array([board_code(b) for b in boards], dtype=np.int32),
                            "code[r]: base-3 code of position r (sum of cell * 3**index; 0 empty, 1 X, 2 O), "
                            "increasing"),
        "minimax": StoredArray(np.array([minimax[b] for b in boards], dtype=np.int8),
                               "minimax[r]: value (+1 win, 0 draw, -1 loss) for the player to move, perfect play"),
        "minimax_moves": StoredArray(np.array([best_mask(b, minimax, -1) for b in boards], dtype=np.uint16),
                                     "minimax_moves[r]: bit m set for every move m keeping the minimax value"),
        "best_response": StoredArray(best, "best_response[k, r]: expected return (win 1, draw 0, loss -1) of the "
                                     "player to move best responding to models[k] (exact fraction rounded once)"),
        "best_moves": StoredArray(moves, "best_moves[k, r]: bit m set for every move m of exactly highest "
                                  "best-response value against models[k]"),
    }
    stats = {"positions": n, "terminal": sum(GAME.is_terminal(b) for b in boards),
             "empty_board_minimax": minimax[START], "best_response_from_start": start_values}
    return arrays, stats


def families(section: Mapping[str, Any]) -> list[Family]:
    """One family per rule set in ``tictactoe.rule_sets``."""
    return [Family(name=f"tictactoe-{name}", section="tictactoe",
                   artifacts=lambda s, n=name: _specs(s, n), compute=_compute)
            for name in nonempty_list(section, "rule_sets", "tictactoe.rule_sets", "rule sets")]
