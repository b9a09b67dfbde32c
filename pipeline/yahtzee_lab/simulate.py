"""Seeded Monte Carlo games of solitaire Yahtzee played by given policy tables (the compiled engine).

Scores are REAL final scores: the upper bonus is always paid when earned (also for ``seed``, whose
optimisation ignores it) and so is every Yahtzee bonus. Game g reads the dice streams of (seed, g) (see
``pipeline.yahtzee.streams``), so results do not depend on the number of threads. Players by name, matches
and statistics: ``pipeline.yahtzee_lab.match``.
"""

from __future__ import annotations

import numpy as np

from lookup.yahtzee.rules import Rules, get_rules
from pipeline.yahtzee.streams import MODE_CODES
from pipeline.yahtzee_lab import engine
from pipeline.yahtzee_lab.players import NO_PLAYER, frozen, game_rules, player_params


def simulate(rules: Rules | str, state_index: np.ndarray, reroll: np.ndarray, category: np.ndarray,
             games: int, seed: int = 0) -> np.ndarray:
    """Final scores (int64, points) of ``games`` seeded solo games played by the policy tables."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    table = get_rules(rules)
    player = (player_params(engine.KIND_TABLE, table), frozen(np.asarray(state_index, dtype=np.int32)),
              frozen(np.asarray(reroll, dtype=np.uint8)), frozen(np.asarray(category, dtype=np.uint8)),
              NO_PLAYER[4], NO_PLAYER[5])
    scores = np.zeros((games, 2), dtype=np.int32)
    bonus = np.zeros((games, 2), dtype=np.uint8)
    errors = np.zeros(games, dtype=np.uint8)
    engine.play_games_parallel(0, games, seed, MODE_CODES["solo"], player, NO_PLAYER,
                               engine.game_tables(game_rules(table)), scores, bonus, errors, engine.n_chunks(games))
    if errors.any():
        raise ValueError(f"game {int(np.flatnonzero(errors)[0])}: the policy chose a box the rules do not allow")
    return scores[:, 0].astype(np.int64)
