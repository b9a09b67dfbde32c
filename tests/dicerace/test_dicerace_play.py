"""lookup.dicerace on small built tables: decide / strategy / value / explain, and bad input."""

import numpy as np
import pytest

from lookup.dicerace import decide, explain, probabilities, sequential_table, simultaneous_table, strategy, value
from pipeline.dicerace.sequential import solve_sequential
from pipeline.dicerace.simultaneous import solve_simultaneous


def test_sequential_answers_come_from_the_solver(built):
    sol = solve_sequential(5, 30)
    table = sequential_table(5, 30, artifacts_dir=built)
    assert np.array_equal(table.value, sol.value) and np.array_equal(table.optimal, sol.optimal)
    for mine, other in [(0, 0), (12, 25), (28, 3), (29, 29)]:
        ties = [d for d in range(1, 6) if sol.optimal[mine, other] >> (d - 1) & 1]
        assert decide(mine, other, dice=5, target=30, artifacts_dir=built) == ties[0]
        assert strategy(mine, other, dice=5, target=30, artifacts_dir=built) == {d: 1 / len(ties) for d in ties}
        assert value(mine, other, dice=5, target=30, artifacts_dir=built) == sol.value[mine, other]
        info = explain(mine, other, dice=5, target=30, artifacts_dir=built)
        assert info.optimal == tuple(ties)
        best = max(info.option_values.values())
        assert abs(best - info.value) < 1e-12
        assert all(abs(info.option_values[d] - best) < 1e-12 for d in ties)


def test_simultaneous_answers_and_sampling(built):
    sol = solve_simultaneous(5, 30)
    table = simultaneous_table(5, 30, artifacts_dir=built)
    assert np.array_equal(table.value, sol.value) and np.array_equal(table.flags, sol.flags)
    mixed = np.argwhere(sol.mixed_row >= 0)
    assert len(mixed)
    mine, other = (int(x) for x in mixed[0])
    probs = sol.strategy(mine, other)
    got = strategy(mine, other, dice=5, target=30, mode="simultaneous", artifacts_dir=built)
    assert got == {d + 1: float(p) for d, p in enumerate(probs) if p > 0}
    rng = np.random.default_rng(5)
    draws = [decide(mine, other, dice=5, target=30, mode="simultaneous", rng=rng, artifacts_dir=built)
             for _ in range(4000)]
    for d, p in got.items():
        assert abs(draws.count(d) / 4000 - p) < 4 * np.sqrt(p * (1 - p) / 4000) + 1e-9
    assert set(draws) == set(got)
    same = [decide(mine, other, dice=5, target=30, mode="simultaneous", rng=9, artifacts_dir=built) for _ in range(3)]
    assert len(set(same)) == 1
    info = explain(mine, other, dice=5, target=30, mode="simultaneous", artifacts_dir=built)
    assert info.mixed and not info.saddle_point
    # Against the opponent's optimal strategy every d of the support earns the value.
    for d in info.optimal:
        assert abs(info.option_values[d] - info.value) < 1e-9
    assert max(info.option_values.values()) <= info.value + 1e-9
    assert value(mine, other, dice=5, target=30, mode="simultaneous", artifacts_dir=built) == sol.value[mine, other]


@pytest.mark.parametrize("args, kwargs, message", [
    ((-1, 0), {}, "my_score=-1 outside 0..29"),
    ((0, 30), {}, "other_score=30 outside 0..29"),
    ((30, 0), {"mode": "simultaneous"}, "my_score=30"),
    ((1.5, 0), {}, "must be an integer"),
    ((0, 0), {"mode": "chess"}, "mode must be one of"),
    ((0, 0), {"dice": 0}, "dice=0 outside 1..1000"),
    ((0, 0), {"dice": 7}, r"\(dice=7, target=30\) is not built"),
    ((0, 0), {"target": 31}, r"\(dice=5, target=31\) is not built"),
])
def test_bad_input_is_a_value_error(built, args, kwargs, message):
    call = {"dice": 5, "target": 30, "artifacts_dir": built, **kwargs}
    for function in (decide, strategy, value, explain):
        with pytest.raises(ValueError, match=message):
            function(*args, **call)


def test_dice_out_of_range_and_missing_tables(built, tmp_path):
    with pytest.raises(ValueError, match="d must be an integer >= 1"):
        probabilities(0, artifacts_dir=built)
    with pytest.raises(ValueError, match="max_dice=10: d=11 is not built"):
        probabilities(11, artifacts_dir=built)
    with pytest.raises(ValueError, match="not built"):
        decide(0, 0, dice=5, target=30, artifacts_dir=tmp_path)


def test_cli_decide_json(built):
    """The --json answer is explain()'s, and its numbers are the solver's."""
    import json

    from click.testing import CliRunner

    from pipeline.cli import main

    sol = solve_sequential(5, 30)
    out = CliRunner().invoke(main, ["dicerace", "decide", "12", "25", "--dice", "5", "--target", "30", "--json",
                                    "--artifacts", str(built)])
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    ties = [d for d in range(1, 6) if sol.optimal[12, 25] >> (d - 1) & 1]
    assert got["dice_to_roll"] == ties[0] and got["optimal"] == ties and got["value"] == sol.value[12, 25]
    assert set(got["option_values"]) == {"1", "2", "3", "4", "5"} and got["mixed"] is None
    out = CliRunner().invoke(main, ["dicerace", "decide", "30", "0", "--dice", "5", "--target", "30", "--json",
                                    "--artifacts", str(built)])
    assert out.exit_code == 1 and "Error" in out.output
