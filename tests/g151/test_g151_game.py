"""151 through the protocol: the advisor's values and action values against independent references (every state of
the whole game as one linear system, tests/g151/reference.py), its policy optimal by those values, the entry
points answering as the tables' rows read directly (what decide / value / action_values gave before), and the
rules of a turn (a 0, overshooting, the notebook's variant, which turns count)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from lookup.g151 import action_values, decide, value
from lookup.g151.game import BANK, ROLL, G151State
from lookup.g151.rules import UNIT, get_rules, roll_distribution
from lookup.g151.tables import load_tables
from lookup.games import get_spec, open_setup

from .reference import (
    duel_equations,
    duel_rolls,
    enumerated_law,
    roll_outcomes,
    solitaire_policy_iteration,
    solve_float,
)

SMALL = 300  # points: 6 units, small enough for exact references of the whole game


def _setup(rules: str, players: int, target: int = SMALL) -> dict:
    return {"rules": rules, "target": target, "players": players}


def test_setups_are_every_built_variant_and_target(g151_tables):
    found = get_spec("g151").setups(g151_tables)
    assert sorted(map(tuple, (s.values() for s in found))) == sorted(
        (r, t, p) for r in ("stated", "notebook") for t in (300, 1000) for p in (1, 2))
    assert {s["players"] for s in found[:2]} == {1, 2}


def test_one_default_target_for_the_command_line_the_library_and_the_page(g151_tables):
    """DEFAULT_TARGET (lookup/g151/game.py) is the setup's default (every route's), the entry points' and the
    command's, and the page's first setup (the one it starts with) plays it when it is built: the page started at the
    smallest target built (500 by default) while the command line said 1000."""
    import inspect

    from lookup.g151 import DEFAULT_TARGET
    from pipeline.cli import main

    spec = get_spec("g151")
    assert spec.setup({}) == {"rules": "stated", "target": DEFAULT_TARGET, "players": 1}
    assert spec.setups(g151_tables)[0] == spec.setup({})  # the page's first setup: the defaults (300 is built too)
    for f in (decide, value, action_values):
        assert inspect.signature(f).parameters["target"].default == DEFAULT_TARGET
    for name in ("decide", "value", "evaluate", "simulate"):
        option = next(p for p in main.commands["g151"].commands[name].params if p.name == "target")
        assert option.default == DEFAULT_TARGET, name


@pytest.mark.parametrize("variant", ["stated", "notebook"])
def test_alone_values_are_the_exact_expected_turns(g151_tables, variant):
    rules = get_rules(variant)
    n = SMALL // UNIT
    j, rolls = solitaire_policy_iteration(rules, n)
    jj = {**j, (n, 0): Fraction(0)}
    fail = int(rules.failed_turns_count)
    advisor = open_setup("g151", _setup(variant, 1), g151_tables)
    for a in range(n):
        for turns in (0, 3):
            start = G151State((a * UNIT,), 0, 0, True, turns)
            assert advisor.value(start, 0) == pytest.approx(turns + float(j[(a, 0)]), abs=1e-9)
            for t in range(1, n - a + 1):
                state = G151State((a * UNIT,), 0, t * UNIT, False, turns)
                roll = sum(p * (jj[(a, u)] if kind == "on" else 1 + jj[(a + u, 0)] if kind == "bank"
                                else fail + jj[(a, 0)])
                           for p, kind, u in roll_outcomes(enumerated_law(rules), t, n - a, rules.zero_keeps_turn))
                want = {ROLL: turns + float(roll), BANK: turns + float(1 + jj[(a + t, 0)])}
                got = advisor.action_values(state)
                assert got == pytest.approx(want, abs=1e-9)
                chosen = advisor.decide(state)
                assert got[chosen] <= min(got.values()) + 1e-10  # optimal (fewest turns)
                assert chosen == (ROLL if rolls[(a, t)] == 1 else BANK) or abs(roll - (1 + jj[(a + t, 0)])) < 1e-9
                assert advisor.value(state, 0) == got[chosen]


@pytest.mark.parametrize("variant", ["stated", "notebook"])
def test_two_player_values_are_the_exact_win_probabilities(g151_tables, variant):
    """The tables' policy for both players, evaluated over the whole game by one linear system (the reference):
    each state's value, and each action's value from it, for the mover (and 1 - it for the other seat); the
    policy's action is the better one."""
    rules = get_rules(variant)
    n = SMALL // UNIT
    table = load_tables(rules, g151_tables).tables[("duel", SMALL)]
    rolls = duel_rolls(table["policy"], n)
    wins = solve_float(duel_equations(rules, n, rolls, rolls))  # P(player 1 wins), keys (mover, a, b, t)
    advisor = open_setup("g151", _setup(variant, 2), g151_tables)
    law = enumerated_law(rules)

    def mover_wins(mover: int, a: int, b: int, t: int) -> float:
        p1 = wins[(mover, a, b, t)]
        return p1 if mover == 1 else 1 - p1

    for a in range(n):
        for b in range(n):
            for seat in (0, 1):
                own, opp = (a, b) if seat == 0 else (b, a)
                scores = (a * UNIT, b * UNIT)
                start = G151State(scores, seat, 0, True)
                assert advisor.value(start, seat) == pytest.approx(mover_wins(seat + 1, a, b, 0), abs=1e-9)
                assert advisor.value(start, 1 - seat) == pytest.approx(1 - mover_wins(seat + 1, a, b, 0), abs=1e-9)
                for t in range(1, n - own + 1):
                    state = G151State(scores, seat, t * UNIT, False)
                    after_bank = 1.0 if own + t == n else 1 - mover_wins(2 - seat, *((a + t, b) if seat == 0
                                                                                        else (a, b + t)), 0)
                    roll = 0.0
                    for p, kind, u in roll_outcomes(law, t, n - own, rules.zero_keeps_turn):
                        if kind == "on":
                            roll += float(p) * mover_wins(seat + 1, a, b, u)
                        elif kind == "bank":
                            roll += float(p) * (1.0 if own + u == n else
                                                1 - mover_wins(2 - seat, *((a + u, b) if seat == 0 else (a, b + u)), 0))
                        else:
                            roll += float(p) * (1 - mover_wins(2 - seat, a, b, 0))
                    got = advisor.action_values(state)
                    assert got == pytest.approx({ROLL: roll, BANK: after_bank}, abs=1e-9)
                    assert got[advisor.decide(state)] >= max(got.values()) - 1e-9


