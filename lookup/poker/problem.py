"""An equity question, checked: known hands, board, dead cards, unknown opponents, and its suit symmetry.

``Problem.rem`` is every card still in the deck (sorted); the board is completed from it and the unknown
opponents are dealt from what is left. ``symmetry()`` lists the suit permutations that map every known
hand, the board and the dead cards onto themselves: completions in one orbit have equal counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from math import comb, factorial
from typing import Any

import numpy as np

from lookup.poker.cards import DECK_SIZE, card_text, parse_cards
from lookup.poker.rules import BOARD_SIZES, HOLE_CARDS, MAX_PLAYERS
from lookup.words import counted


@dataclass(frozen=True)
class Problem:
    hands: tuple[tuple[int, int], ...]
    board: tuple[int, ...]
    dead: tuple[int, ...]
    opponents: int

    @property
    def rem(self) -> np.ndarray:
        used = {c for h in self.hands for c in h} | set(self.board) | set(self.dead)
        return np.array([c for c in range(DECK_SIZE) if c not in used], dtype=np.int64)

    @property
    def k(self) -> int:
        """Board cards still to come."""
        return 5 - len(self.board)

    @property
    def pool(self) -> int:
        """Cards left for the unknown opponents once the board is complete."""
        return len(self.rem) - self.k

    def boards(self) -> int:
        """Number of equally likely board completions."""
        return comb(len(self.rem), self.k)

    def opponent_deals(self) -> int:
        """Ordered ways to deal two cards to each unknown opponent from the pool (seats are distinct)."""
        return ordered_matchings(self.pool, self.opponents)

    def deals(self) -> int:
        """Equally likely deals: board completions x opponent hands."""
        return self.boards() * self.opponent_deals()

    def hands_array(self) -> np.ndarray:
        return np.array([sorted(h) for h in self.hands], dtype=np.int64).reshape(-1, 2)

    def labels(self) -> list[str]:
        return [" ".join(card_text(c) for c in h) for h in self.hands]

    def symmetry(self) -> np.ndarray:
        """Suit permutations as card maps int64 [g, 52] (row 0 = identity) that fix each hand, the board
        and the dead cards as sets."""
        fixed = [frozenset(h) for h in self.hands] + [frozenset(self.board), frozenset(self.dead)]
        maps = []
        for perm in permutations(range(4)):
            card_map = [4 * (c // 4) + perm[c % 4] for c in range(DECK_SIZE)]
            if all(frozenset(card_map[c] for c in s) == s for s in fixed):
                maps.append(card_map)
        return np.array(maps, dtype=np.int64)


def unordered_matchings(pool: int, n: int) -> int:
    """Ways to choose n disjoint unordered pairs (as a set) from ``pool`` cards; 0 when impossible."""
    if n < 0 or 2 * n > pool:
        return 0
    return comb(pool, 2 * n) * factorial(2 * n) // (factorial(n) * 2 ** n)


def ordered_matchings(pool: int, n: int) -> int:
    """Ways to give two cards to each of n distinct seats from ``pool`` cards."""
    return unordered_matchings(pool, n) * factorial(n)


def count_arg(value: Any, what: str) -> int:
    """``value`` as an int when it is a Python or numpy integer (never bool); else ValueError naming ``what``."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ValueError(f"{what} must be an integer, got {value!r}")
    return int(value)


def default_opponents(known_hands: int) -> int:
    """The unknown opponents of a question that names none: one random hand against a single known hand (its
    equity against a random hand, as ``preflop`` answers by default), none beside two or more known hands (their
    equity against each other). One rule for the library, the command line and the web."""
    return 1 if known_hands == 1 else 0


def make_problem(hands: Any, board: Any = (), opponents: Any = None, dead: Any = ()) -> Problem:
    """Check an equity question; ValueError naming the problem (a card that does not exist, a card used
    twice, a board of 1, 2 or more than 5 cards, a hand that is not two cards, too many players). ``opponents``
    None: ``default_opponents`` (1 with a single known hand, else 0); 0 is asked for explicitly."""
    if isinstance(hands, str):
        hands = hands.split()
    try:
        hand_list = list(hands)
    except TypeError:
        raise ValueError(f"hands {hands!r}: expected a list of two-card hands such as ['AsAh', 'KdKc']") from None
    parsed = []
    for i, hand in enumerate(hand_list):
        cards = parse_cards(hand, f"hand {i + 1}")
        if len(cards) != HOLE_CARDS:
            raise ValueError(f"hand {i + 1} {hand!r} has {counted(len(cards), 'card')}; a hold'em hand is exactly two "
                             "cards")
        parsed.append(tuple(cards))
    board_cards = parse_cards(board, "board")
    if len(board_cards) not in BOARD_SIZES:
        raise ValueError(f"a board of {counted(len(board_cards), 'card')} is not a hold'em board (0, 3, 4 or 5 cards)")
    dead_cards = parse_cards(dead, "dead")
    n = default_opponents(len(parsed)) if opponents is None else count_arg(opponents, "opponents")
    if not 0 <= n < MAX_PLAYERS:
        raise ValueError(f"opponents must be in 0..{MAX_PLAYERS - 1} (at most {MAX_PLAYERS} players sit at a hold'em "
                         f"table), got {n}")
    players = len(parsed) + n
    if players > MAX_PLAYERS:
        raise ValueError(f"{players} players: at most {MAX_PLAYERS} players sit at a hold'em table")
    seen: dict[int, str] = {}
    for where, cards in [(f"hand {i + 1}", h) for i, h in enumerate(parsed)] + [("board", board_cards),
                                                                              ("dead", dead_cards)]:
        for c in cards:
            if c in seen:
                raise ValueError(f"the card {card_text(c)} is both in {seen[c]} and in {where}")
            seen[c] = where
    problem = Problem(hands=tuple(parsed), board=board_cards, dead=dead_cards, opponents=n)
    if problem.pool < 2 * n:
        raise ValueError(f"not enough cards: {len(problem.rem)} left in the deck for "
                         f"{counted(problem.k, 'board card')} and {counted(n, 'opponent hand')}")
    return problem
