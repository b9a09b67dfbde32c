"""The cheap validation behind ``decide()``: the same checks as ``parse_dice`` and ``Sheet.parse``, done
with precomputed tables and C-level iteration for the common input forms, so that a decision costs a few
microseconds.

Every input first gets its types checked exactly (only ``int`` and None pass the fast tests: a bool, a
float or a numpy scalar compares and hashes equal to an int, so it must never reach a table lookup keyed
by ints). Anything unusual (numpy integers, box names with other spellings, a Yahtzee bonus, ...) goes
the slow way, through ``parse_dice`` / ``Sheet.parse``, which accept and refuse exactly the same things.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import permutations
from typing import Any

from lookup.yahtzee.rules import UPPER, Rules, get_rules
from lookup.yahtzee.sheet import BONUS_KEY, Sheet, parse_dice, possible_points

# Bit fields of the sums of ``Plan.bits`` values: the filled mask below TOTAL_AT (at most 20 boxes), the
# points, then the upper boxes' points (each far below 2^20).
TOTAL_AT, UPPER_AT = 20, 40
_FIELD = (1 << 20) - 1
_INT_ONLY = frozenset({int}).issuperset
_INT_OR_NONE = frozenset({int, type(None)}).issuperset


@dataclass(frozen=True, eq=False)
class Plan:
    """Precomputed per rule set.

    dice[pips tuple] = (pips, roll index, permutation id): the ordered rolls seen so far, with the permutation
        that sorts it (filled on first use: six dice have 46,656 ordered rolls, built ahead in about half a
        second); reroll[perm][mask] = the sorted-dice mask as one bool per INPUT die (also filled on first use).
    keep[roll][mask] = (keep index, kept faces as pips) of rerolling ``mask`` of sorted roll ``roll``.
    bits[c] = {points box c may hold: (1 << c) | points << TOTAL_AT | (points << UPPER_AT if c is an upper
        box)} plus {None: 0} (empty): the sum over the boxes checks every value and gives the filled
        mask, the total and the upper total at once.
    known_keys: the box names and the Yahtzee-bonus key a mapping sheet may use.
    sheets: False when sheets always go the slow way (boxes filled in a forced order: ``Sheet.parse``
        checks the order).
    name, categories, n_upper (upper totals 0..threshold), n_boxes, all_filled, threshold, upper_bonus
    (the one the optimisation counts), yahtzee_index, yahtzee_points: the ``Rules`` properties a decision
    needs, computed once (some of them scan the box list).
    """

    rules: Rules
    dice: dict[tuple[int, ...], tuple[tuple[int, ...], int, int]]
    reroll: _PerPermutation
    keep: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
    bits: tuple[dict[int | None, int], ...]
    n_rolls: int
    known_keys: frozenset[str]
    sheets: bool
    name: str
    categories: tuple[str, ...]
    n_upper: int
    n_boxes: int
    all_filled: int
    threshold: int
    upper_bonus: int
    yahtzee_index: int
    yahtzee_points: int


class _PerPermutation(dict):
    """``[perm][mask]``: the sorted-dice reroll ``mask`` as one bool per input die, for the permutation
    ``perm`` (an index into ``orders``) that sorts the input dice; each permutation's row built on first use."""

    def __init__(self, orders: list[tuple[int, ...]]) -> None:
        super().__init__()
        self.orders = orders

    def __missing__(self, perm: int) -> tuple[tuple[bool, ...], ...]:
        order, n = self.orders[perm], len(self.orders[perm])
        row = []
        for mask in range(1 << n):
            out = [False] * n
            for i, pos in enumerate(order):
                out[pos] = bool((mask >> i) & 1)
            row.append(tuple(out))
        self[perm] = row = tuple(row)
        return row


_plans: dict[str, Plan] = {}


def plan(rules: Rules) -> Plan:
    """The tables of ``rules`` (built once, on first use; then a dict lookup: hashing a Rules costs
    more than the rest of the check)."""
    hit = _plans.get(rules.name)
    if hit is None or hit.rules is not rules:
        hit = _plans[rules.name] = _plan(rules)
    return hit


def plan_of(rules: str | Rules) -> Plan:
    """``plan(get_rules(rules))``: a rule-set name is one dict lookup once seen (names are fixed)."""
    if type(rules) is str:
        hit = _named.get(rules)
        if hit is None:
            hit = _named[rules] = plan(get_rules(rules))
        return hit
    return plan(get_rules(rules))


_named: dict[str, Plan] = {}


