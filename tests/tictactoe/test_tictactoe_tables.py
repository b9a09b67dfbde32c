"""The tables (retrograde analysis in the pipeline) against the recursive search of lookup.opponents'
players, position by position, and the match-up properties the issue pins."""

from fractions import Fraction
from functools import cache

import pytest

from lookup.opponents import Player, match_outcome, models_for
from lookup.tictactoe import load_tables
from lookup.tictactoe.rules import GAME, START, board_code
from pipeline.tictactoe.retrograde import reachable


def _mask(values):
    top = max(v for _, v in values)
    return sum(1 << m for m, v in values if v == top)


def test_tables_equal_the_players_search(built):
    tables = load_tables(artifacts_dir=built)
    boards = [b for b in reachable() if not GAME.is_terminal(b)]
    assert len(tables.code) == 5478
    perfect = [Player("perfect", GAME, seat) for seat in (0, 1)]
    for k, model in enumerate(models_for(GAME, tables.models)):
        predictive = [Player("predictive", GAME, seat, (model,)) for seat in (0, 1)]
        realistic = [Player("realistic", GAME, seat, (model,)) for seat in (0, 1)]
        for board in boards:
            seat, r = GAME.to_move(board), tables.row(board_code(board))
            values = predictive[seat].move_values(board, 0)
            assert int(tables.best_moves[k, r]) == _mask(values), (model.name, board)
            assert tables.best_response[k, r] == float(max(v for _, v in values))
            # realistic MinMax with exactly one credible model is predictive MinMax with it
            assert realistic[seat].move_values(board, frozenset({0})) == values
            if k == 0:
                minimax = perfect[seat].move_values(board, None)
                assert int(tables.minimax_moves[r]) == _mask(minimax)
                assert tables.minimax[r] == max(v for _, v in minimax)


def test_best_response_to_random_moving_first_never_loses(built):
    tables = load_tables(artifacts_dir=built)
    k = tables.model_index("random")
    memo = {}

    def loss(board):  # exact probability that X, playing the tables' first best move, loses to random O
        if board in memo:
            return memo[board]
        if GAME.is_terminal(board):
            out = Fraction(GAME.returns(board)[0] < 0)
        elif GAME.to_move(board) == 0:
            mask = int(tables.best_moves[k, tables.row(board_code(board))])
            out = loss(GAME.apply(board, (mask & -mask).bit_length() - 1))
        else:
            moves = GAME.legal_actions(board)
            out = sum((loss(GAME.apply(board, m)) for m in moves), Fraction(0)) / len(moves)
        memo[board] = out
        return out

    assert loss(START) == 0
    win, draw, lost = match_outcome(GAME, Player("predictive", GAME, 0, models_for(GAME, ["random"])),
                                    models_for(GAME, ["random"])[0], START)
    assert lost == 0 and win + draw == 1 and win > Fraction(99, 100)


def test_realistic_player_never_loses():
    models = models_for(GAME)
    for seat in (0, 1):
        player = Player("realistic", GAME, seat, models)
        for model in models:
            win, draw, loss = match_outcome(GAME, player, model, START)
            assert win + draw + loss == 1 and loss == 0  # the worst credible model includes perfect play
    # the perfect player draws against perfect play
    assert match_outcome(GAME, Player("perfect", GAME, 0), models[-1], START)[1] == 1


@pytest.mark.slow
def test_bayesian_player_outcomes_are_distributions():
    models = models_for(GAME)
    for seat in (0, 1):
        player = Player("bayesian", GAME, seat, models)
        for model in models:
            assert sum(match_outcome(GAME, player, model, START)) == 1


def test_position_codes_are_the_documented_base3_codes(built):
    """The tables' key (docs/artifacts.md): code = sum of cell * 3**index (0 empty, 1 X, 2 O), increasing, over the
    positions of the independent bitboard enumeration."""
    from tests.tictactoe.test_tictactoe_rules import _enumerate

    positions = _enumerate()[0]
    codes = sorted(sum(3**i for i in range(9) if x >> i & 1) + sum(2 * 3**i for i in range(9) if o >> i & 1)
                   for x, o in positions)
    assert load_tables(artifacts_dir=built).code.tolist() == codes
    assert board_code((1, 0, 0, 0, 0, 0, 0, 0, 0)) == 1 and board_code((0, 0, 0, 0, 0, 0, 0, 0, 2)) == 2 * 3**8


@cache
def _against_random(board: str, me: str, other: str) -> Fraction:
    """My expected result (+1 / 0 / -1) moving on ``board`` and playing best, the other player choosing a free cell
    uniformly at random: a plain search over strings (no game API, no tables)."""
    from tests.tictactoe.test_tictactoe_play import _won

    best = None
    for m in (i for i, c in enumerate(board) if c == "."):
        b = board[:m] + me + board[m + 1:]
        if _won(b, me) or "." not in b:
            v = Fraction(1 if _won(b, me) else 0)
        else:
            free = [i for i, c in enumerate(b) if c == "."]
            v = Fraction(0)
            for o in free:
                b2 = b[:o] + other + b[o + 1:]
                r = -1 if _won(b2, other) else 0 if "." not in b2 else _against_random(b2, me, other)
                v += Fraction(r) / len(free)
        best = v if best is None else max(best, v)
    return best


@pytest.mark.parametrize("board, me, other", [(".........", "X", "O"), ("X........", "O", "X"),
                                              ("....X....", "O", "X"), ("XO..X....", "O", "X")])
def test_best_response_to_random_against_a_plain_search(built, board, me, other):
    from lookup.tictactoe import value

    assert value(board, "random", artifacts_dir=built) == float(_against_random(board, me, other))
