"""Farkle's entry points (decide, value, explain) answer from the tables as the protocol's advisor does, the
advisor's numbers are the stored ones, and bad input is a ValueError naming it; the protocol's commands work for
Farkle without a command of its own."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from lookup.errors import NotBuiltError
from lookup.farkle import FarkleState, decide, explain, value
from lookup.farkle.rules import get_rules, keeps, roll_outcomes
from lookup.farkle.tables import built_sizes, load_table
from lookup.games import open_setup

SETUP = {"target": 600, "floor": -500, "dice": 6}  # the small tables (pipeline/farkle/game.py, small=)
NAN, HUGE = float("nan"), 2**70
RULES = get_rules()


def test_the_small_sizes_are_built(farkle_tables):
    assert [tuple(s) for s in built_sizes(RULES, farkle_tables)] == [(600, -500, 6), (500, -100, 2)]


def test_entry_points_are_the_advisors_answers(farkle_tables):
    a = farkle_tables
    advisor = open_setup("farkle", SETUP, a)
    game = advisor.game
    table = load_table(RULES, game.size, a)
    rng = random.Random(4)
    scoring = [r for r, _ in roll_outcomes(6) if keeps(r)]
    for _ in range(40):
        mine, other = rng.randrange(-500, 600, 50), rng.randrange(-500, 600, 50)
        fm, fo = rng.randrange(3), rng.randrange(3)
        # The start of a turn: the stored turn-start value; rolling is the only choice.
        start = FarkleState((mine, other), (fm, fo), 0, 0, 6, None, True)
        i, j = (mine + 500) // 50, (other + 500) // 50
        assert value(mine, other, my_farkles=fm, other_farkles=fo, setup=SETUP, artifacts_dir=a) == \
            advisor.value(start, 0) == float(table.start[i, fm, j, fo])
        assert decide(mine, other, my_farkles=fm, other_farkles=fo, setup=SETUP, artifacts_dir=a).action == "roll"
        # After a roll: the best keep, then the best of bank and roll.
        roll = rng.choice(scoring)
        options = explain(mine, other, roll=list(roll), my_farkles=fm, other_farkles=fo, setup=SETUP, artifacts_dir=a)
        state = FarkleState((mine, other), (fm, fo), 0, 0, 6, roll, False)
        assert options == advisor.action_values(state)
        d = decide(mine, other, roll=roll, my_farkles=fm, other_farkles=fo, setup=SETUP, artifacts_dir=a)
        assert options[d.keep] == max(options.values()) and d.value == options[d.keep]
        after = game.apply(state, d.keep)
        assert (d.turn_total, d.dice) == (after.turn_total, after.dice)
        assert d.action == advisor.decide(after)
        # Before a roll with a turn total: bank where allowed, else roll.
        turn, dice = rng.randrange(50, 1500, 50), rng.randint(1, 6)
        got = explain(mine, other, turn, dice, my_farkles=fm, other_farkles=fo, setup=SETUP, artifacts_dir=a)
        assert ("bank" in got) == (turn >= 300) and set(got) <= {"bank", "roll"}
        assert value(mine, other, turn, dice, my_farkles=fm, other_farkles=fo, setup=SETUP, artifacts_dir=a) == \
            max(got.values())


def test_a_bank_that_reaches_the_target_wins(farkle_tables):
    got = explain(400, 0, 300, 2, setup=SETUP, artifacts_dir=farkle_tables)
    assert got["bank"] == 1.0 and got["roll"] < 1.0
    assert decide(400, 0, 300, 2, setup=SETUP, artifacts_dir=farkle_tables).action == "bank"
    # Below 300 nothing can be banked, even past the target: the dice must be rolled.
    assert set(explain(550, 0, 250, 2, setup=SETUP, artifacts_dir=farkle_tables)) == {"roll"}


@pytest.mark.parametrize(("args", "kwargs"), [
    ((None, 0), {}), ((1.5, 0), {}), ((NAN, 0), {}), ((HUGE, 0), {}), ((25, 0), {}), ((-550, 0), {}),
    (("0", 0), {}), ((True, 0), {}), ((0, None), {}), ((0, 0, -50), {}), ((0, 0, 60), {}), ((0, 0, 0, 3), {}),
    ((0, 0, 300, 7), {}), ((0, 0, 300, 0), {}), ((0, 0), {"my_farkles": 3}), ((0, 0), {"other_farkles": -1}),
    ((0, 0), {"roll": [2, 3, 4, 6, 6, 2]}), ((0, 0), {"roll": [1, 2]}), ((0, 0), {"roll": [0, 1, 2, 3, 4, 5]}),
    ((0, 0), {"roll": "123456"}), ((0, 0, 300, 2), {"roll": [1, 1, 1]}), ((650, 0), {}),
    ((0, 0), {"setup": {"target": 601}}), ((0, 0), {"setup": {"nosuch": 1}}), ((0, 0), {"setup": "x"}),
])
def test_bad_positions_are_value_errors(farkle_tables, args, kwargs):
    kwargs = {"setup": SETUP, **kwargs}
    for fn in (decide, value, explain):
        with pytest.raises(ValueError, match=r"\S"):
            fn(*args, **kwargs, artifacts_dir=farkle_tables)


def test_sizes_not_built(farkle_tables):
    with pytest.raises(NotBuiltError, match="not built"):
        value(0, 0, artifacts_dir=farkle_tables)  # the full game is not among the small tables
    with pytest.raises(NotBuiltError, match="not built"):
        value(0, 0, setup=SETUP, artifacts_dir=farkle_tables / "nosuch")


def test_the_protocol_commands(farkle_tables):
    from pipeline.cli import main

    runner = CliRunner()
    base = ["--artifacts", str(farkle_tables)]
    setup = ["--setup", "target=600", "--setup", "floor=-500"]
    out = runner.invoke(main, ["farkle", "setups", "--json", *base])
    assert out.exit_code == 0, out.output
    assert {"target": 600, "floor": -500, "dice": 6} in json.loads(out.output)["setups"]
    position = {"scores": [0, 100], "to_move": 0, "turn_total": 0, "dice": 6, "roll": [1, 1, 2, 3, 5, 6],
                "rolling": False}
    out = runner.invoke(main, ["farkle", "advise", *setup, "--position", json.dumps(position), "--json", *base])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["advice"] in [o["action"] for o in data["options"] if o["best"]]
    assert data["values"][0] == pytest.approx(1 - data["values"][1])
    out = runner.invoke(main, ["farkle", "simulate", *setup, "--games", "3", "--json", *base])
    assert out.exit_code == 0, out.output
    out = runner.invoke(main, ["farkle", "advise", *setup, "--position", '{"scores": [0], "to_move": 0}', *base])
    assert out.exit_code == 1 and "scores" in out.output
