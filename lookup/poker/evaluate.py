"""Hand values with numpy, from the evaluator tables (vectorised over many hands at once).

``values(cards)`` walks the rank-multiset automaton one card column at a time (one gather per card) and
overrides the result with the flush table where five or more cards share a suit; ``values_on_board`` does it for
many players' two cards on a shared board, the board's cards walked once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from lookup.poker.cards import parse_cards
from lookup.poker.rules import CATEGORY_SHIFT, category_of
from lookup.poker.tables import EvaluatorTables, load_evaluator


def values(cards: np.ndarray, tables: EvaluatorTables) -> np.ndarray:
    """Values (uint16, larger is better) of hands given as card indices ``[..., k]`` with 5 <= k <= 7.

    Cards in a row must be distinct (not checked here: callers validate).
    """
    cards = np.asarray(cards)
    k = cards.shape[-1]
    if not 5 <= k <= 7:
        raise ValueError(f"a hand is 5 to 7 cards, got {k}")
    return values_on_board(cards[..., :-2], cards[..., None, -2:], tables)[..., 0]


def values_on_board(board: np.ndarray, holes: np.ndarray, tables: EvaluatorTables) -> np.ndarray:
    """Values (uint16, larger is better) of every player's best five of a shared board and their two cards.

    ``board`` ``[..., b]`` (3 <= b <= 5 cards), ``holes`` ``[..., players, 2]``; the leading dimensions broadcast
    (one board for many pairs, or a board per deal). The result is ``[..., players]``, each entry
    ``values(board + hole)``. Why shared: the board's cards go through the rank automaton once for all the
    players (two gathers per player, not seven), and the flush table is read only for the few hands with five
    cards of a suit (a count of each suit packed three bits apiece), which makes the numpy Monte Carlo about
    five times faster (docs/benchmarks.md, "Poker").
    """
    board, holes = np.asarray(board, dtype=np.int64), np.asarray(holes, dtype=np.int64)
    shape = np.broadcast_shapes(board.shape[:-1] + (1,), holes.shape[:-1])
    nxt, width = tables.rank_next.ravel(), tables.rank_next.shape[1]
    state = np.zeros(board.shape[:-1], dtype=np.int64)
    for j in range(board.shape[-1]):
        state = nxt[state * width + (board[..., j] >> 2)]
    state = state[..., None]
    for j in range(2):
        state = nxt[state * width + (holes[..., j] >> 2)]
    out = np.array(np.broadcast_to(tables.rank_value[state], shape))
    # Cards of each suit, three bits a suit (at most 7 cards): a flush is a field of 5 or more.
    suits = (np.left_shift(1, 3 * (board & 3)).sum(axis=-1)[..., None] + np.left_shift(1, 3 * (holes[..., 0] & 3))
             + np.left_shift(1, 3 * (holes[..., 1] & 3)))
    suits = np.broadcast_to(suits, shape)
    board, holes = np.broadcast_to(board[..., None, :], shape + board.shape[-1:]), np.broadcast_to(holes, shape + (2,))
    for suit in range(4):
        at = np.nonzero(((suits >> (3 * suit)) & 7) >= 5)
        if len(at[0]):
            cards = np.concatenate([board[at], holes[at]], axis=-1)
            bits = np.where((cards & 3) == suit, np.left_shift(1, cards >> 2), 0)
            # A union, not a sum: callers may pass rows that repeat a card (they discard those rows' values).
            out[at] = tables.flush_value[np.bitwise_or.reduce(bits, axis=-1)]
    return out


def hand_value(cards: Any, *, artifacts_dir: str | Path | None = None) -> tuple[int, str]:
    """(value, category name) of the best five of 5 to 7 cards given as text (``"As Kd 7h 7c 2s"``) or indices."""
    parsed = parse_cards(cards, "hand")
    if not 5 <= len(parsed) <= 7:
        raise ValueError(f"a hand is the best five of 5 to 7 cards, got {len(parsed)}")
    v = int(values(np.array([parsed]), load_evaluator(artifacts_dir))[0])
    return v, category_of(v)


def category_index(value: Any) -> Any:
    """Category index (0 high card ... 8 straight flush) of value(s)."""
    return np.asarray(value) >> CATEGORY_SHIFT
