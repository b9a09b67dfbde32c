"""Exact linear algebra for the test oracles: Gauss-Jordan elimination over fractions (no floats)."""

from __future__ import annotations

from fractions import Fraction


def solve_augmented(rows: list[list[Fraction]]) -> list[Fraction] | None:
    """The solution x of the square system whose augmented rows are ``[A | b]`` (n rows of n + 1
    fractions), or None when A is singular. ``rows`` is left as it was."""
    n = len(rows)
    a = [list(r) for r in rows]
    for col in range(n):
        piv = next((r for r in range(col, n) if a[r][col] != 0), None)
        if piv is None:
            return None
        a[col], a[piv] = a[piv], a[col]
        inv = 1 / a[col][col]
        a[col] = [v * inv for v in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col]
                a[r] = [v - f * w for v, w in zip(a[r], a[col], strict=True)]
    return [a[r][n] for r in range(n)]
