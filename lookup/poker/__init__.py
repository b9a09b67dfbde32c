"""Texas hold'em (guide, section 3.5): cards and notation, the ranking, a table-driven evaluator.

    from lookup.poker import hand_value
    hand_value("As Ks Qs Js Ts 2c 3d")          # (32778, 'straight flush')
"""

from lookup.poker.cards import class_name, parse_cards, parse_class
from lookup.poker.evaluate import hand_value
from lookup.poker.rules import CATEGORIES, RULES

__all__ = ["CATEGORIES", "RULES", "class_name", "hand_value", "parse_cards", "parse_class"]