@cache
def _plan(rules: Rules) -> Plan:
    enc = rules.encoding
    orders = list(permutations(range(rules.n_dice)))
    keep = tuple(
        tuple((int(k), tuple(int(f) + 1 for f in enc.keeps[k])) for k in enc.keep_of_mask[roll])
        for roll in range(enc.n_rolls)
    )
    bits = tuple({**{v: 1 << c | v << TOTAL_AT | (v << UPPER_AT if c < UPPER else 0) for v in p}, None: 0}
                 for c, p in enumerate(possible_points(rules)))
    return Plan(rules, {}, _PerPermutation(orders), keep, bits, enc.n_rolls, frozenset((*rules.categories, BONUS_KEY)),
                not rules.forced_order, rules.name, tuple(rules.categories), rules.upper_threshold + 1,
                rules.n_boxes, rules.all_filled, rules.upper_threshold, rules.optimised_upper_bonus,
                rules.yahtzee_index, rules.yahtzee_points)


def roll(dice: Any, p: Plan) -> tuple[tuple[int, ...], int, int]:
    """(pips, roll index, permutation id) of ``dice``; ValueError (from ``parse_dice``) when invalid."""
    if type(dice) is list or type(dice) is tuple:
        key = tuple(dice)
        hit = p.dice.get(key) if _INT_ONLY(map(type, key)) else None
        if hit is not None:
            return hit
    pips = parse_dice(dice, p.rules)  # raises on anything invalid
    hit = p.dice.get(pips)
    if hit is None:
        hit = p.dice[pips] = (pips, _roll_of(p.rules)[tuple(sorted(pips))],
                              _perm_of(p.rules.n_dice)[tuple(sorted(range(len(pips)), key=pips.__getitem__))])
    return hit


@cache
def _roll_of(rules: Rules) -> dict[tuple[int, ...], int]:
    """Roll index of each sorted roll (pips)."""
    return {tuple(int(f) + 1 for f in faces): i for i, faces in enumerate(rules.encoding.rolls)}


@cache
def _perm_of(n_dice: int) -> dict[tuple[int, ...], int]:
    """Index of each permutation of the dice positions (the order ``_PerPermutation`` uses)."""
    return {order: i for i, order in enumerate(permutations(range(n_dice)))}


def sheet_state(sheet: Any, p: Plan) -> tuple[tuple[int, int, int], int]:
    """((filled_mask, upper capped, ybox), total points) of a valid, unfinished sheet; ValueError
    otherwise (the messages of ``Sheet.parse``)."""
    kind = type(sheet)
    if not p.sheets:
        return _slow(sheet, p.rules)
    yi = p.yahtzee_index
    if kind is dict:
        bonus = sheet.get(BONUS_KEY, 0)
        if (not p.known_keys.issuperset(sheet) or type(bonus) is not int or bonus
                or not _INT_OR_NONE(map(type, sheet.values()))):
            return _slow(sheet, p.rules)
        values: Any = map(sheet.get, p.categories)
        yahtzee = sheet.get(p.categories[yi]) if yi >= 0 else None
    else:
        if kind is list or kind is tuple:
            boxes = sheet if len(sheet) == p.n_boxes else None
        elif kind is Sheet and sheet.rules is p.rules and type(sheet.yahtzee_bonus) is int and not sheet.yahtzee_bonus:
            boxes = sheet.boxes
        else:
            boxes = None
        if boxes is None or not _INT_OR_NONE(map(type, boxes)):
            return _slow(sheet, p.rules)
        values = boxes
        yahtzee = boxes[yi] if yi >= 0 else None
    try:
        fields = sum(map(dict.get, p.bits, values))  # a value the box cannot hold gets None: TypeError
    except TypeError:
        return _slow(sheet, p.rules)
    mask = fields & _FIELD
    if mask == p.all_filled:
        raise ValueError("the sheet is finished: every box is filled, there is nothing to decide")
    total = fields >> TOTAL_AT & _FIELD
    upper = fields >> UPPER_AT
    if upper >= p.threshold:
        total += p.upper_bonus
        upper = p.threshold
    return (mask, upper, 1 if yahtzee == p.yahtzee_points else 0), total


def _slow(sheet: Any, rules: Rules) -> tuple[tuple[int, int, int], int]:
    sh = Sheet.parse(sheet, rules)
    if sh.finished:
        raise ValueError("the sheet is finished: every box is filled, there is nothing to decide")
    return sh.state, sh.total
