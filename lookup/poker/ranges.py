"""Hand ranges in the usual notation: ``"QQ+, AKs, KQo, A2s+, 76s+, 99-66, AsKs, AKs:0.5"``.

A range is a weight in 0..1 for each of the 1326 two-card hands (0: not in the range). Tokens, separated by
commas or spaces (ranks ``23456789TJQKA`` in either case, the higher rank first or second):

========================  ===============================================================================
``QQ``                    a pair: its 6 hands
``AKs`` / ``AKo`` / ``AK``  suited (4 hands), offsuit (12), both (16)
``QQ+``                   that pair and every higher one: QQ, KK, AA
``99-66``                 the pairs from one to the other: 99, 88, 77, 66
``A2s+`` / ``KTo+``       the lower rank raised up to one below the higher: A2s ... AKs; KTo, KJo, KQo
``76s+``                  connectors (ranks next to each other) raise both ranks: 76s, 87s, ... AKs
``A5s-A2s`` / ``T9s-65s`` a span with the same higher rank (the lower one moves), or of connectors or hands of
                          the same gap (both move): A5s, A4s, A3s, A2s; T9s, 98s, 87s, 76s, 65s
``AsKs`` / ``As Ks``      one specific hand (card, card)
``random`` (or ``any``)   all 1326 hands
``TOKEN:0.5``             any token with a weight: a decimal in 0..1, at most 6 digits after the point
========================  ===============================================================================

A hand named by several tokens takes the weight of the last one (``"QQ+, AA:0.5"``: AA at half weight;
``"QQ+, KK:0"``: QQ and AA). ``parse_range`` returns a ``Range``; a token it cannot read is a ValueError
naming that token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any

from lookup.poker.cards import DECK_SIZE, N_CLASSES, RANKS, card_text, class_index, class_name, hand_class, parse_cards

MAX_RANGE_TEXT = 4000  # characters: every class with a weight is ~1,500
MAX_WEIGHT_DIGITS = 6  # digits after the decimal point of a weight (keeps the weighted counts exact integers)
_RANK = "[2-9TJQKA]"
_CLASS = re.compile(rf"({_RANK})({_RANK})([so]?)", re.IGNORECASE)
_SPECIFIC = re.compile(r"([2-9TJQKA][cdhs]){2}", re.IGNORECASE)
_CARD = re.compile(r"[2-9TJQKA][cdhs]", re.IGNORECASE)
_WEIGHT = re.compile(r"(?:1(?:\.0*)?|0|0?\.\d+|0\.)")


@lru_cache(maxsize=1)
def _index() -> dict[tuple[int, int], int]:
    return {h: i for i, h in enumerate(combinations(range(DECK_SIZE), 2))}


def hand_index(cards: tuple[int, int]) -> int:
    """Row of a two-card hand in ``lookup.poker.cards.all_hands()`` (lexicographic order of (low, high))."""
    a, b = cards
    return _index()[(min(a, b), max(a, b))]


@lru_cache(maxsize=1)
def _class_members() -> tuple[tuple[int, ...], ...]:
    members: list[list[int]] = [[] for _ in range(N_CLASSES)]
    for h, i in _index().items():
        members[hand_class(h)].append(i)
    return tuple(tuple(m) for m in members)


def class_hands(x: int) -> tuple[int, ...]:
    """Hand indices (``hand_index``) of every combination of class ``x``: 6, 4 or 12."""
    return _class_members()[x]


@dataclass(frozen=True)
class Range:
    """A weighted set of two-card hands: ``weights[i]`` (a Fraction in (0, 1]) of the hand
    ``all_hands()[hands[i]]``, hands in increasing order; ``text`` is what it was read from."""

    text: str
    hands: tuple[int, ...]
    weights: tuple[Fraction, ...]

    def __len__(self) -> int:
        return len(self.hands)

    def cards(self) -> list[tuple[int, int]]:
        """The hands as card pairs (lower card first)."""
        pairs = list(_index())
        return [pairs[i] for i in self.hands]

    def size(self) -> Fraction:
        """The weighted number of hands (sum of weights)."""
        return sum(self.weights, Fraction(0))

    def without(self, cards: Any) -> Range:
        """The hands that share no card with ``cards`` (card removal: a board, dead cards, a known hand)."""
        out = set(parse_cards(cards))
        pairs = list(_index())
        keep = [(h, w) for h, w in zip(self.hands, self.weights, strict=True) if not out & set(pairs[h])]
        return Range(self.text, tuple(h for h, _ in keep), tuple(w for _, w in keep))

    def blocks(self) -> tuple[dict[int, Fraction], list[tuple[int, Fraction]]]:
        """(classes, singles): the classes all of whose combinations are in the range with one weight
        (class -> weight), and every other hand as (hand index, weight)."""
        weight = dict(zip(self.hands, self.weights, strict=True))
        classes: dict[int, Fraction] = {}
        singles = []
        for x in range(N_CLASSES):
            ws = {weight.get(h) for h in class_hands(x)}
            if len(ws) == 1 and None not in ws:
                classes[x] = ws.pop()
            else:
                singles.extend((h, weight[h]) for h in class_hands(x) if h in weight)
        return classes, singles

    def describe(self) -> str:
        """E.g. ``"34 hands"`` or ``"34 hands, weighted 26"``."""
        n, s = len(self), self.size()
        return f"{n} hand{'s' if n != 1 else ''}" + ("" if s == n else f", weighted {float(s):g}")


def _bad(text: str, token: str, why: str) -> ValueError:
    return ValueError(f"range {_short(text)}: {token!r} {why}")


def _short(text: str) -> str:
    return repr(text) if len(text) <= 60 else repr(text[:60]) + "..."


def _ranks(a: str, b: str) -> tuple[int, int]:
    """(higher, lower) rank indices 0..12 of two rank characters."""
    i, j = RANKS.index(a.upper()), RANKS.index(b.upper())
    return max(i, j), min(i, j)


def _classes(hi: int, lo: int, kind: str) -> list[int]:
    """Class indices of ranks hi > lo with kind "s", "o" or "" (both)."""
    return [class_index(hi, lo, s) for s in ((True,) if kind == "s" else (False,) if kind == "o" else (True, False))]


def _expand(text: str, token: str) -> list[int]:
    """The hand indices one token (without its weight) names."""
    low = token.lower()
    if low in ("random", "any"):
        return list(range(len(_index())))
    if _SPECIFIC.fullmatch(token):
        try:
            cards = parse_cards(token)
        except ValueError as exc:  # a card twice
            raise _bad(text, token, f"is not a hand: {exc}") from None
        return [hand_index(cards)]
    plus = token.endswith("+")
    body = token[:-1] if plus else token
    if "-" in body and not plus:
        first, _, last = body.partition("-")
        return _span(text, token, first, last)
    m = _CLASS.fullmatch(body)
    if not m:
        raise _bad(text, token, "is not a hand class, a span or a hand (e.g. 'QQ+', 'AKs', 'A2s+', '99-66', "
                                "'AsKs', 'AKs:0.5')")
    hi, lo = _ranks(m[1], m[2])
    kind = m[3].lower()
    if hi == lo:
        if kind:
            raise _bad(text, token, "is a pair, neither suited nor offsuit (write e.g. 'QQ' or 'QQ+')")
        ranks = range(hi, 13) if plus else (hi,)
        return [h for r in ranks for h in class_hands(class_index(r, r, False))]
    if not plus:
        steps = [(hi, lo)]
    elif hi - lo == 1:  # connectors: both ranks up, to AK
        steps = [(hi + d, lo + d) for d in range(13 - hi)]
    else:  # the lower rank up, to one below the higher
        steps = [(hi, r) for r in range(lo, hi)]
    return [h for a, b in steps for x in _classes(a, b, kind) for h in class_hands(x)]


def _span(text: str, token: str, first: str, last: str) -> list[int]:
    m1, m2 = _CLASS.fullmatch(first), _CLASS.fullmatch(last)
    if not (m1 and m2):
        raise _bad(text, token, "is not a span of classes (e.g. '99-66', 'A5s-A2s', 'T9s-65s')")
    (h1, l1), (h2, l2) = _ranks(m1[1], m1[2]), _ranks(m2[1], m2[2])
    k1, k2 = m1[3].lower(), m2[3].lower()
    if k1 != k2:
        raise _bad(text, token, "mixes suited, offsuit or pairs at its two ends")
    if (h1 == l1) != (h2 == l2):
        raise _bad(text, token, "mixes a pair and a non-pair")
    if h1 == l1:
        if k1:
            raise _bad(text, token, "is a span of pairs, neither suited nor offsuit (write e.g. '99-66')")
        return [h for r in range(min(h1, h2), max(h1, h2) + 1) for h in class_hands(class_index(r, r, False))]
    if h1 == h2:  # the same higher rank: the lower one moves
        steps = [(h1, r) for r in range(min(l1, l2), max(l1, l2) + 1)]
    elif h1 - l1 == h2 - l2:  # the same gap: both move
        d0, d1 = sorted((l1, l2))
        steps = [(r + (h1 - l1), r) for r in range(d0, d1 + 1)]
    else:
        raise _bad(text, token, "is not a span: its two ends share neither the higher rank nor the gap")
    return [h for a, b in steps for x in _classes(a, b, k1) for h in class_hands(x)]


def _weight(text: str, token: str, value: str) -> Fraction:
    if not _WEIGHT.fullmatch(value):
        raise _bad(text, token, "has a weight that is not a number in 0..1 (e.g. 'AKs:0.5')")
    digits = value.partition(".")[2]
    if len(digits.rstrip("0")) > MAX_WEIGHT_DIGITS:
        raise _bad(text, token, f"has a weight with more than {MAX_WEIGHT_DIGITS} digits after the point")
    return Fraction(value if value != "0." else "0")


def _tokens(text: str) -> list[str]:
    """The tokens of a range text; two cards apart (``"As Ah"``, ``"As, Ah:0.5"``) are one hand."""
    raw = [t for t in re.split(r"[,\s]+", text) if t]
    out = []
    i = 0
    while i < len(raw):
        if _CARD.fullmatch(raw[i]) and i + 1 < len(raw) and _CARD.fullmatch(raw[i + 1].partition(":")[0]):
            out.append(raw[i] + raw[i + 1])
            i += 2
            continue
        if _CARD.fullmatch(raw[i].partition(":")[0]):
            raise _bad(text, raw[i], "is one card: a hand is two (e.g. 'AsKs' or 'As Ks')")
        out.append(raw[i])
        i += 1
    return out


def parse_range(text: Any) -> Range:
    """The ``Range`` of a text in the notation above (or a ``Range``, returned as is); ValueError naming the
    token that is not understood, or an empty range."""
    if isinstance(text, Range):
        return text
    if not isinstance(text, str):
        raise ValueError(f"a range is text such as 'QQ+, AKs', got {type(text).__name__}")
    if len(text) > MAX_RANGE_TEXT:
        raise ValueError(f"a range of at most {MAX_RANGE_TEXT} characters, got {len(text)}")
    weights: dict[int, Fraction] = {}
    for token in _tokens(text):
        name, colon, value = token.partition(":")
        w = _weight(text, token, value) if colon else Fraction(1)
        if not name:
            raise _bad(text, token, "has a weight but no hands")
        for h in _expand(text, name):
            weights[h] = w
    kept = sorted(h for h, w in weights.items() if w > 0)
    if not kept:
        raise ValueError(f"range {_short(text)} holds no hand (give e.g. 'QQ+, AKs')")
    return Range(text.strip(), tuple(kept), tuple(weights[h] for h in kept))


def range_text(r: Range) -> str:
    """A canonical text of a range: its classes (with weights when not 1) and its other hands, e.g.
    ``"AA, KK, AKs:0.5, AsKd"``."""
    classes, singles = r.blocks()
    parts = [class_name(x) + ("" if w == 1 else f":{float(w):g}") for x, w in sorted(classes.items())]
    pairs = list(_index())
    parts += ["".join(card_text(c) for c in sorted(pairs[h], reverse=True)) + ("" if w == 1 else f":{float(w):g}")
              for h, w in singles]
    return ", ".join(parts)
