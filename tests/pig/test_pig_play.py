"""Pig's thin entry points (decide, value, explain) answer from the tables, equal to the protocol's advisor, and
refuse bad input with a ValueError naming it."""

from __future__ import annotations

import pytest

from lookup.errors import NotBuiltError
from lookup.games import open_setup
from lookup.pig import PigState, decide, explain, value

TARGET = 20  # the small tables (pipeline/pig/game.py, small=)
NAN, HUGE = float("nan"), 2**70


def test_entry_points_are_the_advisors_answers(pig_tables):
    advisor = open_setup("pig", {"target": TARGET}, pig_tables)
    for mine in range(0, TARGET, 3):
        for other in range(0, TARGET, 4):
            for turn in [0, *range(2, TARGET - mine)]:
                state = PigState((mine, other), 0, turn, turn == 0)
                got = explain(mine, other, turn, TARGET, artifacts_dir=pig_tables)
                if turn == 0:
                    assert got == {"roll": advisor.value(state, 0)} and decide(mine, other, 0, TARGET,
                                                                                artifacts_dir=pig_tables) == "roll"
                    continue
                assert got == advisor.action_values(state)
                best = max(got.values())
                assert decide(mine, other, turn, TARGET, artifacts_dir=pig_tables) == \
                    ("roll" if got["roll"] >= best - 1e-12 else "hold")
                assert value(mine, other, turn, TARGET, artifacts_dir=pig_tables) == best


def test_holding_at_the_target_wins(pig_tables):
    got = explain(18, 18, 0, TARGET, artifacts_dir=pig_tables)
    assert 0 < got["roll"] < 1
    assert explain(10, 18, 8, TARGET, artifacts_dir=pig_tables)["hold"] == 1 - value(18, 18, 0, TARGET,
                                                                                          artifacts_dir=pig_tables)
    assert decide(17, 0, 2, TARGET, artifacts_dir=pig_tables) in ("roll", "hold")


@pytest.mark.parametrize("args", [
    (None, 0, 0), (1.5, 0, 0), (NAN, 0, 0), (HUGE, 0, 0), (-1, 0, 0), (20, 0, 0), ("3", 0, 0), (True, 0, 0),
    (0, None, 0), (0, -1, 0), (0, 20, 0), (0, 0, -1), (0, 0, 1), (0, 0, 1.0), (15, 0, 5), (19, 0, 3),
])
def test_bad_positions_are_value_errors(pig_tables, args):
    for fn in (decide, value, explain):
        with pytest.raises(ValueError, match=r"\S"):
            fn(*args, TARGET, artifacts_dir=pig_tables)


def test_targets_not_built_or_bad(pig_tables):
    with pytest.raises(NotBuiltError, match="target 100 is not built"):
        value(0, 0, 0, 100, artifacts_dir=pig_tables)
    for junk in (0, -5, 1001, NAN, "100", None):
        with pytest.raises(ValueError, match="target"):
            value(0, 0, 0, junk, artifacts_dir=pig_tables)
