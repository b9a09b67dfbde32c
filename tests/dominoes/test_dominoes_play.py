"""The player's search over its information sets against brute force over every deal, realistic with one
credible model against predictive, the lookup API's answers and its refusals, the CLI."""

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from lookup import opponents
from lookup.dominoes import decide, move_values, value
from lookup.dominoes import engine as E
from lookup.dominoes.game import GAME, State
from pipeline.cli import main


def _mask(tiles):
    return sum(1 << t for t in tiles)


def endgame(seed: int, model: str, unknown: int = 6, k: int = 3, mine: int = 3):
    """A small endgame seen by player 0: ``unknown`` tiles hidden (``k`` in the opponent's hand, the rest the
    boneyard in random order), ``mine`` in its hand, the others on the line; the opponent (playing ``model``)
    moves first and play goes on (player 0 at random) until player 0 has a choice after at least one
    opponent event (the opponent's history may include unseen draws it kept). Returns None when the game ends
    first."""
    rnd = random.Random(seed)
    tiles = list(range(28))
    rnd.shuffle(tiles)
    hidden, hand = tiles[:unknown], tiles[unknown:unknown + mine]
    board = _mask(tiles[unknown + mine:])
    left, right = rnd.randrange(7), rnd.randrange(7)
    state = State((_mask(hand), _mask(hidden[:k])), tuple(hidden[k:]), left, right, to_move=1)
    ev = np.zeros((64, 6), np.int64)
    n_ev, seen = 0, []
    dist = opponents.get_model(model)
    while not GAME.is_terminal(state):
        moves = GAME.legal_actions(state)
        bone_n = len(state.boneyard)
        if state.to_move == 0:
            if len(moves) > 1 and n_ev > 0:
                return {"start": (hidden, hand, board, left, right, k), "seen": seen, "ev": ev, "n_ev": n_ev,
                        "state": state, "board": board}
            move = rnd.choice(moves)
        else:
            probs = dist.distribution(GAME, state)
            move = rnd.choices(list(probs), weights=[float(p) for p in probs.values()])[0]
            E.record(ev, n_ev, move, state.drawn, state.left, state.right, board, bone_n)
            n_ev += 1
        nxt = GAME.apply(state, move)
        seen.append((state.to_move, move, nxt.drawn if state.to_move == 0 and move == E.DRAW else -1))
        if move < E.DRAW:
            board |= 1 << (move >> 1)
        state = nxt
    return None


def brute_force(case, model: str, depth: int) -> list[float]:
    """Every deal of the hidden tiles (the opponent's hand and the boneyard's order), replayed through the
    game API: weight = the model's probability of the opponent's observed moves (0 when the deal cannot
    have produced them). Then the player's best play over its information sets: the deals go on together
    and split only on what player 0 sees (each opponent move but not the tile it draws, the tile player 0
    draws), player 0 picks one move for all the deals it cannot tell apart, and its value is the weighted
    mean over them. Value of each move at the decision: that recursion after the move."""
    hidden, hand, _, left, right, k = case["start"]
    dist = opponents.get_model(model)

    def mean(group, f):
        return sum(w * f(s) for s, w in group) / sum(w for _, w in group)

    def infoset(group, d):
        state = group[0][0]
        if GAME.is_terminal(state):  # public: a hand emptied or four passes
            return mean(group, lambda s: float(GAME.returns(s)[0]))
        if d == 0:
            return mean(group, lambda s: E.leaf_value(0, s.hands[0], s.hands[1], s.left, s.right, s.to_move,
                                                      len(s.boneyard)))
        moves = GAME.legal_actions(state)
        children: dict = {}
        if state.to_move == 0:
            if moves == (E.DRAW,):  # the deals split on the tile player 0 draws
                for s, w in group:
                    nxt = GAME.apply(s, E.DRAW)
                    children.setdefault(nxt.drawn, []).append((nxt, w))
                total = sum(w for _, w in group)
                return sum(sum(w for _, w in g) * infoset(g, d) for g in children.values()) / total
            return max(infoset([(GAME.apply(s, m), w) for s, w in group], d - 1) for m in moves)
        for s, w in group:  # the deals split on the opponent's move (a draw hides its tile)
            for m, p in dist.distribution(GAME, s).items():
                if p:
                    children.setdefault(m, []).append((GAME.apply(s, m), w * float(p)))
        total = sum(w for _, w in group)
        return sum(sum(w for _, w in g) * infoset(g, d if m == E.DRAW else d - 1)
                   for m, g in children.items()) / total

    group = []
    for perm in itertools.permutations(hidden):
        state = State((_mask(hand), _mask(perm[:k])), tuple(perm[k:]), left, right, to_move=1)
        weight = Fraction(1)
        for mover, move, my_draw in case["seen"]:
            if move not in GAME.legal_actions(state):
                weight = Fraction(0)
                break
            if mover == 1:
                weight *= dist.distribution(GAME, state).get(move, Fraction(0))
            state = GAME.apply(state, move)
            if my_draw >= 0 and state.drawn != my_draw:
                weight = Fraction(0)
            if weight == 0:
                break
        if weight != 0:
            group.append((state, float(weight)))
    return [infoset([(GAME.apply(s, m), w) for s, w in group], depth - 1) for m in GAME.legal_actions(group[0][0])]


