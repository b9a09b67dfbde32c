"""Every public function of lookup.tictactoe, fuzzed: boards reached by random play are answered, and a sample
of the answers equals the exact search of lookup.opponents' players (perfect play, best response to a model);
impossible boards, finished boards (for a move) and unknown models are refused naming the problem
(fuzz_inputs)."""

from functools import cache

from fuzz_inputs import JUNK, Sample, answer, examples, refused
from hypothesis import given
from hypothesis import strategies as st

from lookup import tictactoe as ttt
from lookup.opponents import Player, models_for
from lookup.tictactoe.rules import GAME, START

MODELS = ("random", "first", "last", "greedy", "perfect")  # pipeline/tictactoe/game.py small=
SAMPLE = Sample(every=4)


@cache
def player(kind: str, seat: int, model: str | None) -> Player:
    return Player(kind, GAME, seat, () if model is None else models_for(GAME, [model]))


def reference(board, model: str | None) -> tuple[float, set[int]]:
    """(value, best moves) of the player to move, by the players' exact recursive search."""
    seat = GAME.to_move(board)
    p = player("perfect", seat, None) if model is None else player("predictive", seat, model)
    belief = None if model is None else 0
    if GAME.is_terminal(board):
        return float(GAME.returns(board)[seat]), set()
    values = p.move_values(board, belief)
    best = max(v for _, v in values)
    return float(best), {m for m, v in values if v == best}


@st.composite
def boards(draw):
    board = START
    for _ in range(draw(st.integers(0, 9))):
        if GAME.is_terminal(board):
            break
        board = GAME.apply(board, draw(st.sampled_from(GAME.legal_actions(board))))
    return board


BAD_BOARDS = st.one_of(JUNK, st.sampled_from(["XX.......", "XXXOOO...", "OO.......", "X.O", "X.O.....Z", "XXX.OO.OO",
                                              (1, 1, 0, 0, 0, 0, 0, 0, 3), (1,) * 8]))


@examples(ci=1500, dev=200)
@given(data=st.data())
def test_board_queries(built, data):
    draw = data.draw
    board = draw(boards())
    model = draw(st.sampled_from([None, *MODELS]))
    fn = draw(st.sampled_from([ttt.decide, ttt.value, ttt.best_moves]))
    wrong = draw(st.sampled_from([None, None, None, "board", "model"]))
    form = draw(st.sampled_from([ttt.format_board(board), board, ttt.format_board(board).lower()]))
    if wrong == "board":
        refused(fn, draw(BAD_BOARDS), model, names=("board",), artifacts_dir=built)
        return
    if wrong == "model":
        refused(fn, form, draw(st.one_of(JUNK.filter(lambda v: v is not None), st.just("strong"))),
                names=("model",), artifacts_dir=built)
        return
    if GAME.is_terminal(board) and fn is not ttt.value:
        refused(fn, form, model, names=("over",), artifacts_dir=built)
        return
    got = answer(fn, form, model, artifacts_dir=built)
    assert ttt.parse_board(ttt.format_board(board)) == board
    if SAMPLE(draw):
        value, best = reference(board, model)
        if fn is ttt.value:
            assert got == value
        elif fn is ttt.best_moves:
            assert set(got) == best and got == sorted(got)
        else:
            assert got == min(best)
