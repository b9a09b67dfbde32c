"""Dice race (guide, section 3.2): play-time queries over the precomputed tables."""

from lookup.dicerace.tables import RollDistribution, probabilities

__all__ = ["RollDistribution", "probabilities"]
