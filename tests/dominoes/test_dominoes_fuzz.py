"""Every public function of lookup.dominoes, fuzzed: histories are played, not made up (random play of the game
API, ``lookup.dominoes.game``), and each player's written history is replayed by ``replay``, whose view (hand,
ends, line, counts, whose turn) must be the game's position as that player sees it; the moves ``move_values``
offers must be the game's ``legal_actions`` in their order, a move that ends the game must be valued by the game's
``returns``, and ``decide`` / ``value`` must be the first best move and the best value. Wrong input (a hand that
is no list of seven tiles of the set, an impossible history, a bad seat or option) is refused by a ValueError
naming the problem, and the experiment table, when not built, is said to be missing (fuzz_inputs).
"""

import random

import numpy as np
import pytest
from fuzz_inputs import (
    JUNK_POOL,
    answer,
    bad_choice,
    bad_integer,
    examples,
    integers,
    missing,
    one_wrong,
    refused,
)
from hypothesis import given
from hypothesis import strategies as st

import lookup.dominoes as dom
from lookup.dominoes import engine as E
from lookup.dominoes.game import GAME, State
from lookup.dominoes.rules import tiles_of

PLAYERS = ("predictive", "realistic")  # tests/shared.py DOMINOES: the experiment's players and models
MODELS = ("random", "strong")
GAMES = 12  # games per player, model and seat


@pytest.fixture(scope="module")
def nothing_built(tmp_path_factory):
    """An artifacts directory with no table at all."""
    path = tmp_path_factory.mktemp("dominoes-fuzz") / "artifacts"
    path.mkdir()
    return path


@st.composite
def games(draw):
    """A whole game of random play from a random deal: (positions, moves), positions[i] before moves[i]."""
    state, rnd = dom.deal(draw(st.integers(0, 2**40))), random.Random(draw(st.integers(0, 2**32)))
    positions, moves = [state], []
    while not GAME.is_terminal(state):
        moves.append(rnd.choice(GAME.legal_actions(state)))
        state = GAME.apply(state, moves[-1])
        positions.append(state)
    return positions, moves


@st.composite
def ending_games(draw):
    """Random play up to a position where the player to move has two or more moves and one of them ends the game
    (its last tile fits both ends; about one game in 17 gets there): games from a drawn seed until one does;
    (positions, moves) up to that position."""
    rnd = random.Random(draw(st.integers(0, 2**32)))
    while True:
        state = dom.deal(rnd.randrange(2**40))
        positions, moves = [state], []
        while not GAME.is_terminal(state):
            legal = GAME.legal_actions(state)
            if len(legal) > 1 and any(GAME.is_terminal(GAME.apply(state, m)) for m in legal):
                return positions, moves
            moves.append(rnd.choice(legal))
            state = GAME.apply(state, moves[-1])
            positions.append(state)


def tokens(positions: list[State], moves: list[int], seat: int, upto: int) -> list[str]:
    """The first ``upto`` moves as ``seat`` writes them: its own draws with the tile, the other's without."""
    out = []
    for before, after, move in zip(positions, positions[1:upto + 1], moves[:upto], strict=False):
        if move == E.DRAW and before.to_move == seat:
            out.append(f"draw:{dom.tile_name(after.drawn)}")
        else:
            out.append(dom.move_name(move))
    return out


def written(draw, positions: list[State], moves: list[int], seat: int, upto: int):
    """``tokens`` in one of the accepted forms: a list, a tuple or one string; draw and pass in either case, the
    opening tile with or without its end."""
    out = [draw(st.sampled_from([t, t.upper()])) if t in ("draw", "pass") else t
           for t in tokens(positions, moves, seat, upto)]
    if out and positions[1].left >= 0 and draw(st.booleans()):
        out[0] = out[0][:-1]
    return draw(st.sampled_from([out, tuple(out), " ".join(out)]))


def hand_form(draw, mask: int):
    tiles = tiles_of(mask)
    names = [draw(st.sampled_from([dom.tile_name(t), dom.tile_name(t)[::-1]])) for t in tiles]
    return draw(st.sampled_from([names, tuple(names), tiles, [np.int64(t) for t in tiles], set(tiles)]))


def placed(state: State) -> int:
    return sum(1 << (m >> 1) for _, m in state.log if m < E.DRAW)


