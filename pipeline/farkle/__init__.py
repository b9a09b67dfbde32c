"""Farkle's table families, solver and report. May import ``lookup`` and ``pipeline``'s shared modules."""
