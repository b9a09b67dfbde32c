"""Looking up a named variant (a rule set, a strategy) with an error that lists the known names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from lookup.validate import shown

T = TypeVar("T")


def by_name(table: Mapping[str, T], name: object, kind: str) -> T:
    """``table[name]``, or ValueError "unknown KIND 'name'; known: a, b, c" (also for unhashable names)."""
    try:
        return table[name]  # type: ignore[index]
    except (KeyError, TypeError):
        raise ValueError(f"unknown {kind} {shown(name)}; known: {', '.join(table)}") from None