JUNK_NOT_LIST = [v for v in JUNK_POOL
                 if not isinstance(v, list | tuple | set | dict | range | str | bytes | np.ndarray)]
JUNK_NOT_LIST.append(np.array(3))  # iterable to isinstance(..., Iterable), not to iter(): once a TypeError


def bad_hand_values(mask: int) -> list:
    """Lists that are not the seven distinct tiles of a hand: six, eight, one twice, one not of the set."""
    tiles = tiles_of(mask)
    extra = next(t for t in range(E.N_TILES) if not mask >> t & 1)
    return [tiles[:6], [*tiles, extra], [*tiles[:6], tiles[0]], [dom.tile_name(t) for t in tiles[:6]] + ["6-"],
            *([*tiles[:6], t] for t in ("7-7", 28, -1, "3-5-6", True, 2.0, None, "x", np.float64(1), np.int8(-1)))]


def bad_hands(mask: int):
    """A hand that is not seven distinct tiles of the set, or no list at all."""
    return st.one_of(st.sampled_from(JUNK_NOT_LIST), st.sampled_from(bad_hand_values(mask)))


def bad_history(draw, positions, moves, seat: int):
    """A history the rules refuse, and words its refusal must contain: the written moves up to a point where
    one move is made impossible (``None`` when this game has no such point)."""
    kind = draw(st.sampled_from(["mine", "theirs", "after", "junk"]))
    if kind == "after":
        return [*tokens(positions, moves, seat, len(moves)), "pass"], ("over",)
    if kind == "junk":
        return draw(st.sampled_from([5, 2.5, None, True, object(), np.array(3)])), ("history",)
    turns = [i for i, s in enumerate(positions[:-1]) if (s.to_move == seat) == (kind == "mine")]
    if not turns:
        return None
    i = draw(st.sampled_from(turns))
    state, before = positions[i], tokens(positions, moves, seat, i)
    legal = GAME.legal_actions(state)
    if kind == "mine":
        options = [m for m in range(2 * E.N_TILES) if m not in legal and state.hands[seat] >> (m >> 1) & 1]
        options += [] if E.DRAW in legal else [E.DRAW]
        if not options:
            return None
        m = draw(st.sampled_from(options))
        token = "draw:0-0" if m == E.DRAW else dom.move_name(m)
        return [*before, token], ("legal", "end", "draw")
    seen = state.hands[seat] | placed(state)
    options = [(dom.move_name(2 * t + side), ("cannot hold",)) for t in tiles_of(seen) for side in (0, 1)]
    if state.left >= 0 and state.drawn < 0 and state.boneyard:
        options.append(("pass", ("passes only after drawing",)))
    if state.drawn >= 0:
        options.append(("draw", ("once a turn",)))
    if state.left < 0:
        options.append(("draw", ("opening player",)))
    token, words = draw(st.sampled_from(options))
    if state.left < 0 and token[-1] in "LR":
        token = token[:-1]
    return [*before, token], words


OPTION_BAD = {"depth": bad_integer(1, 12), "samples": bad_integer(1, 100_000), "max_exact": bad_integer(0, 10**6),
              "endgame": bad_integer(-1, 14), "budget": bad_integer(0, 10**9), "seed": bad_integer(0, 2**62),
              "player": bad_choice(dom.PLAYERS)}


def options(draw) -> dict:
    player = draw(st.sampled_from(dom.PLAYERS))
    out = {"player": player, "depth": draw(integers(1, 2)), "samples": draw(integers(1, 3)),
           "max_exact": draw(integers(0, 30)), "endgame": -1, "budget": 0, "seed": draw(integers(0, 2**62))}
    if player == "predictive":
        out["model"] = draw(st.sampled_from(dom.MODEL_NAMES))
    elif draw(st.booleans()):
        out["models"] = draw(st.lists(st.sampled_from(dom.MODEL_NAMES), min_size=1, max_size=3, unique=True))
    return out


def bad_settings(valid: dict) -> dict:
    """The wrong values of each option, and of the opponent model(s) the player reads."""
    bad = dict(OPTION_BAD)
    if valid["player"] == "predictive":
        bad["model"] = st.sampled_from([None, "perfect", "Random", "", 3])
    else:
        bad["models"] = st.sampled_from([[], ["random", "perfect"], ["oracle"], 3, [None], np.array(3)])
    return bad


