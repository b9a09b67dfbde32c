"""The two-player solver (pipeline/farkle) against an independent method, never its own output: the plain
recursion of tests/farkle/reference.py (every outcome of every roll, every way to set dice aside), in floats and
in exact rationals.

* the kernels' one-turn operator is the reference's (exits that favour a higher own score, as the game's values
  do: docs/farkle.md, "Which choices the solver compares");
* the certified box holds the exact value: L <= T(H) and T(L) <= H checked in Fractions with the reference's T
  (docs/farkle.md, "The error bound": then the unique fixed point, the game's value, lies in [L, H]);
* the stored tables (built through the registry, Dask tasks and all) are a fixed point of the reference's T and
  every stored R(t, n) is the reference's turn, within the stored bound;
* the numbers do not depend on the number of threads.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from lookup.farkle.rules import FULL, Rules, Size, get_rules
from lookup.farkle.tables import load_table
from pipeline.farkle import kernels
from pipeline.farkle.solve import Solver, solve
from tests.farkle import reference as ref

RULES = get_rules()
SMALL_RULES = Rules(name="small", min_bank=100, penalty=100)  # a smaller turn: a target of 300 is a real game


def _index(rules: Rules, size: Size, pos: ref.Position) -> tuple[int, int, int, int]:
    a, fa, b, fb = pos
    u = rules.unit
    return (a - size.floor) // u, fa, (b - size.floor) // u, fb


def _as_dict(rules: Rules, size: Size, X: np.ndarray, convert=float) -> dict[ref.Position, object]:
    return {p: convert(float(X[_index(rules, size, p)])) for p in ref.positions(rules, size)}


@pytest.mark.parametrize(("rules", "size", "sample"), [
    pytest.param(RULES, Size(400, -100, 2), None, marks=pytest.mark.full),
    pytest.param(RULES, Size(600, -500, 3), 120, marks=pytest.mark.full),
    (RULES, Size(700, -500, 6), 6),  # six dice: the straight, three pairs, hot dice
    (SMALL_RULES, Size(300, -100, 2), None)])
def test_the_kernels_turn_is_the_reference_turn(rules, size, sample):
    s = Solver(rules, size)
    rng = np.random.default_rng(7)
    # Exits worth less to their mover the higher the other's score (the game's values are).
    X = -np.sort(-rng.random((s.NB, s.FL, s.NB, s.FL)), axis=2)
    chosen = ref.positions(rules, size)
    if sample:
        chosen = random.Random(3).sample(chosen, sample)
    expected = ref.one_turn_values(rules, size, _as_dict(rules, size, X), chosen)
    for pos in chosen:
        i, f, j, g = _index(rules, size, pos)
        width = max(s.NB - i, s.M) * size.dice
        r = (f * s.NB + j) * s.FL + g
        got = kernels.block_values(X, i, r, r + 1, *s.args, np.empty(width))[0]
        assert abs(got - expected[pos]) < 1e-14, pos


@pytest.mark.parametrize(("rules", "size"), [
    pytest.param(RULES, Size(400, -100, 2), marks=pytest.mark.full),
    (SMALL_RULES, Size(300, -100, 2)),
    pytest.param(RULES, Size(350, -550, 1), marks=pytest.mark.full)])
def test_the_certified_box_holds_the_exact_value(rules, size):
    sol = solve(rules, size)
    low = _as_dict(rules, size, sol.low, Fraction)
    high = _as_dict(rules, size, sol.high, Fraction)
    one = Fraction(1)
    t_high = ref.one_turn_values(rules, size, high, one=one)
    t_low = ref.one_turn_values(rules, size, low, one=one)
    assert all(t_high[p] >= low[p] for p in low), "a low bound above T(high)"
    assert all(t_low[p] <= high[p] for p in high), "a high bound below T(low)"
    assert sol.stats["gap"] == float(np.max(sol.high - sol.low)) and sol.bound < 1e-8


def test_threads_change_no_number():
    size = Size(700, -500, 6)
    one, three = solve(RULES, size, threads=1), solve(RULES, size, threads=3)
    for a, b in ((one.low, three.low), (one.high, three.high)):
        assert a.tobytes() == b.tobytes()


def test_the_stored_tables_are_the_reference_game(farkle_tables):
    size = Size(500, -100, 2)  # every position, the reference's T of the stored turn starts
    table = load_table(RULES, size, farkle_tables)
    X = _as_dict(RULES, size, table.start)
    T = ref.one_turn_values(RULES, size, X)
    worst = max(abs(T[p] - X[p]) for p in X)
    assert worst <= 2 * table.bound and table.bound < 1e-11, (worst, table.bound)
    assert table.stats["states"] == 20_088


def test_every_stored_roll_value_is_the_reference_turn(farkle_tables):
    size = Size(600, -500, 6)
    table = load_table(RULES, size, farkle_tables)
    X = _as_dict(RULES, size, table.start)
    lay = table.layout
    rng = random.Random(11)
    for pos in rng.sample(ref.positions(RULES, size), 6):
        i, f, j, g = _index(RULES, size, pos)
        stored = table.turn_values(i, f, j, g)
        expected = ref.turn_table(RULES, size, pos, X.__getitem__, lay.rows(i))
        for (t, n), v in expected.items():
            assert abs(stored[t, n - 1] - v) <= 2 * table.bound + 1e-15, (pos, t, n)
    assert table.bound <= 1e-12


@pytest.mark.full
def test_the_full_game_is_the_published_one():
    """423,765,000 states; the first player wins 53.487 % (M. Busche, 2016); certified to 1e-12 (minutes)."""
    from lookup.farkle.rules import state_count

    sol = solve(RULES, FULL, threads=2)
    i0 = -FULL.floor // RULES.unit
    assert state_count(FULL) == 423_765_000
    assert round(100 * float(sol.mid[i0, 0, i0, 0]), 3) == 53.487
    assert sol.bound < 1e-12
