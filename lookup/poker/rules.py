"""Texas hold'em rules as data (stated in docs/poker.md, "Rules"): categories, ranking of five-card hands, best five of
seven, split pots, and the equity of a player.

This is the one definition of hand ranking. The evaluator tables (``poker-evaluator`` artifact) are
computed from ``hand_key`` by the pipeline; ``best_of_seven`` is the slow reference (21 five-card subsets).

A hand *value* is an integer, larger is better: ``category << 12 | r`` where ``r`` (1..4095) orders the
hands within the category (0 is never a value); ``value >> 12`` is the category index (``CATEGORIES``).
Values depend only on ranks and suits of the cards, never on which player holds them.

Equity of a player = P(wins alone) + sum over k >= 2 of P(ties for best with k-1 others) / k.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from lookup.naming import by_name

CATEGORIES = ("high card", "one pair", "two pair", "three of a kind", "straight", "flush", "full house",
              "four of a kind", "straight flush")
CATEGORY_SHIFT = 12
HOLE_CARDS = 2
BOARD_SIZES = (0, 3, 4, 5)
MAX_PLAYERS = 10
# The standard published counts of best hands over all C(52, 7) = 133,784,560 seven-card hands, by category.
SEVEN_CARD_COUNTS = (23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848,
                     41_584)
# Distinct five-card hand values (Cactus Kev's 7462 equivalence classes) and those reachable as a best five
# of seven cards (4824).
DISTINCT_FIVE = 7462
DISTINCT_SEVEN = 4824

RULES: dict[str, Any] = {
    "game": "texas-holdem",
    "deck": 52,
    "hole_cards": HOLE_CARDS,
    "board_sizes": list(BOARD_SIZES),
    "max_players": MAX_PLAYERS,
    "categories": list(CATEGORIES),
    "wheel": "A-2-3-4-5 is the lowest straight",
    "value": "category << 12 | order within category; larger is better",
    "split": "equal best hands split the pot equally",
}


@dataclass(frozen=True)
class Rules:
    """One rule set of the game (docs/adding_a_game.md): Texas hold'em has one, ``holdem``; ``to_dict()`` is
    what artifacts record as their rules (``RULES``)."""

    name: str

    def to_dict(self) -> dict[str, Any]:
        return dict(RULES)


RULE_SETS: dict[str, Rules] = {"holdem": Rules("holdem")}
DEFAULT_RULES = "holdem"


def get_rules(name: str = DEFAULT_RULES) -> Rules:
    """The rule set called ``name``; ValueError naming an unknown one."""
    return by_name(RULE_SETS, name, "poker rule set")


def _straight_high(ranks: set[int]) -> int:
    """Highest rank of a five-long run in ``ranks`` (the wheel counts the ace low, high card 3 = five), or -1."""
    for top in range(12, 3, -1):
        if all(r in ranks for r in range(top - 4, top + 1)):
            return top
    if {12, 0, 1, 2, 3} <= ranks:
        return 3
    return -1


def hand_key(cards: Sequence[int]) -> tuple[int, ...]:
    """Comparison key of exactly five cards (indices ``4 * rank + suit``): (category, tie-breaking ranks...).

    Keys compare as tuples; equal keys split the pot.
    """
    if len(cards) != 5:
        raise ValueError(f"hand_key needs exactly five cards, got {len(cards)}")
    ranks = [c // 4 for c in cards]
    flush = len({c % 4 for c in cards}) == 1
    high = _straight_high(set(ranks)) if len(set(ranks)) == 5 else -1
    if flush and high >= 0:
        return (8, high)
    counts = Counter(ranks)
    # Ranks by (multiplicity, rank), descending: e.g. a full house KKK22 -> (K, 2).
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        return (7, *order)
    if shape[:2] == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *sorted(ranks, reverse=True))
    if high >= 0:
        return (4, high)
    if shape[0] == 3:
        return (3, *order)
    if shape[:2] == [2, 2]:
        return (2, *order)
    if shape[0] == 2:
        return (1, *order)
    return (0, *order)


def best_of_seven(cards: Iterable[int]) -> tuple[int, ...]:
    """Key of the best five of the given cards (5 to 7 of them): the slow reference evaluator."""
    cards = list(cards)
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a hand is the best five of 5 to 7 cards, got {len(cards)}")
    return max(hand_key(five) for five in combinations(cards, 5))


def category_of(value: int) -> str:
    """Category name of a hand value."""
    return CATEGORIES[int(value) >> CATEGORY_SHIFT]


def shares(values: Sequence[int]) -> list[float]:
    """Pot share of each player given their hand values: 1/k to each of the k best, 0 to the others."""
    best = max(values)
    k = sum(v == best for v in values)
    return [1.0 / k if v == best else 0.0 for v in values]