NAMES = {"hand": ("hand", "tile"), "seat": ("seat",), "player": ("player",), "model": ("model",),
         "models": ("model",), **{k: (k,) for k in OPTION_BAD if k != "player"}}


def view_of(state: State, seat: int) -> dict:
    """What ``replay`` must find, from the full position."""
    me, other = state.hands[seat], state.hands[1 - seat]
    out = {"hand": me, "board": placed(state), "left": state.left, "right": state.right,
           "boneyard_size": len(state.boneyard), "opponent_tiles": int(E.popcount(other)),
           "over": GAME.is_terminal(state), "unknown": other | sum(1 << t for t in state.boneyard)}
    if not out["over"]:
        drawn = state.drawn if state.drawn < 0 or state.to_move == seat else E.N_TILES
        out.update(to_move=state.to_move, passes=state.passes, drawn=drawn)
    return out


@examples(ci=300, dev=60)
@given(data=st.data())
def test_replay(data):
    """replay: the view after every prefix of a played game is the position as the seat sees it; wrong hands,
    seats, players and impossible histories are refused naming the problem."""
    draw = data.draw
    positions, moves = draw(games())
    seat, upto = draw(st.integers(0, 1)), draw(st.integers(0, len(moves)))
    dealt = positions[0].hands[seat]
    settings = {k: v for k, v in options(draw).items() if k in ("player", "model", "models")}
    valid = {"hand": hand_form(draw, dealt), "history": written(draw, positions, moves, seat, upto),
             "seat": draw(integers(seat, seat)), **settings}
    bad = {"hand": bad_hands(dealt), "seat": bad_integer(0, 1), "player": OPTION_BAD["player"],
           **{k: v for k, v in bad_settings(settings).items() if k in ("model", "models")}}
    if draw(st.integers(0, 2)) == 0:
        history = bad_history(draw, positions, moves, seat)
        if history is not None:
            refused(dom.replay, valid["hand"], history[0], seat, names=history[1],
                    **{k: valid[k] for k in settings})
            return
    args, wrong = one_wrong(draw, valid, bad)
    hand, history, s = args.pop("hand"), args.pop("history"), args.pop("seat")
    if wrong is not None:
        refused(dom.replay, hand, history, s, names=NAMES[wrong], **args)
        return
    v = answer(dom.replay, hand, history, s, **args)
    want = view_of(positions[upto], seat)
    assert {k: getattr(v, k) for k in want} == want
    assert v.seat == seat and 0 <= v.n_events <= len(moves)


def legal_names(state: State) -> list[str]:
    return [dom.move_name(m) for m in GAME.legal_actions(state)]


@examples(ci=300, dev=60)
@given(data=st.data())
def test_decisions(data):
    """move_values / decide / value at a point of a played game: the game's legal moves in its order, a move
    that ends the game valued by its returns, decide the first best move and value the best value; a position
    where it is not the seat's turn, and every wrong option, refused."""
    draw = data.draw
    if draw(st.integers(0, 3)) == 0:
        positions, moves = draw(ending_games())
        upto = len(moves)
        seat = positions[upto].to_move
    else:
        positions, moves = draw(games())
        seat = draw(st.integers(0, 1))
        mine = [i for i, s in enumerate(positions[:-1]) if s.to_move == seat and len(GAME.legal_actions(s)) > 1]
        upto = draw(st.sampled_from(mine)) if mine and draw(st.booleans()) else draw(st.integers(0, len(moves)))
    state = positions[upto]
    fn = draw(st.sampled_from([dom.move_values, dom.decide, dom.value]))
    valid = {"hand": hand_form(draw, positions[0].hands[seat]), "history": written(draw, positions, moves, seat, upto),
             "seat": draw(integers(seat, seat)), **options(draw)}
    bad = {"hand": bad_hands(positions[0].hands[seat]), "seat": bad_integer(0, 1), **bad_settings(valid)}
    args, wrong = one_wrong(draw, valid, bad)
    hand, history, s = args.pop("hand"), args.pop("history"), args.pop("seat")
    if fn is not dom.move_values and draw(st.integers(0, 9)) == 0:
        refused(fn, hand, history, s, names=("unknown option 'deep'",), deep=3, **args)
        return
    if wrong is not None:
        names = NAMES[wrong]
        if wrong == "seed" and (GAME.is_terminal(state) or state.to_move != seat):
            names = ("over", "turn")  # checked before the seed
        refused(fn, hand, history, s, names=names, **args)
        return
    if GAME.is_terminal(state):
        refused(fn, hand, history, s, names=("game is over",), **args)
        return
    if state.to_move != seat:
        refused(fn, hand, history, s, names=(f"player {1 - seat}'s turn",), **args)
        return
    got = answer(dom.move_values, hand, history, s, **args)
    assert [m for m, _ in got] == legal_names(state)
    assert all(-1 <= v <= 1 for _, v in got)
    if len(got) > 1:
        for m, (_, v) in zip(GAME.legal_actions(state), got, strict=True):
            after = GAME.apply(state, m)
            if GAME.is_terminal(after):
                assert v == GAME.returns(after)[seat], dom.move_name(m)
    best = max(v for _, v in got)
    if fn is dom.decide:
        assert answer(fn, hand, history, s, **args) == next(m for m, v in got if v == best)
    elif fn is dom.value:
        assert answer(fn, hand, history, s, **args) == best


