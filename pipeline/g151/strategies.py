"""Strategies for 151 as roll-probability tables: the notebook's, and the optimal ones.

A strategy gives, for a target of ``n`` units (50 points each), the probability of rolling again:
``solitaire(n, rules)[a, t]`` and ``duel(n, rules)[a, b, t]`` (mover's view: own banked a, opponent's b,
turn total t after a scoring roll; t = 0 is the forced first roll). The notebook's strategies ignore the
opponent, so their duel table repeats the solitaire one along b.

The notebook's players answer "continue?" seeing the banked score, the turn total (with the last roll)
and the target; their rules are transcribed below. A turn total above what is left to the target is a
lost turn whatever the player does, so those entries are never consulted.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from lookup.g151.rules import UNIT, Rules, get_rules

Table = Callable[[int, Rules], np.ndarray]


@dataclass(frozen=True)
class Strategy:
    """A named policy. ``table(n, rules)`` gives roll probabilities [a, t] (or [a, b, t] when the
    strategy looks at the opponent's score)."""

    name: str
    table: Table
    description: str = ""

    def solitaire(self, n: int, rules: Rules | str) -> np.ndarray:
        """Roll probabilities [a, t] for solitaire play (column t = 0 is 1: the first roll is forced)."""
        table = _forced_first_roll(self.table(n, get_rules(rules)))
        if table.ndim != 2:
            raise ValueError(f"{self.name} is a two-player policy; it has no solitaire table")
        return table

    def duel(self, n: int, rules: Rules | str) -> np.ndarray:
        """Roll probabilities [a, b, t] for two-player play (t = 0 is 1: the first roll is forced)."""
        table = _forced_first_roll(self.table(n, get_rules(rules)))
        if table.ndim == 2:
            return np.ascontiguousarray(np.broadcast_to(table[:, None, :], (n + 1, n + 1, n + 1)))
        return table


def _forced_first_roll(table: np.ndarray) -> np.ndarray:
    table = np.array(table, dtype=np.float64)
    table[..., 0] = 1.0
    return table


def _grid(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(a, t) index grids of a solitaire table."""
    return np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")


def un_coup() -> Strategy:
    """``unCoup``: always bank after the first scoring roll."""
    return Strategy("unCoup", lambda n, rules: np.zeros((n + 1, n + 1)), "bank at once")


def jusquau_bout() -> Strategy:
    """``jusquauBout``: roll until the turn total reaches what is left to the target."""

    def table(n: int, rules: Rules) -> np.ndarray:
        a, t = _grid(n)
        return (a + t < n).astype(np.float64)

    return Strategy("jusquauBout", table, "roll until the target is reached (or the turn lost)")


def au_moins(x_points: int) -> Strategy:
    """``auMoinsX``: bank once the turn total is at least X points, or reaches the target, or when less
    than X points are left to the target; roll otherwise."""
    if isinstance(x_points, bool) or not isinstance(x_points, int) or x_points < 1:
        raise ValueError(f"auMoinsX needs a positive integer X (points), got {x_points!r}")

    def table(n: int, rules: Rules) -> np.ndarray:
        a, t = _grid(n)
        bank = (t * UNIT >= x_points) | (a + t == n) | ((n - a) * UNIT < x_points)
        return (~bank).astype(np.float64)

    return Strategy(f"auMoins{x_points}", table, f"bank from {x_points} points in the turn")


def bernoulli(p: float) -> Strategy:
    """``bernoulli_p``: after every scoring roll bank with probability p (roll with 1 - p), blindly."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"bernoulli(p) needs p in [0, 1], got {p!r}")
    return Strategy(f"bernoulli_{p:.3g}", lambda n, rules: np.full((n + 1, n + 1), 1.0 - p),
                    f"bank with probability {p:.3g}")


def optimal() -> Strategy:
    """The optimal policies: fewest expected turns alone, highest win probability against anyone."""

    def table(n: int, rules: Rules) -> np.ndarray:
        raise AssertionError("optimal() is dispatched by solitaire() / duel()")

    return _Optimal("optimal", table, "optimal (solitaire: fewest turns; two players: most wins)")


def optimal_solitaire() -> Strategy:
    """The optimal solitaire policy, also usable in a duel (where it ignores the opponent)."""
    from pipeline.g151.solve import solve_solitaire

    return Strategy("optimalSolitaire", lambda n, rules: _rolls(solve_solitaire(rules, n).policy),
                    "fewest expected turns, blind to the opponent")


class _Optimal(Strategy):
    def solitaire(self, n: int, rules: Rules | str) -> np.ndarray:
        from pipeline.g151.solve import solve_solitaire

        return _rolls(solve_solitaire(rules, n).policy)

    def duel(self, n: int, rules: Rules | str) -> np.ndarray:
        from pipeline.g151.solve import solve_duel

        return _rolls(solve_duel(rules, n).policy)


def _rolls(policy: np.ndarray) -> np.ndarray:
    """Roll probabilities of a policy table (1 roll, 0 bank, 2 no decision)."""
    return (policy == 1).astype(np.float64)


NOTEBOOK_NAMES = "unCoup, jusquauBout, auMoinsX (X points), bernoulli_p (bank with probability p)"


def strategy(name: str) -> Strategy:
    """The strategy called ``name``: unCoup, jusquauBout, auMoins<X>, bernoulli_<p>, optimal, optimalSolitaire."""
    fixed = {"unCoup": un_coup, "jusquauBout": jusquau_bout, "optimal": optimal,
             "optimalSolitaire": optimal_solitaire}
    if name in fixed:
        return fixed[name]()
    if m := re.fullmatch(r"auMoins(\d+)", name):
        return au_moins(int(m.group(1)))
    if m := re.fullmatch(r"bernoulli_([0-9.]+)", name):
        return bernoulli(float(m.group(1)))
    raise ValueError(f"unknown strategy {name!r}; known: {NOTEBOOK_NAMES}, optimal, optimalSolitaire")
