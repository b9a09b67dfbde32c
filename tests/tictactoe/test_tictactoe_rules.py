"""The rules against an independent enumeration (bitboards, written here), and bad boards and moves."""

import numpy as np
import pytest

from lookup.opponents import MODELS, likelihood, models_for
from lookup.tictactoe.rules import GAME, START, get_rules, parse_board

WINS = [sum(1 << i for i in line) for line in
        ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))]


def _won(bits: int) -> bool:
    return any(bits & w == w for w in WINS)


def _enumerate():
    """(positions, terminal positions, complete games, negamax value of the empty board) by bitboards."""
    positions, terminal = set(), set()

    def walk(x: int, o: int, x_to_move: bool) -> tuple[int, int]:
        positions.add((x, o))
        if _won(x) or _won(o) or (x | o) == 511:
            terminal.add((x, o))
            return 1, (-1 if _won(x) or _won(o) else 0)  # the player to move has just lost, or a draw
        games, best = 0, -2
        for cell in range(9):
            if not (x | o) >> cell & 1:
                g, v = walk(x | 1 << cell, o, False) if x_to_move else walk(x, o | 1 << cell, True)
                games += g
                best = max(best, -v)
        return games, best

    games, value = walk(0, 0, True)
    return positions, terminal, games, value


def test_counts_against_independent_enumeration():
    positions, terminal, games, value = _enumerate()
    assert (len(positions), len(terminal), games, value) == (5478, 958, 255168, 0)
    from pipeline.tictactoe.retrograde import reachable

    ours = reachable()
    as_bits = {(sum(1 << i for i, c in enumerate(b) if c == 1), sum(1 << i for i, c in enumerate(b) if c == 2))
               for b in ours}
    assert as_bits == positions
    assert sum(GAME.is_terminal(b) for b in ours) == 958
    assert GAME.minimax(START) == 0


def test_bad_boards_and_moves():
    for text, words in [("XXX......", "3 X and 0 O"), ("XXXOOO...", "both X and O"),
                        ("XXXOO.O..", "X has a line but O moved"), ("OOO.XXXX.", "O has a line but X moved"),
                        ("XO", "9 characters"), ("XO.....A.", "9 characters")]:
        with pytest.raises(ValueError, match=words):
            parse_board(text)
    with pytest.raises(ValueError, match="not legal"):
        GAME.apply(parse_board("X........"), 0)
    with pytest.raises(ValueError, match="cell number"):
        GAME.apply(START, True)
    assert GAME.apply(START, np.int64(4))[4] == 1
    with pytest.raises(ValueError, match="unknown tic-tac-toe rule set"):
        get_rules("misere")
    with pytest.raises(ValueError, match="unknown opponent model"):
        models_for(GAME, ["clever"])
    with pytest.raises(ValueError, match="does not apply"):
        models_for(GAME, ["strong"])  # dominoes only: tic-tac-toe has no strength
    with pytest.raises(ValueError, match="not legal"):
        likelihood(MODELS["random"], GAME, [(parse_board("X........"), 0)])


def test_models_are_distributions_over_legal_moves():
    board = parse_board("X...O....")
    for model in models_for(GAME):
        dist = model.distribution(GAME, board)
        assert sum(dist.values()) == 1 and set(dist) <= set(GAME.legal_actions(board))
        assert all(p > 0 for p in dist.values())
    assert MODELS["first"].distribution(GAME, board) == {1: 1}
    assert MODELS["last"].distribution(GAME, board) == {8: 1}
    assert set(MODELS["random"].distribution(GAME, board)) == {1, 2, 3, 5, 6, 7, 8}
    board = parse_board("XX..O....")  # O to move
    # The seed's evaluation for O after each move, by hand: after 2, center +2, lines 3-4-5 and 2-5-8 +1 each,
    # 0-3-6 -1, 2-4-6 +3 = 6; every other move keeps X's open pair (-3) and scores less.
    assert GAME.heuristic(GAME.apply(board, 2), 1) == 6
    assert MODELS["greedy"].distribution(GAME, board) == {2: 1}
    assert MODELS["perfect"].distribution(GAME, board) == {2: 1}
    history = [(parse_board("X........"), 4)]
    assert likelihood(MODELS["random"], GAME, history) == pytest.approx(1 / 8)
    assert likelihood(MODELS["first"], GAME, history) == 0


def test_format_board_writes_what_parse_board_reads():
    from lookup.tictactoe.rules import format_board

    assert format_board(START) == "........."
    assert format_board((1, 1, 0, 0, 2, 0, 2, 0, 0)) == "XX..O.O.."  # 1 = X, 2 = O, row by row
    for text in ("XOXOXOXOX", "X...O...X", "OO.XX...."):
        assert format_board(parse_board(text)) == text
