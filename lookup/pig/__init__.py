"""Pig: two players race to 100 rolling one die; optimal play from the exact tables.

    from lookup.pig import decide, value
    decide(my_score=60, other_score=85, turn_total=14)     # "roll" or "hold"
    value(0, 0)                                            # 0.5305927...: the first player's chance
"""

from lookup.pig.game import SPEC, PigAdvisor, PigGame, PigState
from lookup.pig.play import decide, explain, value
from lookup.pig.rules import DEFAULT_RULES, RULE_SETS, Rules, get_rules

__all__ = ["DEFAULT_RULES", "RULE_SETS", "SPEC", "PigAdvisor", "PigGame", "PigState", "Rules", "decide", "explain",
           "get_rules", "value"]
