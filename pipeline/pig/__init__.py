"""Pig's table family, its solver and its report. May import ``lookup`` and ``pipeline``'s shared modules."""
