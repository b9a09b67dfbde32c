"""Cards and their text notation: ``As Kd 7h`` for cards, ``AKs`` / ``T9o`` / ``QQ`` for starting hands.

A card is an integer ``4 * rank + suit``: rank 0..12 for 2..A (``RANKS``), suit 0..3 for clubs, diamonds,
hearts, spades (``SUITS``). The 169 starting-hand classes are indexed by their cell in the usual 13x13
grid: ``13 * i + j`` with ``i, j`` = 0 for an ace ... 12 for a deuce; the diagonal holds the pairs, above it
(``i < j``) the suited hands, below it the offsuit ones (row = lower rank).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import combinations
from typing import Any

import numpy as np

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52
N_CLASSES = 169
_CARD = re.compile(r"([2-9TJQKA])([cdhs])", re.IGNORECASE)


def card_index(text: str) -> int:
    """The card index of one card such as ``"As"`` or ``"td"``; ValueError naming a card that does not exist."""
    if not isinstance(text, str) or len(text) != 2 or not _CARD.fullmatch(text):
        raise ValueError(f"{text!r} is not a card (expected a rank of {RANKS} and a suit of {SUITS}, e.g. 'As')")
    return 4 * RANKS.index(text[0].upper()) + SUITS.index(text[1].lower())


def card_text(card: int) -> str:
    """``"As"`` for the card index 51."""
    return RANKS[card // 4] + SUITS[card % 4]


def parse_cards(cards: Any, what: str = "cards") -> tuple[int, ...]:
    """Card indices from ``"AsKd"``, ``"As Kd"``, ``"As,Kd"``, a list of such strings, or card integers.

    Integers must be Python or numpy integers in 0..51 (never bool). ``what`` names the argument in errors.
    A card listed twice is a ValueError.
    """
    if cards is None:
        return ()
    if isinstance(cards, str):
        text = re.sub(r"[\s,]+", "", cards)
        if len(text) % 2:
            raise ValueError(f"{what} {cards!r}: not a list of two-character cards such as 'As Kd'")
        out = tuple(card_index(text[i:i + 2]) for i in range(0, len(text), 2))
    else:
        try:
            items = list(cards)
        except TypeError:
            raise ValueError(f"{what} {cards!r}: expected cards such as 'AsKd' or a list of cards") from None
        out = tuple(_one_card(c, what) for c in items)
    seen = set()
    for c in out:
        if c in seen:
            raise ValueError(f"{what}: the card {card_text(c)} is listed twice")
        seen.add(c)
    return out


def _one_card(card: Any, what: str) -> int:
    if isinstance(card, str):
        return card_index(card.strip())
    if isinstance(card, bool | np.bool_) or not isinstance(card, int | np.integer):
        raise ValueError(f"{what}: {card!r} is not a card (a string such as 'As' or an integer 0..51)")
    if not 0 <= int(card) < DECK_SIZE:
        raise ValueError(f"{what}: card index {int(card)} does not exist (cards are 0..51)")
    return int(card)


def class_index(hi: int, lo: int, suited: bool) -> int:
    """Grid cell (0..168) of a starting hand with ranks ``hi >= lo`` (0..12 for 2..A)."""
    i, j = 12 - hi, 12 - lo
    if hi == lo:
        return 13 * i + i
    return 13 * i + j if suited else 13 * j + i


def class_name(index: int) -> str:
    """``"AKs"``, ``"T9o"`` or ``"QQ"`` for a grid cell."""
    if isinstance(index, bool) or not isinstance(index, int | np.integer) or not 0 <= index < N_CLASSES:
        raise ValueError(f"{index!r} is not a starting-hand class index (0..168)")
    i, j = divmod(int(index), 13)
    if i == j:
        return RANKS[12 - i] * 2
    if i < j:
        return RANKS[12 - i] + RANKS[12 - j] + "s"
    return RANKS[12 - j] + RANKS[12 - i] + "o"


def hand_class(cards: Iterable[int]) -> int:
    """Grid cell of a specific two-card hand."""
    a, b = cards
    ra, rb = a // 4, b // 4
    return class_index(max(ra, rb), min(ra, rb), a % 4 == b % 4 and a != b)


def parse_class(text: Any) -> int:
    """Grid cell of ``"AKs"``, ``"T9o"``, ``"QQ"`` (or a specific hand such as ``"AsKs"``)."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a starting hand (expected e.g. 'AKs', 'T9o', 'QQ' or 'AsKs')")
    t = text.strip()
    if len(t) == 4:
        return hand_class(parse_cards(t, "hand"))
    m = re.fullmatch(r"([2-9TJQKA])([2-9TJQKA])([so]?)", t, re.IGNORECASE)
    if not m:
        raise ValueError(f"{text!r} is not a starting hand (expected e.g. 'AKs', 'T9o', 'QQ' or 'AsKs')")
    a, b = RANKS.index(m[1].upper()), RANKS.index(m[2].upper())
    kind = m[3].lower()
    if a == b:
        if kind:
            raise ValueError(f"{text!r}: a pair is neither suited nor offsuit (write e.g. 'QQ')")
        return class_index(a, a, False)
    if not kind:
        raise ValueError(f"{text!r}: say 's' (suited) or 'o' (offsuit), e.g. '{m[1].upper()}{m[2].upper()}s'")
    return class_index(max(a, b), min(a, b), kind == "s")


def class_combos(index: int) -> list[tuple[int, int]]:
    """Every specific hand (card pair, lower card first) of a grid cell: 6 for a pair, 4 suited, 12 offsuit."""
    class_name(index)
    return [h for h in combinations(range(DECK_SIZE), 2) if hand_class(h) == index]


def all_hands() -> np.ndarray:
    """The 1326 two-card hands as an int array [1326, 2] (lower card first), in lexicographic order."""
    return np.array(list(combinations(range(DECK_SIZE), 2)), dtype=np.int64)


def hand_classes() -> np.ndarray:
    """Grid cell of each row of ``all_hands()``."""
    return np.array([hand_class(h) for h in all_hands()], dtype=np.int64)