BAD_MODELS = [([], "at least one"), (["random", "perfect"], "opponent model"), (3, "models"),
              ([None], "opponent model"), (np.array(3), "models"), ([[1]], "opponent model")]


def bad_histories(state: State) -> list:
    """(history, words of its refusal) from the start ``state``, seen by seat 0 (who opens)."""
    mine = tiles_of(state.hands[0])
    opening = dom.tile_name(mine[0])
    a, b = (int(x) for x in opening.split("-"))
    stray = next(t for t in range(E.N_TILES) if not state.hands[0] >> t & 1 and not {int(E.TILE_A[t]),
                                                                                   int(E.TILE_B[t])} & {a, b})
    return [(5, "history"), (2.5, "history"), (None, "history"), (True, "history"), (np.array(3), "history"),
            (["pass"], "not a legal move"), ("draw:0-0", "drawing is not legal"), ("7-7", "tile"),
            ([opening, "pass"], "passes only after drawing"), (f"{opening} draw draw", "once a turn"),
            (f"{opening} {dom.tile_name(mine[1])}L", "cannot hold"), (f"{opening} 7-6L", "tile"),
            (f"{opening} {dom.tile_name(stray)}", "which end"), (f"{opening} {dom.tile_name(stray)}R", "does not go")]


def test_every_wrong_value_is_refused():
    """Each wrong value of every argument, one at a time, at the start of a deal, by each function: the fuzz
    tests draw these too, but what one (derandomized) run draws is up to Hypothesis; this sweep is not."""
    state = dom.deal(5)
    hand = [dom.tile_name(t) for t in tiles_of(state.hands[0])]
    wrong = [({"hand": v}, ("hand", "tile")) for v in (*JUNK_NOT_LIST, *bad_hand_values(state.hands[0]))]
    wrong += [({"history": v}, (words,)) for v, words in bad_histories(state)]
    wrong += [({"seat": v}, ("seat",)) for v in (-1, 2, True, 1.0, "1", None, np.int64(2))]
    wrong += [({"player": v}, ("player",)) for v in ("oracle", None, 1, ["realistic"])]
    wrong += [({"player": "predictive", "model": v}, ("model",)) for v in (None, "perfect", "Random", 3, [1])]
    wrong += [({"models": v}, (words,)) for v, words in BAD_MODELS]
    for key, values in (("depth", (0, 13, 1.5, True, "2")), ("samples", (0, 10**5 + 1, 2.0)),
                        ("max_exact", (-1, 10**6 + 1, None)), ("endgame", (-2, 15, 0.5)), ("budget", (-1, 10**9 + 1)),
                        ("seed", (-1, 2**62 + 1, 1.0, "3"))):
        wrong += [({key: v}, (key,)) for v in values]
    for change, names in wrong:
        args = {"hand": hand, "history": "", "seat": 0, "depth": 1, "samples": 2, **change}
        hand_, history, seat = args.pop("hand"), args.pop("history"), args.pop("seat")
        for fn in (dom.replay, dom.move_values, dom.decide, dom.value):
            if fn is dom.replay:
                if set(change) - {"hand", "history", "seat", "player", "model", "models"}:
                    continue
                refused(fn, hand_, history, seat, names=names,
                        **{k: v for k, v in args.items() if k in ("player", "model", "models")})
            else:
                refused(fn, hand_, history, seat, names=names, **args)
    for fn in (dom.decide, dom.value):
        refused(fn, hand, "", 0, names=("unknown option 'deep'",), deep=3)
    # and the same call with every argument right is answered: the refusals above are of the one wrong value
    assert [m for m, _ in answer(dom.move_values, hand, "", 0, depth=1, samples=2)] == legal_names(state)


