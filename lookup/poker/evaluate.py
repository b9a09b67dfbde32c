"""Hand values with numpy, from the evaluator tables (vectorised over many hands at once).

``values(cards)`` walks the rank-multiset automaton one card column at a time (one gather per card) and
overrides the result with the flush table where five or more cards share a suit.
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
    ranks = cards >> 2
    suits = cards & 3
    state = np.zeros(cards.shape[:-1], dtype=np.int64)
    for j in range(k):
        state = tables.rank_next[state, ranks[..., j]]
    out = tables.rank_value[state]
    bits = (1 << ranks).astype(np.int64)
    for suit in range(4):
        here = suits == suit
        count = here.sum(axis=-1)
        if (count >= 5).any():
            mask = np.bitwise_or.reduce(np.where(here, bits, 0), axis=-1)
            out = np.where(count >= 5, tables.flush_value[mask], out)
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
