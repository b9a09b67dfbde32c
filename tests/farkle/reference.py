"""A plain recursion over Farkle's turns, independent of the solver's kernels: every outcome of every roll (no
grouping), every way to set dice aside (no pruning), numbers of any type (floats or Fractions).

``turn(...)`` is the one-turn operator T of docs/farkle.md: the mover's probability of winning from the start of
its turn, playing its best, when the positions the turn can end in are worth ``exits`` to the player who moves
there. Built on the rules' one definition (``lookup.farkle.rules``), which tests/farkle/test_farkle_rules.py
checks by brute force.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Any

from lookup.farkle.rules import Rules, Size, after_farkle, dice_after, keeps, may_bank, roll_outcomes

Position = tuple[int, int, int, int]  # (mover's banked points, its farkles in a row, the other's points, farkles)


def positions(rules: Rules, size: Size) -> list[Position]:
    scores = range(size.floor, size.target, rules.unit)
    counts = range(rules.farkle_limit)
    return [(a, fa, b, fb) for a in scores for fa in counts for b in scores for fb in counts]


def _turn(rules: Rules, size: Size, pos: Position, exits: Callable[[Position], Any], one: Any) -> Callable:
    """The function roll(t, n) of the turn at ``pos``: the mover's value of rolling n dice at turn total t
    (points), playing its best after, ending the turn in position q being worth ``one - exits(q)``."""
    a, fa, b, fb = pos
    farkled = after_farkle(a, fa, rules, size)
    after_farkle_value = one - exits((b, fb, farkled[0], farkled[1]))

    @cache
    def choose(t: int, n: int) -> Any:  # before a roll: bank (when allowed) or roll
        if not may_bank(t, rules):
            return roll(t, n)
        if a + t >= size.target:
            return one  # banking wins
        return max(one - exits((b, fb, a + t, 0)), roll(t, n))

    @cache
    def roll(t: int, n: int) -> Any:
        total = 0 * one
        for outcome, p in roll_outcomes(n):
            options = keeps(outcome, rules)
            if not options:
                total += _p(p, one) * after_farkle_value
                continue
            total += _p(p, one) * max(choose(t + k.points, dice_after(n, len(k.dice), size)) for k in options)
        return total

    return roll


def turn(rules: Rules, size: Size, pos: Position, exits: Callable[[Position], Any], one: Any = 1) -> Any:
    """T(exits) at ``pos``: the best over every way to play the turn of the mover's winning probability, where
    ending the turn in position q (the other player to move) is worth ``1 - exits(q)`` and reaching the target
    is worth ``one``."""
    return _turn(rules, size, pos, exits, one)(0, size.dice)


def turn_table(rules: Rules, size: Size, pos: Position, exits: Callable[[Position], Any],
               rows: int) -> dict[tuple[int, int], Any]:
    """{(t in units, n): R(t, n)} for t < ``rows`` and n = 1 .. dice (floats)."""
    roll = _turn(rules, size, pos, exits, 1.0)
    return {(t, n): roll(t * rules.unit, n) for t in range(rows) for n in range(1, size.dice + 1)}


def _p(p: Fraction, one: Any) -> Any:
    return p if isinstance(one, Fraction) else float(p)


def one_turn_values(rules: Rules, size: Size, X: dict[Position, Any], chosen: list[Position] | None = None,
                    one: Any = 1.0) -> dict[Position, Any]:
    """T(X) at ``chosen`` positions (default: all)."""
    return {pos: turn(rules, size, pos, X.__getitem__, one) for pos in (chosen or positions(rules, size))}