def engine_values(case, kind: int, models: list[str], depth: int, w0=None, endgame: int = -1) -> list[float]:
    state = case["state"]
    mk = np.array([E.MODEL_CODES[m] for m in models], np.int64)
    w = np.ones(len(mk)) if w0 is None else np.array(w0, float)
    unknown = E.ALL_TILES & ~state.hands[0] & ~case["board"]
    moves, values = np.empty(E.MAX_MOVES, np.int64), np.zeros(E.MAX_MOVES)
    n = E.move_values(0, state.hands[0], E.popcount(state.hands[1]), unknown, len(state.boneyard), state.left,
                      state.right, state.passes, state.drawn, case["ev"], case["n_ev"], kind, w, mk, depth, 4, 1e6, 0,
                      endgame, 0, E.seed_rng(1), moves, values, True)
    assert [int(m) for m in moves[:n]] == list(GAME.legal_actions(state))
    return [float(v) for v in values[:n]]


def _cases(model, count, **shape):
    out, seed = [], 0
    while len(out) < count:
        case = endgame(seed, model, **shape)
        seed += 1
        if case is not None:
            out.append(case)
    return out


@pytest.mark.parametrize("model", ["random", "first", "strong", "greedy"])
def test_exact_expectation_equals_brute_force_over_every_deal(model):
    for case in _cases(model, 6):
        exact = engine_values(case, E.PREDICTIVE, [model], depth=3)
        assert exact == pytest.approx(brute_force(case, model, depth=3), rel=0, abs=1e-12)


@pytest.mark.parametrize("model", ["random", "greedy"])
def test_two_kept_unseen_draws_equal_brute_force(model):
    """Histories in which the opponent kept two tiles the player never saw: the likelihood sums over which
    of its tiles they were (and the search spreads over them) exactly as the replay of every deal does."""
    found, seed = 0, 0
    while found < 3:
        case = endgame(seed, model, unknown=7, k=3, mine=3)
        seed += 1
        if case is None or sum(case["ev"][e, 0] == E.EV_UNSEEN for e in range(case["n_ev"])) < 2:
            continue
        found += 1
        exact = engine_values(case, E.PREDICTIVE, [model], depth=3)
        assert exact == pytest.approx(brute_force(case, model, depth=3), rel=0, abs=1e-12)


@pytest.mark.slow
def test_exact_expectation_equals_brute_force_on_larger_endgames():
    for model in ("random", "last"):
        for case in _cases(model, 3, unknown=7, k=3, mine=4):
            exact = engine_values(case, E.PREDICTIVE, [model], depth=4)
            assert exact == pytest.approx(brute_force(case, model, depth=4), rel=0, abs=1e-12)


TO_THE_END = 10**6  # a brute-force depth no endgame reaches: its recursion stops at the end of the game only


@pytest.mark.parametrize("model", ["random", "first", "strong", "greedy"])
def test_exact_endgame_equals_brute_force_to_the_end(model):
    """With the boneyard empty (the opponent's hand then known: the unknown tiles) and with one or two tiles
    left in it, ``endgame`` searches to the end of the game: the values equal a plain-Python recursion over
    the whole endgame tree (every deal of the hidden tiles, through the game API), no leaf estimate on
    either side."""
    leaf_differs = False
    for shape, endgame in (({"unknown": 4, "k": 4, "mine": 4}, 0), ({"unknown": 5, "k": 4, "mine": 4}, 1),
                           ({"unknown": 5, "k": 3, "mine": 4}, 2)):
        for case in _cases(model, 3, **shape):
            exact = engine_values(case, E.PREDICTIVE, [model], depth=1, endgame=endgame)
            assert exact == pytest.approx(brute_force(case, model, depth=TO_THE_END), rel=0, abs=1e-12)
            leaf_differs |= engine_values(case, E.PREDICTIVE, [model], depth=1) != exact
    assert leaf_differs  # the leaf estimate after one placement is not that search: the setting is read


