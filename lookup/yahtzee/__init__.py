"""Yahtzee: rules as data (GUIDE 3.1), dice encodings and the turn-start state space."""

from lookup.yahtzee.rules import CATEGORIES, RULE_SETS, Rules, get_rules

__all__ = ["CATEGORIES", "RULE_SETS", "Rules", "get_rules"]
