"""A question about a turn, checked once: ``ask`` resolves the rule set into its ``Plan`` (precomputed per rule set,
which every answer then only indexes), checks the dice, the rerolls, the sheet and the objective; ``decide`` and
``explain`` (``lookup.yahtzee.play``) hand it to the objective's own small function.

Objectives: "expected" (the best expected final score, ``lookup.yahtzee.play``), "goal" / "beat" (the best chance
of reaching a final score, of beating a known one: ``lookup.yahtzee.towin``), "opponent" (the best chance against
one opponent who plays for expected score: ``lookup.yahtzee.headsup``) and "players" (forced order, every player
playing to win: ``lookup.yahtzee.duel``, two or three players).


The checks are cheap (a decision costs a few microseconds): every input first gets its types checked exactly (only
``int`` and None pass the fast tests: a bool, a float or a numpy scalar compares and hashes equal to an int, so it
must never reach a table lookup keyed by ints). Anything unusual (numpy integers, box names with other spellings,
a Yahtzee bonus, ...) goes the slow way, through ``parse_dice`` / ``Sheet.parse``, which accept and refuse exactly
the same things.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, partial
from itertools import permutations
from pathlib import Path
from typing import Any

from lookup.validate import integer, shown
from lookup.yahtzee.rules import DEFAULT_RULES, RULE_SETS, UPPER, Rules
from lookup.yahtzee.sheet import BONUS_KEY, Sheet, SheetLike, parse_dice, possible_points

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
    roll_of[sorted pips] = roll index; perm_of[order] = permutation id (the order that sorts the dice);
    check_dice(dice) / check_sheet(sheet): the slow, worded checks (``parse_dice``, ``Sheet.parse``) bound to
    the rules: the rule set is resolved once, here, and then only indexed.
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
    roll_of: dict[tuple[int, ...], int]
    perm_of: dict[tuple[int, ...], int]
    check_dice: Callable[[Any], tuple[int, ...]]
    check_sheet: Callable[[Any], Sheet]


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


class _Plans(dict):
    """The plan of each rule set, by name or by ``Rules``, built on first use and rebuilt when the name now stands
    for other rules (a rule set registered again). It lists the rule sets' names: what ``by_name`` says of an
    unknown one."""

    def __getitem__(self, key: str | Rules) -> Plan:
        hit = dict.get(self, key)
        if hit is None or (type(key) is str and hit.rules is not RULE_SETS.get(key)):
            hit = self[key] = _plan(key if isinstance(key, Rules) else RULE_SETS[key])
        return hit

    def __iter__(self) -> Iterator[str]:
        return iter(RULE_SETS)


PLANS = _Plans()


def plan_of(rules: str | Rules) -> Plan:
    """The rule set ``rules`` (a name or a ``Rules``) resolved once into its ``Plan``, which every answer then only
    indexes; ValueError naming an unknown rule set."""
    try:
        return PLANS[rules]
    except (KeyError, TypeError):
        raise ValueError(f"unknown Yahtzee rule set {shown(rules)}; known: {', '.join(RULE_SETS)}") from None


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
                rules.yahtzee_index, rules.yahtzee_points,
                {tuple(int(f) + 1 for f in faces): i for i, faces in enumerate(enc.rolls)},
                {order: i for i, order in enumerate(orders)}, partial(parse_dice, rules=rules),
                partial(Sheet.parse, rules=rules))


def roll(dice: Any, p: Plan) -> tuple[tuple[int, ...], int, int]:
    """(pips, roll index, permutation id) of ``dice``; ValueError (from ``parse_dice``) when invalid."""
    if type(dice) is list or type(dice) is tuple:
        key = tuple(dice)
        hit = p.dice.get(key) if _INT_ONLY(map(type, key)) else None
        if hit is not None:
            return hit
    pips = p.check_dice(dice)  # raises on anything invalid
    hit = p.dice.get(pips)
    if hit is None:
        hit = p.dice[pips] = (pips, p.roll_of[tuple(sorted(pips))],
                              p.perm_of[tuple(sorted(range(len(pips)), key=pips.__getitem__))])
    return hit


def sheet_state(sheet: Any, p: Plan) -> tuple[tuple[int, int, int], int]:
    """((filled_mask, upper capped, ybox), total points) of a valid, unfinished sheet; ValueError
    otherwise (the messages of ``Sheet.parse``)."""
    kind = type(sheet)
    if not p.sheets:
        return _slow(sheet, p)
    yi = p.yahtzee_index
    if kind is dict:
        bonus = sheet.get(BONUS_KEY, 0)
        if (not p.known_keys.issuperset(sheet) or type(bonus) is not int or bonus
                or not _INT_OR_NONE(map(type, sheet.values()))):
            return _slow(sheet, p)
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
            return _slow(sheet, p)
        values = boxes
        yahtzee = boxes[yi] if yi >= 0 else None
    try:
        fields = sum(map(dict.get, p.bits, values))  # a value the box cannot hold gets None: TypeError
    except TypeError:
        return _slow(sheet, p)
    mask = fields & _FIELD
    if mask == p.all_filled:
        raise ValueError("the sheet is finished: every box is filled, there is nothing to decide")
    total = fields >> TOTAL_AT & _FIELD
    upper = fields >> UPPER_AT
    if upper >= p.threshold:
        total += p.upper_bonus
        upper = p.threshold
    return (mask, upper, 1 if yahtzee == p.yahtzee_points else 0), total


def _slow(sheet: Any, p: Plan) -> tuple[tuple[int, int, int], int]:
    sh = p.check_sheet(sheet)  # the same checks, worded
    if sh.finished:
        raise ValueError("the sheet is finished: every box is filled, there is nothing to decide")
    return sh.state, sh.total



MAX_TARGET = 100_000  # a goal or a score to beat, in points: beyond any sheet (a hasbro game scores at most 1575)


@dataclass(frozen=True)
class Objective:
    """What a player plays for: ``kind`` (see the module docstring), ``target`` (goal / beat: a final score) or
    ``sheets`` (opponent: the opponent's sheet; players: the others' sheets in turn order after the mover)."""

    kind: str
    target: int | None = None
    sheets: tuple[SheetLike, ...] = ()


EXPECTED = Objective("expected")


def objective_of(goal: Any = None, beat: Any = None, opponent: Any = None, opponents: Any = None) -> Objective:
    """The one objective the arguments name (none: expected score); ValueError for two at once or a bad one."""
    given = [name for name, v in (("goal", goal), ("beat", beat), ("opponent", opponent), ("opponents", opponents))
             if v is not None]
    if len(given) > 1:
        raise ValueError(f"give one objective, not {' and '.join(given)}: goal (a final score to reach), beat (an "
                         "opponent's known final score), opponent (a sheet: an opponent who plays for expected "
                         "score) or opponents (sheets: players who all play to win, forced order)")
    if goal is not None:
        return Objective("goal", integer(goal, "goal", -MAX_TARGET, MAX_TARGET))
    if beat is not None:
        return Objective("beat", integer(beat, "beat", -MAX_TARGET, MAX_TARGET))
    if opponent is not None:
        return Objective("opponent", sheets=(opponent,))
    if opponents is not None:
        if isinstance(opponents, str | bytes | dict) or not isinstance(opponents, Sequence):
            raise ValueError(f"opponents must be a list of sheets (one per opponent), got {type(opponents).__name__}")
        if len(opponents) not in (1, 2):
            raise ValueError(f"the tables of play between players are for 2 or 3 players: give 1 or 2 opponent "
                             f"sheets, got {len(opponents)}")
        return Objective("players", sheets=tuple(opponents))
    return EXPECTED


@dataclass(frozen=True, eq=False)
class Question:
    """A checked question: the plan, the dice (``pips`` in the player's order, ``roll`` their index, ``perm`` the
    permutation that sorts them), the rerolls left, the sheet as given and its turn-start ``state`` and points
    ``total``, the objective and the artifacts directory."""

    plan: Plan
    pips: tuple[int, ...]
    roll: int
    perm: int
    rerolls: int
    sheet: SheetLike
    state: tuple[int, int, int]
    total: int
    objective: Objective
    artifacts_dir: str | Path | None

    @property
    def rules(self) -> Rules:
        return self.plan.rules


def ask(dice: Sequence[int], rerolls: int, sheet: SheetLike, rules: str | Rules = DEFAULT_RULES, *,
        artifacts_dir: str | Path | None = None, goal: Any = None, beat: Any = None, opponent: Any = None,
        opponents: Any = None) -> Question:
    """The question of ``lookup.yahtzee.decide``'s arguments, checked: ValueError naming the first bad one (the
    objective, the dice, the rerolls, the sheet)."""
    objective = objective_of(goal, beat, opponent, opponents)
    plan = plan_of(rules)
    pips, index, perm = roll(dice, plan)
    if type(rerolls) is not int or not 0 <= rerolls <= 2:
        rerolls = integer(rerolls, "rerolls", 0, 2)
    state, total = sheet_state(sheet, plan)
    return Question(plan, pips, index, perm, rerolls, sheet, state, total, objective, artifacts_dir)
