"""The dice race through the protocol: the exact roll law against enumerated dice; the advisor's values and action
values against the exact-rational reference (tests/dicerace/exact_reference.py, exact_simultaneous.py); what each
seat sees in the simultaneous game; and the entry points (decide, explain, strategy, value) answering as the
advisor does, on random states."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest

from lookup.dicerace import decide, explain, strategy, value
from lookup.dicerace.game import HIDDEN, RaceState
from lookup.dicerace.rules import roll_law
from lookup.games import get_spec, open_setup

from .conftest import SMALL_GRID
from .exact_reference import roll_law as enumerated_law
from .exact_reference import sequential_game
from .exact_simultaneous import fast_roll_law, simultaneous_game

STATES = 40


@cache
def _sequential(dice: int, target: int):
    return sequential_game(dice, target)


@cache
def _simultaneous(dice: int, target: int):
    return simultaneous_game(dice, target)


def _states(target: int, seed: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    return [(rng.randrange(target), rng.randrange(target)) for _ in range(STATES)]


@pytest.mark.parametrize("d", [1, 2, 3, 4, 5])
def test_roll_law_is_the_enumerated_dice(d):
    law = dict(roll_law(d))
    assert law == enumerated_law(d) and sum(law.values()) == 1 and list(law) == sorted(law)


def test_setups_are_the_built_grid_in_both_modes(built):
    found = get_spec("dicerace").setups(built)
    assert found == [{"dice": d, "target": n, "mode": m} for d, n in SMALL_GRID for m in ("sequential", "simultaneous")]


@pytest.mark.parametrize("dice, target", SMALL_GRID)
def test_sequential_values_are_exact(built, dice, target):
    eg, ties = _sequential(dice, target)
    advisor = open_setup("dicerace", {"dice": dice, "target": target, "mode": "sequential"}, built)
    for mine, other in _states(target, dice):
        for mover in (0, 1):
            scores = (mine, other) if mover == 0 else (other, mine)
            state = RaceState(scores, mover)
            options = advisor.action_values(state)
            for d, got in options.items():
                want = sum(p * (1 if mine + k >= target else -eg[(other, mine + k)]) for k, p in roll_law(d))
                assert got == pytest.approx(float(want), abs=1e-12)
                assert advisor.value(state._replace(dice=(d,)), mover) == got  # the roll in the air
            assert set(advisor.best_actions(state)) == ties[(mine, other)]
            assert advisor.decide(state) == min(ties[(mine, other)])
            assert advisor.value(state, mover) == pytest.approx(float(eg[(mine, other)]), abs=1e-12)
            assert advisor.value(state, 1 - mover) == -advisor.value(state, mover)
            assert decide(mine, other, dice=dice, target=target, artifacts_dir=built) == advisor.decide(state)
            got = explain(mine, other, dice=dice, target=target, artifacts_dir=built)
            assert got.option_values == options and got.optimal == advisor.best_actions(state)
            assert got.value == value(mine, other, dice=dice, target=target, artifacts_dir=built) == \
                advisor.value(state, mover)


def test_simultaneous_values_are_exact(built):
    """(3, 20), whose exact game the reference solves in a second: each seat's value at the start of a turn is the
    exact game value from its view; each action's value is the exact matrix row against the other seat's stored
    strategy; the supports' actions are worth the game value; seat 1 values what it knows."""
    dice, target = 3, 20
    exact = _simultaneous(dice, target)
    laws = [sorted(fast_roll_law(d).items()) for d in range(1, dice + 1)]
    advisor = open_setup("dicerace", {"dice": dice, "target": target, "mode": "simultaneous"}, built)
    game = advisor.game

    def after(a: int, b: int) -> Fraction:
        return Fraction((a > b) - (a < b)) if max(a, b) >= target else exact[(a, b)].value

    for s0, s1 in _states(target, 7):
        start = RaceState((s0, s1), 0)
        for seat, (mine, other) in enumerate(((s0, s1), (s1, s0))):
            assert advisor.value(start, seat) == pytest.approx(float(exact[(mine, other)].value), abs=1e-9)
            theirs = advisor.table.strategy(other, mine)
            matrix = [[sum(p * q * after(mine + k, other + m) for k, p in la for m, q in lb) for lb in laws]
                      for la in laws]
            want = {d: sum(float(x) * y for x, y in zip(matrix[d - 1], theirs, strict=True))
                    for d in range(1, dice + 1)}
            at = start if seat == 0 else game.apply(start, advisor.decide(start))
            got = advisor.action_values(at)
            assert got == pytest.approx(want, abs=1e-12)
            for d in advisor.best_actions(at):
                assert got[d] == pytest.approx(float(exact[(mine, other)].value), abs=1e-9)
            assert explain(mine, other, dice=dice, target=target, mode="simultaneous",
                           artifacts_dir=built).option_values == got
            assert strategy(mine, other, dice=dice, target=target, mode="simultaneous",
                            artifacts_dir=built) == advisor.policy(at)


def test_seat_one_does_not_see_seat_zero_choose(built):
    advisor = open_setup("dicerace", {"dice": 3, "target": 20, "mode": "simultaneous"}, built)
    game = advisor.game
    chose = [game.apply(RaceState((5, 9), 0), d) for d in (1, 2, 3)]
    seen = {game.observation(s, 1) for s in chose}
    assert len(seen) == 1 and seen.pop().dice == (HIDDEN,)
    assert len({game.observation(s, 0) for s in chose}) == 3
    # what seat 1 knows is the same whatever seat 0 chose: its values and its advice
    assert len({advisor.value(s, 1) for s in chose}) == 1
    assert len({tuple(advisor.action_values(s).items()) for s in chose}) == 1
    rolled = game.apply(chose[1], 3)
    assert game.observation(rolled, 1) == rolled  # both choices are on the table once the dice roll


def test_the_game_in_words_and_json(built):
    advisor = open_setup("dicerace", {"dice": 3, "target": 20, "mode": "sequential"}, built)
    game = advisor.game
    state = game.apply(game.initial_state(), 2)
    assert game.to_move(state) == -1 and dict(game.chance_outcomes(state)) == enumerated_law(2)
    assert game.apply(state, 1) == RaceState((1, 0), 1)
    won = game.apply(game.parse_state({"scores": [18, 5], "to_move": 0, "dice": [2]}), 4)
    assert game.is_terminal(won) and game.returns(won) == (1, -1) and won.mover == 0
    assert game.parse_state(game.state_json(won)) == won
    assert "target 20" in game.state_text(won) and game.action_text(state, 1) == "the roll: a 1 shows, 1 point"
    for junk in ({"scores": [20, 20], "to_move": 0}, {"scores": [3, 4], "dice": [4]},
                 {"scores": [3, 4], "dice": [1, 2]}, {"scores": [3, 4], "points": [5]},
                 {"scores": [25, 5], "to_move": 1}, {"scores": [3]}):
        with pytest.raises(ValueError, match=r"\S"):
            game.parse_state(junk)
