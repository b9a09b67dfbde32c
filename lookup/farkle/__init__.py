"""Farkle: two players race to 10,000 with six dice; play to win from the exact tables (docs/farkle.md).

    from lookup.farkle import decide, value
    decide(2000, 3500, roll=[1, 1, 2, 3, 5, 6])   # which dice to set aside, then roll or bank
    value(0, 0)                                    # the first player's chance, both playing to win
"""

from lookup.farkle.game import SPEC, FarkleAdvisor, FarkleGame, FarkleState
from lookup.farkle.play import Decision, decide, expected_points, explain, value
from lookup.farkle.rules import DEFAULT_RULES, FULL, RULE_SETS, Rules, Size, get_rules, keeps, points

__all__ = ["DEFAULT_RULES", "FULL", "RULE_SETS", "SPEC", "Decision", "FarkleAdvisor", "FarkleGame", "FarkleState",
           "Rules", "Size", "decide", "expected_points", "explain", "get_rules", "keeps", "points", "value"]