@pytest.mark.parametrize("model", ["random", "last", "strong", "greedy"])
def test_realistic_with_one_credible_model_is_predictive(model):
    for case in _cases(model, 5):
        predictive = engine_values(case, E.PREDICTIVE, [model], depth=3)
        assert engine_values(case, E.REALISTIC, [model], depth=3) == predictive
        assert engine_values(case, E.BAYESIAN, [model], depth=3) == predictive
        # the other models present but not credible (weight 0) change nothing either
        others = [model, *[m for m in E.MODEL_CODES if m != model]]
        assert engine_values(case, E.REALISTIC, others, depth=3, w0=[1, 0, 0, 0, 0]) == predictive


HAND = ["6-6", "1-1", "0-0", "0-1", "0-2", "0-3", "0-4"]


def test_lookup_answers_and_is_reproducible():
    kw = {"depth": 2, "samples": 4, "seed": 9}
    first = move_values(HAND, "6-6 draw 1-6L", 0, player="realistic", **kw)
    assert [m for m, _ in first] == ["0-1L", "1-1L"]  # tile index order: 0-1 is tile 1, 1-1 tile 7
    assert move_values(HAND, ["6-6", "draw", "1-6L"], 0, player="realistic", **kw) == first  # same seed, same answer
    # decide / value are the first best move and the best value of those move values (same seed, same sample);
    # the search's values themselves are checked against brute force above.
    best = max(v for _, v in first)
    assert first[0][1] != first[1][1]  # not a tie here: the test tells the two moves apart
    assert decide(HAND, "6-6 draw 1-6L", 0, player="realistic", **kw) == next(m for m, v in first if v == best)
    bayes = move_values(HAND, "6-6 draw 1-6L", 0, player="bayesian", **kw)
    assert value(HAND, "6-6 draw 1-6L", 0, player="bayesian", **kw) == max(v for _, v in bayes)
    one = move_values(HAND, "6-6 draw 1-6L", 0, player="realistic", models=["strong"], **kw)
    assert one == move_values(HAND, "6-6 draw 1-6L", 0, player="predictive", model="strong", **kw)


@pytest.mark.parametrize("history, message", [
    ("6-6 draw 1-6L 1-1L 5-6R", "history inconsistent"),    # it held 5-6 when it drew for want of a 6
    ("6-6 5-5L", "5-5 does not go there"),
    ("6-6 pass", "passes only after drawing"),
    ("6-6 draw draw", "at most once a turn"),
    ("1-2", "not a legal move"),
    ("6-6 draw 1-6L 2-2L", "not a legal move"),
    ("6-6 1-6L 0-0R", "not a legal move"),
    ("6-6 3-6L draw", "drawing is not legal"),
    ("6-6 1-1L", "cannot hold 1-1"),
])
def test_bad_histories_are_refused_naming_the_problem(history, message):
    with pytest.raises(ValueError, match=message):
        move_values(HAND, history, 0, player="realistic", depth=1, samples=2)


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="unknown opponent model 'perfect-ish'"):
        move_values(HAND, "6-6 draw 1-6L", 0, player="realistic", models=["random", "perfect-ish"])
    with pytest.raises(ValueError, match="unknown dominoes player"):
        move_values(HAND, "6-6 draw 1-6L", 0, player="oracle")
    with pytest.raises(ValueError, match="needs model"):
        move_values(HAND, "6-6 draw 1-6L", 0, player="predictive")
    with pytest.raises(ValueError, match="player 1's turn"):
        move_values(HAND, "6-6", 0)
    with pytest.raises(ValueError, match="seat"):
        move_values(HAND, "", True)
    with pytest.raises(ValueError, match="depth"):
        move_values(HAND, "6-6 draw 1-6L", 0, depth=1.5)


