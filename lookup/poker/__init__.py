"""Texas hold'em: cards and notation, the ranking, a table-driven evaluator, exact
equity, and preflop tables.

    from lookup.poker import equity, preflop, hand_value
    equity(["AsAh", "KdKc"]).wins[0]             # 1388072 of the 1,712,304 boards, exactly
    preflop("AKs", opponents=3).equity           # by indexing the preflop table
    hand_value("As Ks Qs Js Ts 2c 3d")           # (32778, 'straight flush')
    range_equity(["AsAh", "QQ+, AKs"]).equity    # a hand against a range: exact, from the preflop table
"""

from lookup.poker.cards import class_name, parse_cards, parse_class
from lookup.poker.equity import Equity, equity
from lookup.poker.evaluate import hand_value
from lookup.poker.play import CallDecision, PreflopEquity, call_decision, decide, heads_up, preflop, value
from lookup.poker.range_equity import RangeEquity, range_equity
from lookup.poker.ranges import Range, parse_range
from lookup.poker.rules import CATEGORIES, DEFAULT_RULES, RULE_SETS, RULES, get_rules

__all__ = ["CATEGORIES", "DEFAULT_RULES", "RULES", "RULE_SETS", "CallDecision", "Equity", "PreflopEquity", "Range",
           "RangeEquity", "call_decision", "class_name", "decide", "equity", "get_rules", "hand_value", "heads_up",
           "parse_cards", "parse_class", "parse_range", "preflop", "range_equity", "value"]
