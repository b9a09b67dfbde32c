"""Yahtzee: rules as data, dice encodings, and optimal play from the tables.

    from lookup.yahtzee import decide, distribution
    decide([1, 3, 3, 5, 6], rerolls=2, sheet={"ones": 3, "chance": 22})
    distribution("verhoeff").median  # 248: the exact law of the final score under optimal play
    decide([1, 3, 3, 5, 6], rerolls=2, sheet={"ones": 3, "chance": 22}, goal=300)   # play to win
    decide([1, 3, 3, 5, 6], 2, {}, "scandinavian+forced", opponents=[{}])  # two players, forced order, to win
    decide([1, 3, 3, 5, 6], 2, {}, opponent={"chance": 20})  # to win against an expected-score player

The game through the protocol (records, the review, simulation: ``lookup.games.open_setup("yahtzee", ...)``) is
``lookup.yahtzee.game`` (its positions: ``lookup.yahtzee.positions``); docs/yahtzee.md, "Reviewing a game".
"""

from lookup.yahtzee.duel import DuelDecision, DuelOption, win_probability
from lookup.yahtzee.game import SPEC
from lookup.yahtzee.play import Decision, Option, chance, decide, decide_batch, explain, value
from lookup.yahtzee.positions import YahtzeeGame, YState
from lookup.yahtzee.rules import CATEGORIES, DEFAULT_RULES, RULE_SETS, Rules, get_rules
from lookup.yahtzee.score_law import ScoreDistribution, distribution
from lookup.yahtzee.sheet import Sheet

__all__ = ["CATEGORIES", "DEFAULT_RULES", "RULE_SETS", "SPEC", "Decision", "DuelDecision", "DuelOption", "Option",
           "Rules", "ScoreDistribution", "Sheet", "YState", "YahtzeeGame", "chance", "decide", "decide_batch",
           "distribution", "explain", "get_rules", "value", "win_probability"]
