"""Producers of the dice-race tables."""
