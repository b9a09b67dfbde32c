"""Every public function of lookup.dicerace, fuzzed: valid input is answered (and a sample of the answers equals
the exact-rational reference, tests/dicerace/exact_reference.py and exact_simultaneous.py), one wrong argument
is refused by a ValueError naming it, and a game that is not built is reported as such (fuzz_inputs)."""

from fractions import Fraction
from functools import cache

import numpy as np
from fuzz_inputs import Sample, answer, bad_choice, bad_integer, examples, integers, is_int, missing, one_wrong, refused
from hypothesis import given
from hypothesis import strategies as st

import lookup.dicerace as dr
from lookup.dicerace.rules import MAX_DICE

from .conftest import SMALL_GRID
from .exact_reference import roll_law, sequential_game
from .exact_simultaneous import fast_roll_law, simultaneous_game

BUILT = {tuple(g) for g in SMALL_GRID}  # (dice, target) of the shared build
MAX_BUILT_DICE = 10  # pipeline/dicerace/game.py small= max_dice: the roll laws built
GAMES = st.sampled_from([*SMALL_GRID, *SMALL_GRID, [3, 30], [7, 20], [1, 1]])  # the last three: not built
MODES = ("sequential", "simultaneous")
RNG = st.one_of(st.none(), integers(0, 9), st.just(np.random.default_rng(1)))
SAMPLE = Sample(every=8)


@cache
def sequential(dice: int, target: int):
    return sequential_game(dice, target)  # (EG, ties) in exact rationals: 0.5 s for (5, 30)


@cache
def simultaneous(dice: int, target: int):
    return simultaneous_game(dice, target)  # 1 s for (3, 20); (5, 30) takes a minute: not sampled


def _option(dice: int, target: int, i: int, j: int, d: int):
    eg, _ = sequential(dice, target)
    return sum(p * (1 if i + k >= target else -eg[(j, i + k)]) for k, p in roll_law(d).items())


def _check_against_reference(fn, got, mine: int, other: int, dice: int, target: int, mode: str) -> None:
    if mode == "sequential":
        eg, ties = sequential(dice, target)
        want, best = eg[(mine, other)], ties[(mine, other)]
        if fn is dr.value:
            assert abs(got - float(want)) <= 1e-12
        elif fn is dr.decide:
            assert got == min(best)
        elif fn is dr.strategy:
            assert got == {d: 1 / len(best) for d in sorted(best)}
        else:
            assert abs(got.value - float(want)) <= 1e-12 and set(got.optimal) == best
            for d, v in got.option_values.items():
                assert abs(v - float(_option(dice, target, mine, other, d))) <= 1e-12, d
        return
    if (dice, target) != (3, 20):
        return
    exact = simultaneous(dice, target)[(mine, other)]
    if fn is dr.value:
        assert abs(got - float(exact.value)) <= 1e-12
    elif fn is dr.explain:
        assert abs(got.value - float(exact.value)) <= 1e-12
        if exact.unique:
            assert set(got.optimal) == {d + 1 for d in exact.support}
    elif fn is dr.strategy and exact.unique:
        assert set(got) == {d + 1 for d in exact.support}


@examples(ci=500, dev=80)
@given(data=st.data())
def test_state_queries(built, data):
    draw = data.draw
    dice, target = draw(GAMES)
    fn = draw(st.sampled_from([dr.decide, dr.strategy, dr.value, dr.explain]))
    valid = {"my_score": draw(integers(0, target - 1)), "other_score": draw(integers(0, target - 1)),
             "dice": dice, "target": target, "mode": draw(st.sampled_from(MODES))}
    bad = {"my_score": bad_integer(0, target - 1), "other_score": bad_integer(0, target - 1),
           "dice": bad_integer(1, MAX_DICE), "target": bad_integer(1, None), "mode": bad_choice(MODES)}
    if fn is dr.decide:
        valid["rng"] = draw(RNG)
        bad["rng"] = bad_integer(0, None, extra=["seed"]).filter(lambda v: v is not None)
    args, wrong = one_wrong(draw, valid, bad)
    mine, other = args.pop("my_score"), args.pop("other_score")
    if wrong is not None:
        refused(fn, mine, other, names=(wrong,), artifacts_dir=built, **args)
    elif (dice, target) not in BUILT:
        missing(fn, mine, other, artifacts_dir=built, **args)
    else:
        got = answer(fn, mine, other, artifacts_dir=built, **args)
        if SAMPLE(draw):
            _check_against_reference(fn, got, int(mine), int(other), dice, target, args["mode"])


@examples(ci=300, dev=60)
@given(data=st.data())
def test_tables_and_roll_laws(built, data):
    draw = data.draw
    dice, target = draw(GAMES)
    fn = draw(st.sampled_from([dr.sequential_table, dr.simultaneous_table]))
    args, wrong = one_wrong(draw, {"dice": dice, "target": target},
                            {"dice": bad_integer(1, None), "target": bad_integer(1, None)})
    if wrong is not None:
        refused(fn, args["dice"], args["target"], names=(wrong,), artifacts_dir=built)
    elif (dice, target) not in BUILT:
        missing(fn, dice, target, artifacts_dir=built)
    else:
        table = answer(fn, dice, target, artifacts_dir=built)
        assert table.value.shape == (target, target)
        i, j = draw(st.integers(0, target - 1)), draw(st.integers(0, target - 1))
        if fn is dr.sequential_table and SAMPLE(draw):
            eg, _ = sequential(dice, target)
            assert abs(float(table.value[i, j]) - float(eg[(i, j)])) <= 1e-12

    d = draw(st.one_of(integers(1, MAX_BUILT_DICE), bad_integer(1, None), integers(MAX_BUILT_DICE + 1, 2**40)))
    if not is_positive(d):
        refused(dr.probabilities, d, names=("d",), artifacts_dir=built)
    elif d > MAX_BUILT_DICE:
        missing(dr.probabilities, d, artifacts_dir=built)  # a valid d past the built max_dice: a table not built
    else:
        law = answer(dr.probabilities, d, artifacts_dir=built)
        want = np.zeros(6 * int(d) + 1)
        for k, p in fast_roll_law(int(d)).items():
            want[k] = float(p)
        assert np.allclose(law.p, want, rtol=0, atol=1e-15)

    for fn, name in ((dr.blind_dice, "dice"), (dr.expected_points, "d")):
        n = draw(st.one_of(integers(1, 40), integers(1, MAX_DICE), bad_integer(1, MAX_DICE)))
        if not is_positive(n) or n > MAX_DICE:
            refused(fn, n, names=(name,))
            continue
        got = answer(fn, n)
        n = int(n)
        # One turn's expected points from the law of each d (a 1 on any die scores 1; else the sum).
        points = {d: sum(k * p for k, p in fast_roll_law(d).items()) for d in range(1, min(n, 12) + 1)}
        if fn is dr.expected_points:
            safe = Fraction(5, 6) ** n  # beyond 12 dice, from the rules: no 1 among n dice, each then 4 on average
            assert got == (points[n] if n <= 12 else (1 - safe) + safe * n * 4)
        else:  # the blind d maximises them (points fall beyond 6 dice: checked up to 12)
            assert got == max(points, key=lambda d: (points[d], -d))


def is_positive(value) -> bool:
    return is_int(value, 1, None)
