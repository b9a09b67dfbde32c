"""151: rules as data, the exact roll law, and optimal play from the tables.

    from lookup.g151 import decide, value
    decide(600, 250)                      # alone, target 1000: "roll" or "bank"
    decide(600, 250, other_banked=900)    # against an opponent at 900
"""

from lookup.g151.game import DEFAULT_TARGET
from lookup.g151.play import action_values, decide, value
from lookup.g151.rules import (
    DEFAULT_RULES,
    RULE_SETS,
    UNIT,
    Rules,
    get_rules,
    roll_distribution,
    roll_moments,
    roll_points,
)

__all__ = ["DEFAULT_RULES", "DEFAULT_TARGET", "RULE_SETS", "UNIT", "Rules", "action_values", "decide", "get_rules",
           "roll_distribution", "roll_moments", "roll_points", "value"]
