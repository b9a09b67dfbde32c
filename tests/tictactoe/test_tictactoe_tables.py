"""The tables (retrograde analysis in the pipeline) against the recursive search of lookup.opponents'
players, position by position, and the match-up properties the issue pins."""

from fractions import Fraction

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
            moves = GAME.legal_moves(board)
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