def test_entry_points_answer_what_the_tables_hold(g151_tables):
    """decide, value and action_values (thin entry points over the advisor) give the tables' rows, read directly,
    on random positions alone and against an opponent, as they did before."""
    rng = random.Random(151)
    for variant in ("stated", "notebook"):
        tables = load_tables(get_rules(variant), g151_tables)
        for _ in range(200):
            target = rng.choice(tables.targets)
            n = target // UNIT
            a = rng.randrange(n)
            t = rng.randint(0, n - a)
            b = rng.choice([None, rng.randrange(n)])
            arrays = tables.tables[("solitaire" if b is None else "duel", target)]
            index = (a, t) if b is None else (a, b, t)
            args = (a * UNIT, t * UNIT, None if b is None else b * UNIT, target, variant)
            policy = int(arrays["policy"][index])
            assert decide(*args, artifacts_dir=g151_tables) == (ROLL if policy == 1 else BANK)
            assert value(*args, artifacts_dir=g151_tables) == float(arrays[ROLL if policy == 1 else BANK][index])
            want = {ROLL: float(arrays[ROLL][index])} | ({BANK: float(arrays[BANK][index])} if t else {})
            assert action_values(*args, artifacts_dir=g151_tables) == want


def test_the_rules_of_a_turn(g151_tables):
    stated = open_setup("g151", _setup("stated", 1), g151_tables).game
    notebook = open_setup("g151", _setup("notebook", 1), g151_tables).game
    assert dict(stated.chance_outcomes(stated.initial_state())) == roll_distribution("stated")
    deciding = G151State((100,), 0, 150, False, 2)
    rolling = stated.apply(deciding, ROLL)
    assert rolling.rolling and stated.to_move(rolling) == -1
    assert stated.apply(rolling, 0) == G151State((100,), 0, 0, True, 3)  # a 0 loses the turn; it counts
    assert notebook.apply(rolling, 0) == G151State((250,), 0, 0, True, 3)  # the notebook banks it
    assert stated.apply(rolling, 100) == G151State((100,), 0, 0, True, 3)  # past 300: nothing
    assert stated.apply(rolling, 50) == G151State((100,), 0, 200, False, 2)  # exactly 300: a choice
    start = G151State((100,), 0, 0, True, 2)
    assert stated.apply(start, 0).turns == 3 and notebook.apply(start, 0).turns == 2  # a failed turn counts?
    done = stated.apply(G151State((100,), 0, 200, False, 2), BANK)
    assert stated.is_terminal(done) and stated.returns(done) == (3,)
    assert stated.parse_state(stated.state_json(done)) == done
    assert stated.unit.name == "turns" and not stated.unit.higher_is_better
    duel = open_setup("g151", _setup("stated", 2), g151_tables).game
    won = duel.apply(G151State((250, 100), 0, 50, False), BANK)
    assert duel.is_terminal(won) and duel.returns(won) == (1, 0)
    for junk in ({"banked": [350]}, {"banked": [25]}, {"banked": [100], "turn_total": 250},
                 {"banked": [100], "turn_total": 0, "rolling": False}, {"banked": [100, 0]},
                 {"banked": [300], "to_move": 0, "rolling": True}):
        with pytest.raises(ValueError, match=r"\S"):
            stated.parse_state(junk)