def test_cli_decide_and_errors():
    runner = CliRunner()
    ok = runner.invoke(main, ["dominoes", "decide", "--hand", ",".join(HAND), "--seat", "0", "--depth", "2",
                              "--samples", "3", "6-6", "draw", "1-6L"])
    assert ok.exit_code == 0, ok.output
    assert ok.output.startswith("play ")
    bad = runner.invoke(main, ["dominoes", "decide", "--hand", ",".join(HAND), "--seat", "0", "6-6", "pass"])
    assert bad.exit_code != 0 and "passes only after drawing" in bad.output


def test_tile_names_follow_the_documented_order():
    """Tiles 0..27 are a-b with a <= b, by a then b (0-0, 0-1, ..., 0-6, 1-1, ...); parse_tile reads either order."""
    from lookup.dominoes import parse_tile, tile_name

    names = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
    assert [tile_name(t) for t in range(E.N_TILES)] == names
    assert all(parse_tile(n) == t and parse_tile(n[::-1]) == t for t, n in enumerate(names))


def _random_game(seed: int):
    """A dealt game played to the end by uniformly random legal moves: the states and the history as seat 0 and
    seat 1 write it (their own draws with the tile, the other's without)."""
    from lookup.dominoes import deal, move_name, tile_name

    rng = random.Random(seed)
    state = deal(seed)
    states, histories = [state], ([], [])
    while not GAME.is_terminal(state):
        mover, move = state.to_move, rng.choice(GAME.legal_actions(state))
        state = GAME.apply(state, move)
        for seat in (0, 1):
            own_draw = move == E.DRAW and seat == mover
            histories[seat].append(f"draw:{tile_name(state.drawn)}" if own_draw else move_name(move))
        states.append(state)
    return states, histories


def _line_mask(line) -> int:
    """The tiles of a line of (left pip, right pip) pairs, as a mask."""
    from lookup.dominoes import parse_tile

    return sum(1 << parse_tile(f"{a}-{b}") for a, b in line)


def test_replay_keeps_the_books_of_the_game():
    """replay's View after every prefix of a played game equals what the game's own state says (hand, line,
    ends, turn, passes, boneyard and hand sizes, the end)."""
    from lookup.dominoes import View, replay, tile_name

    for seed in (3, 11):
        states, histories = _random_game(seed)
        for seat in (0, 1):
            hand = [tile_name(t) for t in range(E.N_TILES) if states[0].hands[seat] >> t & 1]
            for k, state in enumerate(states):
                v = replay(hand, histories[seat][:k], seat, player="predictive", model="random")
                assert isinstance(v, View)
                assert (v.hand, v.board, v.left, v.right, v.to_move, v.passes) == (
                    state.hands[seat], _line_mask(state.line), state.left, state.right, state.to_move, state.passes), k
                assert (v.boneyard_size, v.opponent_tiles, v.over) == (
                    len(state.boneyard), bin(state.hands[1 - seat]).count("1"), GAME.is_terminal(state)), k
                assert v.unknown == (1 << E.N_TILES) - 1 - state.hands[seat] - _line_mask(state.line)


def test_observation_is_what_the_player_sees():
    """Observation: the player's own hand and the public facts; changing the hidden tiles (the other hand and
    the boneyard order) changes nothing in it, and the other's draws carry no tile."""
    from dataclasses import replace

    from lookup.dominoes import Observation

    states, _ = _random_game(5)
    for state in states[:12]:
        for player in (0, 1):
            seen = GAME.observation(state, player)
            assert isinstance(seen, Observation)
            assert (seen.player, seen.line, seen.hand) == (player, state.line, state.hands[player])
            assert seen.boneyard_size == len(state.boneyard)
            assert seen.other_hand_size == bin(state.hands[1 - player]).count("1")
            assert seen.moves == tuple(state.log)
            assert all(m in (E.DRAW, E.PASS) or 0 <= m < 2 * E.N_TILES for _, m in seen.moves)
            other, pile = state.hands[1 - player], list(state.boneyard)
            if other and pile:  # swap one hidden tile of the other hand with one of the boneyard
                t = (other & -other).bit_length() - 1
                hands = list(state.hands)
                hands[1 - player] = other & ~(1 << t) | 1 << pile[0]
                hidden = replace(state, hands=tuple(hands), boneyard=(t, *pile[1:])[::-1])
                assert GAME.observation(hidden, player) == seen
