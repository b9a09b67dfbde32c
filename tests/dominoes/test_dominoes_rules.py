"""The rules under random play (28 tiles conserved, legal chains, one draw a turn, the end), the models
of lookup.opponents on the game API against the engine's, and the engine's games replayed move by move
through the game API."""

import random

import numpy as np
import pytest

from lookup import opponents
from lookup.dominoes import engine as E
from lookup.dominoes.game import GAME, State, deal
from lookup.dominoes.rules import get_rules, move_name, parse_move, parse_tile, tiles_of

ALL = set(range(28))


def _placed(state: State) -> list[int]:
    return [m >> 1 for _, m in state.log if m < E.DRAW]


def check_invariants(state: State) -> None:
    h0, h1 = set(tiles_of(state.hands[0])), set(tiles_of(state.hands[1]))
    bone, line = set(state.boneyard), _placed(state)
    assert len(bone) == len(state.boneyard) and len(set(line)) == len(line)
    assert h0 | h1 | bone | set(line) == ALL  # conservation: every tile somewhere, once
    assert len(h0) + len(h1) + len(bone) + len(line) == 28
    assert [sorted(p) for p in state.line] == sorted([sorted((int(E.TILE_A[t]), int(E.TILE_B[t]))) for t in line],
                                                      key=lambda p: [sorted(q) for q in state.line].index(p))
    for (_, b), (c, _) in zip(state.line, state.line[1:], strict=False):
        assert b == c  # a legal chain: touching ends match
    if state.line:
        assert (state.left, state.right) == (state.line[0][0], state.line[-1][1])


@pytest.mark.parametrize("seed", range(40))
def test_random_play_keeps_the_rules(seed):
    state, rnd = deal(seed), random.Random(seed)
    assert len(tiles_of(state.hands[0])) == len(tiles_of(state.hands[1])) == 7 and len(state.boneyard) == 14
    draws_this_turn = 0
    while not GAME.is_terminal(state):
        check_invariants(state)
        moves = GAME.legal_actions(state)
        assert list(moves) == sorted(moves)  # the documented order
        if E.DRAW in moves or E.PASS in moves:
            assert len(moves) == 1  # only when no tile fits
        move = rnd.choice(moves)
        mover = state.to_move
        state = GAME.apply(state, move)
        if move == E.DRAW:
            draws_this_turn += 1
            assert draws_this_turn == 1 and state.to_move == mover
        else:
            draws_this_turn = 0
    check_invariants(state)
    h0, h1 = state.hands
    if h0 and h1:
        assert state.passes == 4
        p0, p1 = E.pips(h0), E.pips(h1)
        assert GAME.returns(state) == ((1, -1) if p0 < p1 else (-1, 1) if p0 > p1 else (0, 0))
    else:
        assert GAME.returns(state) == ((1, -1) if h0 == 0 else (-1, 1))


def _random_states(n: int, seed: int = 1) -> list[State]:
    rnd, out = random.Random(seed), []
    while len(out) < n:
        state = deal(rnd.randrange(10**6))
        while not GAME.is_terminal(state):
            out.append(state)
            state = GAME.apply(state, rnd.choice(GAME.legal_actions(state)))
    return out[:n]


@pytest.mark.parametrize("name", ["random", "first", "last", "strong", "greedy"])
def test_engine_models_equal_the_generic_models_on_the_game_api(name):
    model = opponents.get_model(name)
    probs = np.empty(E.MAX_MOVES)
    for state in _random_states(400):
        moves = GAME.legal_actions(state)
        p = state.to_move
        board = E.ALL_TILES & ~state.hands[0] & ~state.hands[1] & ~sum(1 << t for t in state.boneyard)
        E.model_probs(E.MODEL_CODES[name], np.array(moves, np.int64), len(moves), state.hands[p],
                      E.ALL_TILES & ~state.hands[p] & ~board, state.left, state.right, probs)
        generic = model.distribution(GAME, state)
        assert {m: float(q) for m, q in generic.items()} == {m: probs[i] for i, m in enumerate(moves) if probs[i] > 0}


def test_perfect_play_is_not_offered_for_dominoes():
    assert "perfect" not in [m.name for m in opponents.models_for(GAME)]
    with pytest.raises(ValueError, match="perfect"):
        opponents.models_for(GAME, ["perfect"])


@pytest.mark.parametrize("seed", [0, 7, 11])
def test_engine_game_replays_through_the_game_api(seed):
    """A game of the engine (plain Python, the predictive player against the random model) is a legal game
    of the game API from the same deal, with the same result."""
    log = np.full((200, 2), -9, np.int64)
    r = E.play_game(seed, E.PREDICTIVE, 1, E.RANDOM, np.array([E.RANDOM], np.int64), np.ones(1), 2, 2, 20.0, 0, -1, 0,
                    log)
    state, i = deal(seed), 0
    while log[i, 0] != -1:
        mover, move = int(log[i, 0]), int(log[i, 1])
        assert mover == state.to_move
        state = GAME.apply(state, move)
        i += 1
        if move == E.DRAW:
            assert log[i, 0] == -2 and state.drawn == log[i, 1]
            i += 1
    assert GAME.is_terminal(state) and GAME.returns(state)[1] == r


def test_names_and_bad_input():
    assert parse_tile("5-3") == parse_tile("3-5") and move_name(parse_move("3-5R")) == "3-5R"
    assert move_name(parse_move("6-6", opening=True)) == "6-6L"
    for bad in ("7-1", "35", "a-b", "3-5-6"):
        with pytest.raises(ValueError, match="tile"):
            parse_tile(bad)
    with pytest.raises(ValueError, match="which end"):
        parse_move("3-5")
    with pytest.raises(ValueError, match="unknown dominoes rule set"):
        get_rules("no-such-rules")
    state = deal(0)
    illegal = next(2 * t for t in range(28) if not state.hands[0] >> t & 1)
    with pytest.raises(ValueError, match="not legal"):
        GAME.apply(state, illegal)


@pytest.mark.parametrize("mine, theirs, expected", [
    (["1-2"], ["0-3"], (0, 0)),  # equal pip totals (3 and 3): a draw
    (["1-2", "0-0"], ["0-3"], (0, 0)),
    (["1-2"], ["0-4"], (1, -1)),  # the lower total wins
    (["6-6"], ["0-1", "2-2"], (-1, 1)),
])
def test_blocked_game_result_by_pip_totals(mine, theirs, expected):
    """After four passes in a row the lower pip total in hand wins and equal totals draw (docs/dominoes.md); the
    totals are summed here from the tile names. Random play rarely ends blocked with equal totals."""
    def hand(tiles):
        return sum(1 << parse_tile(t) for t in tiles)

    a, b = (sum(int(p) for t in tiles for p in t.split("-")) for tiles in (mine, theirs))
    assert expected == ((1, -1) if a < b else (-1, 1) if a > b else (0, 0))  # the table above follows the rule
    state = State((hand(mine), hand(theirs)), (), 3, 5, to_move=0, passes=4)
    assert GAME.is_terminal(state) and GAME.returns(state) == expected
