"""Dice race: play-time queries over the precomputed tables.

    from lookup.dicerace import decide, value
    decide(37, 52, dice=10, target=100)                        # number of dice, sequential game
    decide(37, 52, dice=10, target=100, mode="simultaneous", rng=7)
"""

from lookup.dicerace.play import Explanation, decide, explain, strategy, value
from lookup.dicerace.rules import blind_dice, expected_points
from lookup.dicerace.tables import (
    RollDistribution,
    SequentialTable,
    SimultaneousTable,
    probabilities,
    sequential_table,
    simultaneous_table,
)

__all__ = ["Explanation", "RollDistribution", "SequentialTable", "SimultaneousTable", "blind_dice", "decide",
           "expected_points", "explain", "probabilities", "sequential_table", "simultaneous_table", "strategy",
           "value"]
