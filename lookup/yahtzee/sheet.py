"""The Yahtzee score sheet: parsing, validation, scoring moves, totals, bonuses and the Joker.

A ``Sheet`` is what a player sees: the points in each filled box plus the Yahtzee bonus points earned so
far. It maps onto the solver's turn-start state ``(filled_mask, upper, ybox)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from lookup.validate import integer, integer_sequence, is_integer, shown
from lookup.yahtzee.rules import (
    UPPER,
    Rules,
    box_outcome_n,
    get_rules,
    scoring_options_n,
    scoring_tables,
)

SheetLike = Any  # Sheet | Mapping[str, int | None] | Sequence[int | None]
BONUS_KEY = "yahtzee_bonus"


@cache
def possible_points(rules: Rules) -> tuple[frozenset[int], ...]:
    """For each box, every number of points it can hold under ``rules`` (normal or Joker scoring)."""
    st = scoring_tables(rules)
    return tuple(frozenset(np.unique(np.concatenate([st.score[:, c], st.joker_score[:, c]])).tolist())
                 for c in range(rules.n_boxes))


def parse_dice(dice: Sequence[int], rules: Rules) -> tuple[int, ...]:
    """The dice as a tuple of pips; ValueError on a wrong count, a face outside 1..n_faces, or anything
    but a list, tuple or 1-d array of integers (``lookup.validate``)."""
    return integer_sequence(dice, "dice", rules.n_dice, 1, rules.n_faces)


def category_index(name: str | int, rules: Rules | str) -> int:
    """Index of a box of ``rules`` given by name (sheet order) or index; ValueError for anything else."""
    categories = get_rules(rules).categories
    if type(name) is str and name in categories:
        return categories.index(name)
    if is_integer(name):
        if 0 <= name < len(categories):
            return int(name)
        raise ValueError(f"category index {name} outside 0..{len(categories) - 1}")
    if isinstance(name, str):
        key = name.strip().lower().replace(" ", "_").replace("-", "_")
        if key in categories:
            return categories.index(key)
    raise ValueError(f"unknown category {shown(name)}; categories: {', '.join(categories)}")


@dataclass
class Sheet:
    """A score sheet: ``boxes[c]`` points or None (sheet order), and Yahtzee bonus points earned.

    Totals follow the rules: the upper bonus is paid once the upper total reaches the threshold (unless
    the rule set ignores it), and ``yahtzee_bonus`` counts the +100s of further Yahtzees.
    """

    boxes: list[int | None]
    rules: Rules
    yahtzee_bonus: int = 0

    @classmethod
    def empty(cls, rules: Rules | str) -> Sheet:
        """A sheet with every box open."""
        rules = get_rules(rules)
        return cls([None] * rules.n_boxes, rules)

    @classmethod
    def parse(cls, sheet: SheetLike, rules: Rules | str) -> Sheet:
        """A validated Sheet from a Sheet, a mapping name -> points/None (plus optional
        ``yahtzee_bonus``), or a list in sheet order (one entry per box of ``rules``) with None for empty
        boxes."""
        rules = get_rules(rules)
        if isinstance(sheet, Sheet):
            if sheet.rules != rules:
                raise ValueError(f"sheet is for rules {sheet.rules.name!r}, asked for {rules.name!r}")
            boxes, bonus = list(sheet.boxes), sheet.yahtzee_bonus
        elif isinstance(sheet, Mapping):
            boxes, bonus = [None] * rules.n_boxes, 0
            for key, points in sheet.items():
                if key == BONUS_KEY:
                    bonus = 0 if points is None else points
                    continue
                boxes[category_index(key, rules)] = points
        elif isinstance(sheet, Sequence) and not isinstance(sheet, str | bytes):
            if len(sheet) != rules.n_boxes:
                raise ValueError(f"a {rules.name} sheet list has {rules.n_boxes} entries in sheet order, "
                                 f"got {len(sheet)}")
            boxes, bonus = list(sheet), 0
        else:
            raise ValueError(f"sheet must be a Sheet, a mapping or a {rules.n_boxes}-list, got {type(sheet).__name__}")
        possible = possible_points(rules)
        out = cls(boxes=[_points(b, c, rules, possible) for c, b in enumerate(boxes)], rules=rules)
        out.yahtzee_bonus = out._check_bonus(bonus)
        return out

    def _check_bonus(self, bonus: Any) -> int:
        if not is_integer(bonus):
            raise ValueError(f"{BONUS_KEY} must be whole points, got {shown(bonus)}")
        step = self.rules.yahtzee_bonus
        if bonus < 0 or (bonus and (not step or bonus % step)):
            raise ValueError(f"{BONUS_KEY} {bonus} is not a multiple of {step} under {self.rules.name!r}")
        if bonus and self.boxes[self.rules.yahtzee_index] != self.rules.yahtzee_points:
            raise ValueError(f"{BONUS_KEY} {bonus} needs {self.rules.yahtzee_points} in the Yahtzee box")
        filled = sum(b is not None for b in self.boxes)
        if bonus and bonus // step > filled - 1:
            raise ValueError(f"{BONUS_KEY} {bonus} needs more filled boxes than {filled}")
        return int(bonus)

    # --- the solver's view ---
    @property
    def filled_mask(self) -> int:
        return sum(1 << c for c, b in enumerate(self.boxes) if b is not None)

    @property
    def upper_total(self) -> int:
        """Points in the upper boxes (not capped)."""
        return sum(b for b in self.boxes[:UPPER] if b is not None)

    @property
    def state(self) -> tuple[int, int, int]:
        """(filled_mask, upper total capped at the threshold, 1 if the Yahtzee box holds 50)."""
        yi = self.rules.yahtzee_index
        ybox = int(yi >= 0 and self.boxes[yi] == self.rules.yahtzee_points)
        return self.filled_mask, min(self.upper_total, self.rules.upper_threshold), ybox

    @property
    def finished(self) -> bool:
        return self.filled_mask == self.rules.all_filled

    @property
    def upper_bonus(self) -> int:
        """The upper bonus as the rule set's optimisation counts it (0 for ``seed``)."""
        reached = self.upper_total >= self.rules.upper_threshold
        return self.rules.optimised_upper_bonus if reached else 0

    @property
    def total(self) -> int:
        """Points so far: boxes, upper bonus (as the rules count it) and Yahtzee bonuses."""
        return sum(b for b in self.boxes if b is not None) + self.upper_bonus + self.yahtzee_bonus

    def allowed(self, dice: Sequence[int]) -> dict[str, int]:
        """Boxes the final ``dice`` may be scored in (Joker rules applied), with the box points."""
        if self.finished:
            raise ValueError("the sheet is finished: every box is filled")
        pips = parse_dice(dice, self.rules)
        st = scoring_tables(self.rules)
        roll = self.rules.encoding.roll_index(sorted(p - 1 for p in pips))
        r = self.rules
        allowed, use_joker = scoring_options_n(r.joker_code, self.filled_mask, int(st.yahtzee_face[roll]),
                                               r.all_filled, r.yahtzee_index, int(r.forced_order))
        points = st.joker_score[roll] if use_joker else st.score[roll]
        return {r.categories[c]: int(points[c]) for c in range(r.n_boxes) if (allowed >> c) & 1}

    def score(self, category: str | int, dice: Sequence[int]) -> int:
        """Score ``dice`` in ``category`` (in place); returns the points earned, bonuses included."""
        c = category_index(category, self.rules)
        name = self.rules.categories[c]
        options = self.allowed(dice)
        if name not in options:
            rule = "forced order" if self.rules.forced_order else "Joker rule"
            why = "is filled" if self.boxes[c] is not None else f"may not be used ({rule})"
            raise ValueError(f"box {name} {why}; allowed: {', '.join(options)}")
        pips = parse_dice(dice, self.rules)
        mask, upper, ybox = self.state
        five_alike = int(len(set(pips)) == 1)
        reward, _, _ = box_outcome_n(c, options[name], upper, ybox, five_alike,
                                     self.rules.upper_threshold, self.rules.optimised_upper_bonus,
                                     self.rules.yahtzee_bonus, self.rules.yahtzee_index)
        self.boxes[c] = options[name]
        self.yahtzee_bonus += self.rules.yahtzee_bonus if five_alike and ybox else 0
        return reward

    def to_dict(self) -> dict[str, int | None]:
        """Mapping form: box name -> points or None, plus ``yahtzee_bonus``."""
        return {**dict(zip(self.rules.categories, self.boxes, strict=True)), BONUS_KEY: self.yahtzee_bonus}


def _points(points: Any, category: int, rules: Rules, possible: tuple[frozenset[int], ...]) -> int | None:
    if points is None:
        return None
    if type(points) is int and points in possible[category]:
        return points
    points = integer(points, f"box {rules.categories[category]}")
    if points not in possible[category]:
        raise ValueError(f"box {rules.categories[category]} cannot hold {points} points under {rules.name!r}")
    return points
