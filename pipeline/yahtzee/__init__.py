"""Producers for Yahtzee: the numba solver (values, policy, exact statistics)."""