def test_a_kept_tile_placed_later_explains_its_draw():
    """Found by test_decisions: the opponent draws and passes at ends 4 and 1 (it kept a tile fitting neither, 2-6),
    and later places 2-6; at the end every unknown tile fits 4 or 1. A legal game, once refused as "inconsistent"
    (the check looked for the kept tile among the unknown tiles only, not among those it placed since)."""
    hand = ["1-2", "1-4", "1-5", "2-2", "2-4", "3-5", "5-5"]
    history = ("1-4L 3-4R 3-5R 0-1L 5-5R 0-2L 2-4L 4-4L 1-5R draw pass 1-2R 2-6R draw:3-3 pass 6-6R draw:0-0 pass "
               "3-6R 3-3R draw 1-3R draw:4-5 4-5L draw pass draw:0-4 pass draw 2-5L 2-2L draw 1-6R draw:5-6 5-6R draw "
               "pass draw:2-3 2-3L draw 0-3L 0-0L 0-6L draw:0-5 0-5R 4-6L")
    got = answer(dom.move_values, hand, history, 0, player="predictive", model="random", depth=1, samples=1)
    assert got == [("0-4L", 1.0), ("0-4R", 1.0)]  # its last tile, 0-4, fits both ends (0 and 4): a win either way


def test_a_single_winning_move_is_valued_as_a_win():
    """A seat whose last tile fits one end only: its one legal move wins the game (the game's returns, +1)."""
    rnd = random.Random(3)
    while True:
        state = dom.deal(rnd.randrange(10**6))
        positions, moves = [state], []
        while not GAME.is_terminal(state):
            legal = GAME.legal_actions(state)
            if len(legal) == 1 and legal[0] < E.DRAW and GAME.is_terminal(GAME.apply(state, legal[0])):
                seat = state.to_move
                hand = [dom.tile_name(t) for t in tiles_of(positions[0].hands[seat])]
                history = tokens(positions, moves, seat, len(moves))
                assert GAME.returns(GAME.apply(state, legal[0]))[seat] == 1
                assert dom.move_values(hand, history, seat, depth=1, samples=2) == [(dom.move_name(legal[0]), 1.0)]
                return
            moves.append(rnd.choice(legal))
            state = GAME.apply(state, moves[-1])
            positions.append(state)


@examples(ci=100, dev=30)
@given(data=st.data())
def test_matchups(built, nothing_built, data):
    """load_matchups and Matchups.outcome on the shared experiment: every cell holds the games played; unknown
    rule sets, players, models and seats refused; the table not built said so."""
    draw = data.draw
    rules = draw(st.one_of(st.sampled_from(["standard", dom.Rules()]), bad_choice(["standard"])))
    if not (isinstance(rules, dom.Rules) or (isinstance(rules, str) and rules == "standard")):
        refused(dom.load_matchups, rules, names=("rule set",), artifacts_dir=built)
        return
    if draw(st.integers(0, 9)) == 0:
        missing(dom.load_matchups, rules, artifacts_dir=nothing_built)
        return
    m = answer(dom.load_matchups, rules, artifacts_dir=built)
    assert (m.players, m.models, m.counts.shape) == (PLAYERS, MODELS, (2, 2, 2, 3))
    valid = {"player": draw(st.sampled_from(PLAYERS)), "model": draw(st.sampled_from(MODELS)),
             "seat": draw(integers(0, 1))}
    bad = {"player": st.one_of(bad_choice(PLAYERS), st.just("bayesian")),
           "model": st.one_of(bad_choice(MODELS), st.just("greedy")), "seat": bad_integer(0, 1)}
    args, wrong = one_wrong(draw, valid, bad, every=2)
    if wrong is not None:
        refused(m.outcome, args["player"], args["model"], args["seat"], names=(wrong,))
        return
    got = answer(m.outcome, args["player"], args["model"], args["seat"])
    assert len(got) == 3 and sum(got) == GAMES and all(c >= 0 for c in got)
