"""Yahtzee: rules as data, dice encodings, and optimal play from the tables.

    from lookup.yahtzee import decide, distribution
    decide([1, 3, 3, 5, 6], rerolls=2, sheet={"ones": 3, "chance": 22})
    distribution("verhoeff").median  # 248: the exact law of the final score under optimal play
    decide([1, 3, 3, 5, 6], rerolls=2, sheet={"ones": 3, "chance": 22}, goal=300)   # play to win
    review(record).total_cost  # what a recorded game's decisions cost, in expected points (docs/yahtzee.md)
    decide([1, 3, 3, 5, 6], 2, {}, "scandinavian+forced", opponents=[{}])  # two players, forced order, to win
    decide([1, 3, 3, 5, 6], 2, {}, "hasbro", opponent={"chance": 20})  # to win against an expected-score player
"""

from lookup.yahtzee.duel import DuelDecision, DuelOption, win_probability
from lookup.yahtzee.game_review import Review, ReviewedDecision, judge, review
from lookup.yahtzee.play import Decision, Option, chance, decide, decide_batch, explain, value
from lookup.yahtzee.record import GameRecord, load_record, parse_record
from lookup.yahtzee.rules import CATEGORIES, RULE_SETS, Rules, get_rules
from lookup.yahtzee.score_law import ScoreDistribution, distribution
from lookup.yahtzee.sheet import Sheet

__all__ = ["CATEGORIES", "RULE_SETS", "Decision", "DuelDecision", "DuelOption",
           "GameRecord", "Option", "Review", "ReviewedDecision", "Rules",
           "ScoreDistribution", "Sheet", "chance", "decide", "decide_batch", "distribution", "explain", "get_rules",
           "judge", "load_record", "parse_record", "review", "value", "win_probability"]
