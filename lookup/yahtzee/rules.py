"""Yahtzee rules as data (stated in docs/yahtzee.md): the rule sets, the score of a roll in a box, Joker rules.

A rule set names its list of boxes (``Box``: a scoring kind with parameters), its upper threshold and
bonus, its Joker and Yahtzee-bonus rules and whether boxes are filled in sheet order. American rule sets
(``hasbro`` ...) use the 13 boxes of ``CATEGORIES``; Scandinavian Yatzy (``scandinavian`` and its
variants ``+fh5``, ``+tp4``, ``+forced``, named like the PyPI package ``yatzy-solver``) uses 15.

This module is the single definition of every rule. The numba kernels in ``pipeline.yahtzee`` use the
precomputed tables of :func:`scoring_tables` and compile the plain-integer helpers
:func:`scoring_options` and :func:`box_outcome` with ``numba.njit``; the query API calls the same
functions directly. Keep those two helpers numba-compatible (ints and bit operations only).

Conventions: boxes are numbered in sheet order (``Rules.categories``; ``CATEGORIES`` are the American
ones); the first ``n_faces`` boxes are the upper boxes, box ``f`` scoring face ``f``; a *filled mask* is an
``n_boxes``-bit integer, bit ``c`` set when box ``c`` is filled; faces are 0-based in the encodings (face ``f`` shows
``f + 1`` pips); all scores are in points.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from functools import cache
from typing import Any

import numpy as np

from lookup.naming import by_name
from lookup.yahtzee.encoding import DiceEncoding, get_encoding

__all__ = [
    "CATEGORIES", "N_CATEGORIES", "UPPER", "THREE_OF_A_KIND", "FOUR_OF_A_KIND", "FULL_HOUSE",
    "SMALL_STRAIGHT", "LARGE_STRAIGHT", "YAHTZEE", "CHANCE", "ALL_FILLED", "UPPER_MASK", "LOWER_MASK",
    "JOKER_CODES", "Box", "BOX_KINDS", "AMERICAN_BOXES", "SCANDINAVIAN_BOXES", "scandinavian_boxes", "Rules",
    "RULE_SETS", "DEFAULT_RULES", "get_rules", "ScoringTables", "scoring_tables", "scoring_options",
    "box_outcome", "score_roll", "score_box", "scoring_options_n", "box_outcome_n", "kernel_params",
    "MAX_SAVED_ROLLS",
]

CATEGORIES: tuple[str, ...] = (
    "ones", "twos", "threes", "fours", "fives", "sixes",
    "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight",
    "yahtzee", "chance",
)
N_CATEGORIES = 13
UPPER = 6  # categories 0..5 are the upper boxes, category f scores face f
THREE_OF_A_KIND, FOUR_OF_A_KIND, FULL_HOUSE = 6, 7, 8
SMALL_STRAIGHT, LARGE_STRAIGHT, YAHTZEE, CHANCE = 9, 10, 11, 12
ALL_FILLED = (1 << N_CATEGORIES) - 1
UPPER_MASK = (1 << UPPER) - 1
LOWER_MASK = ALL_FILLED & ~UPPER_MASK

# Joker modes as the small integers the kernels take.
JOKER_NONE, JOKER_FORCED, JOKER_FREE = 0, 1, 2
JOKER_CODES = {"none": JOKER_NONE, "forced": JOKER_FORCED, "free": JOKER_FREE}
# Saved rolls a rule set may carry (``Rules.saved_rolls_cap``): each one more adds a copy of the state space.
MAX_SAVED_ROLLS = 8


BOX_KINDS = ("upper", "of_a_kind", "pairs", "straight", "full_house", "chance", "yatzy")


@dataclass(frozen=True)
class Box:
    """One box of a sheet: a scoring kind and its parameters (points are 0 when the roll does not fit).

    kind / parameters:

    * ``upper``: ``face`` (1..n_faces) times the number of dice showing it.
    * ``of_a_kind``: ``n`` alike; ``points`` = ``"total"`` scores the sum of all dice (American),
      ``"kind"`` the sum of the ``n`` alike dice only, the highest such face (Scandinavian).
    * ``pairs``: ``n`` pairs of different faces (1 = one pair: the highest; 2 = two pairs), scoring the sum
      of the paired dice; ``four_as_two`` lets four alike count as two pairs (``tp4``).
    * ``straight``: ``n`` consecutive faces; ``lowest`` > 0 requires the run to start at that face
      (Scandinavian 1-2-3-4-5 / 2-3-4-5-6), 0 accepts any run; scores ``fixed``.
    * ``full_house``: ``parts`` = (3, 2) three of one face and two of another ((3, 3) villa, (4, 2) tower:
      Maxi Yatzy); scores ``fixed``, or when ``fixed`` is 0 the sum of those dice (the best such choice of
      faces: with six dice a full house counts five of them); ``five_alike`` lets five alike count too
      (``fh5``).
    * ``chance``: the sum. ``yatzy``: all dice alike, scores ``fixed``.

    Under a Joker, ``full_house`` and ``straight`` boxes score ``fixed`` for five alike.
    """

    name: str
    kind: str
    face: int = 0
    n: int = 0
    points: str = "total"
    lowest: int = 0
    fixed: int = 0
    four_as_two: bool = False
    five_alike: bool = False
    parts: tuple[int, int] = (3, 2)

    def __post_init__(self) -> None:
        if self.kind not in BOX_KINDS:
            raise ValueError(f"box kind must be one of {', '.join(BOX_KINDS)}, not {self.kind!r}")
        if self.points not in ("total", "kind"):
            raise ValueError(f"box points must be 'total' or 'kind', not {self.points!r}")
        object.__setattr__(self, "parts", tuple(self.parts))
        if len(self.parts) != 2 or not all(type(p) is int and p >= 1 for p in self.parts):
            raise ValueError(f"box parts must be two counts of dice (e.g. (3, 2)), not {self.parts!r}")

    def to_dict(self) -> dict[str, Any]:
        """The parameters that differ from the defaults (JSON-able: ``parts`` as a list)."""
        default = Box(self.name, self.kind)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()
                if k in ("name", "kind") or v != getattr(default, k)}


def _upper_boxes(names: tuple[str, ...]) -> tuple[Box, ...]:
    return tuple(Box(n, "upper", face=f + 1) for f, n in enumerate(names))


AMERICAN_BOXES: tuple[Box, ...] = _upper_boxes(CATEGORIES[:UPPER]) + (
    Box("three_of_a_kind", "of_a_kind", n=3),
    Box("four_of_a_kind", "of_a_kind", n=4),
    Box("full_house", "full_house", fixed=25),
    Box("small_straight", "straight", n=4, fixed=30),
    Box("large_straight", "straight", n=5, fixed=40),
    Box("yahtzee", "yatzy", fixed=50),
    Box("chance", "chance"),
)


def scandinavian_boxes(fh5: bool = False, tp4: bool = False) -> tuple[Box, ...]:
    """The 15 boxes of Scandinavian Yatzy; ``fh5`` / ``tp4`` are the variants' box rules."""
    return _upper_boxes(CATEGORIES[:UPPER]) + (
        Box("one_pair", "pairs", n=1),
        Box("two_pairs", "pairs", n=2, four_as_two=tp4),
        Box("three_of_a_kind", "of_a_kind", n=3, points="kind"),
        Box("four_of_a_kind", "of_a_kind", n=4, points="kind"),
        Box("small_straight", "straight", n=5, lowest=1, fixed=15),
        Box("large_straight", "straight", n=5, lowest=2, fixed=20),
        Box("full_house", "full_house", five_alike=fh5),
        Box("chance", "chance"),
        Box("yatzy", "yatzy", fixed=50),
    )


SCANDINAVIAN_BOXES = scandinavian_boxes()

# Maxi Yatzy: six dice, 20 boxes (docs/yahtzee.md, "Maxi Yatzy").
MAXI_BOXES: tuple[Box, ...] = _upper_boxes(CATEGORIES[:UPPER]) + (
    Box("one_pair", "pairs", n=1),
    Box("two_pairs", "pairs", n=2),
    Box("three_pairs", "pairs", n=3),
    Box("three_of_a_kind", "of_a_kind", n=3, points="kind"),
    Box("four_of_a_kind", "of_a_kind", n=4, points="kind"),
    Box("five_of_a_kind", "of_a_kind", n=5, points="kind"),
    Box("small_straight", "straight", n=5, lowest=1, fixed=15),
    Box("large_straight", "straight", n=5, lowest=2, fixed=20),
    Box("full_straight", "straight", n=6, lowest=1, fixed=21),
    Box("full_house", "full_house"),
    Box("villa", "full_house", parts=(3, 3)),
    Box("tower", "full_house", parts=(4, 2)),
    Box("chance", "chance"),
    Box("maxi_yatzy", "yatzy", fixed=100),
)


@dataclass(frozen=True)
class Rules:
    """One Yahtzee rule set (immutable, hashable). All amounts are points.

    boxes: the sheet, in order (``Box``); None for the American sheet built from ``full_house_score``,
        ``small_straight_score``, ``large_straight_score`` and ``yahtzee_score``. ``categories`` are the
        box names (derived).
    joker: ``"forced"`` (Hasbro: a Yahtzee rolled while the Yahtzee box is filled, with 50 or 0, must go
        in the matching upper box if open, else any open lower box at Joker values, else a zero in an open
        upper box), ``"free"`` (Verhoeff: only when both the Yahtzee box and the matching upper box are
        filled may the Yahtzee be scored in any open box, lower boxes at Joker values; otherwise normal
        scoring) or ``"none"`` (a Yahtzee always scores normally).
    yahtzee_bonus: points for each further Yahtzee rolled while the Yahtzee box holds 50 (0 = no bonus).
    bonus_in_optimisation: False when the solver must ignore the upper bonus (``seed``); the value
        tables then exclude it, although a real game still pays it.
    joker_scores: the Joker values of full house, small and large straight (others score the sum).
    forced_order: boxes must be filled in sheet order (Scandinavian ``forced``).
    saved_rolls_cap: rolls a turn leaves unused are saved for later turns, at most this many (Swedish Maxi
        Yatzy, ``+savedN``; 0 = none, every other rule set). A turn that starts with s saved rolls has
        3 + s rolls; choosing a box with j rerolls unused carries min(j, cap) into the next turn. The state
        then has a fourth field, s; only ``pipeline.yahtzee.saved`` solves such rule sets.
    """

    name: str
    description: str = ""
    n_dice: int = 5
    n_faces: int = 6
    categories: tuple[str, ...] = CATEGORIES
    upper_threshold: int = 63
    upper_bonus: int = 35
    yahtzee_bonus: int = 100
    joker: str = "forced"
    bonus_in_optimisation: bool = True
    full_house_score: int = 25
    small_straight_score: int = 30
    large_straight_score: int = 40
    yahtzee_score: int = 50
    joker_scores: tuple[int, int, int] = field(default=(25, 30, 40))
    boxes: tuple[Box, ...] | None = None
    forced_order: bool = False
    saved_rolls_cap: int = 0

    def __post_init__(self) -> None:
        if self.joker not in JOKER_CODES:
            raise ValueError(f"joker must be one of {sorted(JOKER_CODES)}, not {self.joker!r}")
        if self.boxes is None:
            if self.categories != CATEGORIES:
                raise ValueError("the American categories are fixed (CATEGORIES, sheet order); give boxes")
            if tuple(self.joker_scores) != (self.full_house_score, self.small_straight_score,
                                            self.large_straight_score):
                raise ValueError("joker_scores must equal the full house and straight scores")
            object.__setattr__(self, "boxes", self._american_boxes())
        else:
            object.__setattr__(self, "boxes", tuple(self.boxes))
            object.__setattr__(self, "categories", tuple(b.name for b in self.boxes))
        if self.n_faces != UPPER:
            raise ValueError("the upper section has one box per face: n_faces must be 6")
        if tuple((b.kind, b.face) for b in self.boxes[:UPPER]) != tuple(("upper", f + 1) for f in range(UPPER)):
            raise ValueError("the first n_faces boxes must be the upper boxes in face order")
        if any(b.kind == "upper" for b in self.boxes[UPPER:]) or len(set(self.categories)) != len(self.boxes):
            raise ValueError("box names must be distinct and only the first n_faces boxes upper boxes")
        if sum(b.kind == "yatzy" for b in self.boxes) > 1 or len(self.boxes) > 20:
            raise ValueError("at most one yatzy box and 20 boxes")
        if self.joker != "none" and self.yahtzee_index < 0:
            raise ValueError("a Joker rule needs a yatzy box")
        if type(self.saved_rolls_cap) is not int or not 0 <= self.saved_rolls_cap <= MAX_SAVED_ROLLS:
            raise ValueError(f"saved_rolls_cap must be an integer in 0..{MAX_SAVED_ROLLS}, not "
                             f"{self.saved_rolls_cap!r}")

    def _american_boxes(self) -> tuple[Box, ...]:
        """The American sheet with this rule set's fixed scores."""
        return AMERICAN_BOXES[:8] + (
            Box("full_house", "full_house", fixed=self.full_house_score),
            Box("small_straight", "straight", n=4, fixed=self.small_straight_score),
            Box("large_straight", "straight", n=5, fixed=self.large_straight_score),
            Box("yahtzee", "yatzy", fixed=self.yahtzee_score),
            AMERICAN_BOXES[12],
        )

    @property
    def joker_code(self) -> int:
        """The joker mode as an int for the kernels (JOKER_NONE / JOKER_FORCED / JOKER_FREE)."""
        return JOKER_CODES[self.joker]

    @property
    def optimised_upper_bonus(self) -> int:
        """The upper bonus the optimisation counts (0 for ``seed``)."""
        return self.upper_bonus if self.bonus_in_optimisation else 0

    @property
    def n_boxes(self) -> int:
        """Number of boxes on the sheet (= turns in a game)."""
        return len(self.boxes)

    @property
    def all_filled(self) -> int:
        """The filled mask of a finished sheet."""
        return (1 << self.n_boxes) - 1

    @property
    def yahtzee_index(self) -> int:
        """Index of the yatzy box (five alike), -1 if the sheet has none."""
        return next((c for c, b in enumerate(self.boxes) if b.kind == "yatzy"), -1)

    @property
    def yahtzee_points(self) -> int:
        """Points of the yatzy box (a filled box holding them makes ``ybox`` 1)."""
        return self.boxes[self.yahtzee_index].fixed if self.yahtzee_index >= 0 else 0

    def to_dict(self) -> dict[str, Any]:
        """The full rules as a JSON-able dict (for artifact attributes).

        American rule sets keep the dict they always had (same artifact bytes); others list their boxes.
        """
        d = asdict(self)
        d.pop("boxes")
        d.pop("forced_order")
        saved = d.pop("saved_rolls_cap")  # stored only when rolls are saved: other rule sets keep their dict
        d["categories"] = list(self.categories)
        if self.boxes == self._american_boxes() and not self.forced_order:
            d["joker_scores"] = list(self.joker_scores)
            return d
        for key in ("full_house_score", "small_straight_score", "large_straight_score", "yahtzee_score",
                    "joker_scores"):
            d.pop(key)
        d["boxes"] = [b.to_dict() for b in self.boxes]
        d["forced_order"] = self.forced_order
        if saved:
            d["saved_rolls_cap"] = saved
        return d

    @property
    def encoding(self) -> DiceEncoding:
        return get_encoding(self.n_dice, self.n_faces)


def _scandinavian(fh5: bool, tp4: bool, forced: bool) -> Rules:
    name = "scandinavian" + "+fh5" * fh5 + "+tp4" * tp4 + "+forced" * forced
    extras = [("five alike also count as full house", fh5), ("four alike also count as two pairs", tp4),
              ("boxes are filled in sheet order", forced)]
    desc = "; ".join(["Scandinavian Yatzy: 15 boxes, bonus 50 at 63, no Joker, no Yatzy bonus"]
                     + [t for t, on in extras if on]) + "."
    return Rules(name, desc, upper_bonus=50, yahtzee_bonus=0, joker="none",
                 boxes=scandinavian_boxes(fh5=fh5, tp4=tp4), forced_order=forced)


def _saved(base: Rules, cap: int) -> Rules:
    """``base`` with unused rolls saved for later turns, at most ``cap`` (named ``BASE+savedCAP``)."""
    return replace(base, name=f"{base.name}+saved{cap}", saved_rolls_cap=cap,
                   description=base.description.removesuffix(".") + f"; unused rolls are saved for later turns "
                   f"(at most {cap}).")


_MAXI = Rules("maxi", "Maxi Yatzy (Norwegian rules): six dice, 20 boxes, bonus 100 at 84, no Joker.", n_dice=6,
              upper_threshold=84, upper_bonus=100, yahtzee_bonus=0, joker="none", boxes=MAXI_BOXES)
_MAXI_SE = Rules("maxi-se", "Maxi Yatzy (Swedish rules): six dice, 20 boxes, bonus 50 at 75, no Joker.", n_dice=6,
                 upper_threshold=75, upper_bonus=50, yahtzee_bonus=0, joker="none", boxes=MAXI_BOXES)

RULE_SETS: dict[str, Rules] = {
    r.name: r
    for r in (
        Rules("hasbro", "Official Hasbro rules: forced Joker, Yahtzee bonus 100, upper bonus 35 at 63."),
        Rules("verhoeff", "Verhoeff's optimal-solitaire rules: free-choice Joker.", joker="free"),
        Rules(
            "seed",
            "Hasbro rules, but the optimisation ignores the upper bonus (the seed's ESPERANCE tables).",
            bonus_in_optimisation=False,
        ),
        Rules("no-joker", "No Joker rule; the Yahtzee bonus is kept.", joker="none"),
        Rules("plain", "Neither Joker rule nor Yahtzee bonus.", joker="none", yahtzee_bonus=0),
        *(_scandinavian(fh5, tp4, forced) for forced in (False, True) for fh5, tp4 in
          ((False, False), (True, False), (False, True), (True, True))),
        _MAXI,
        _MAXI_SE,
        # Saved rolls (the Swedish rule, capped: docs/yahtzee.md, "Saved rolls"): value tables only.
        _saved(_MAXI_SE, 2),
        _saved(_MAXI, 2),
    )
}
DEFAULT_RULES = "hasbro"


def get_rules(name: str | Rules = DEFAULT_RULES) -> Rules:
    """The rule set called ``name`` (a Rules instance is returned unchanged)."""
    return name if isinstance(name, Rules) else by_name(RULE_SETS, name, "Yahtzee rule set")


# ---------------------------------------------------------------------------------------------------
# Scores of a roll


def score_roll(rules: Rules, dice, category: int, joker: bool = False) -> int:
    """Points of ``dice`` (pips 1..n_faces, any order) in box ``category``; ``joker`` applies Joker values.

    Joker values only change a five-alike roll: full house and straight boxes score their fixed points,
    the other boxes as usual (American three/four of a kind and chance the sum).
    """
    if not 0 <= category < rules.n_boxes:
        raise ValueError(f"category must be 0..{rules.n_boxes - 1}, not {category}")
    pips = [int(d) for d in dice]
    counts = [pips.count(v) for v in range(1, rules.n_faces + 1)]
    return score_box(rules.boxes[category], counts, joker)


def score_box(box: Box, counts: list[int], joker: bool = False) -> int:
    """Points of a roll given by its face ``counts`` (index = pips - 1) in ``box``."""
    n_dice = sum(counts)
    total = sum((f + 1) * c for f, c in enumerate(counts))
    alike = max(counts)
    kind = box.kind
    if kind == "upper":
        return box.face * counts[box.face - 1]
    if joker and alike == n_dice and kind in ("full_house", "straight"):
        return box.fixed
    if kind == "of_a_kind":
        faces = [f + 1 for f, c in enumerate(counts) if c >= box.n]
        if not faces:
            return 0
        return total if box.points == "total" else box.n * max(faces)
    if kind == "pairs":
        pairs = sorted((f + 1 for f, c in enumerate(counts) if c >= 2), reverse=True)
        if box.n == 1:
            return 2 * pairs[0] if pairs else 0
        if len(pairs) >= box.n:
            return 2 * sum(pairs[:box.n])
        four = [f + 1 for f, c in enumerate(counts) if c >= 4]
        return 4 * four[0] if box.n == 2 and box.four_as_two and four else 0
    if kind == "straight":
        run = best = 0
        for f, c in enumerate(counts):
            if box.lowest and not box.lowest - 1 <= f < box.lowest - 1 + box.n:
                continue
            run = run + 1 if c else 0
            best = max(best, run)
        return box.fixed if best >= box.n else 0
    if kind == "full_house":
        if box.five_alike and alike == n_dice:
            return box.fixed or total
        big, small = box.parts
        # The best faces a != b with at least `big` and `small` dice: with five dice and (3, 2), all of them.
        best = max((big * (a + 1) + small * (b + 1) for a in range(len(counts)) for b in range(len(counts))
                    if a != b and counts[a] >= big and counts[b] >= small), default=0)
        return (box.fixed or best) if best else 0
    if kind == "chance":
        return total
    return box.fixed if alike == n_dice else 0  # yatzy


@dataclass(frozen=True, eq=False)
class ScoringTables:
    """Scores of every sorted roll (encoding order) in every box; read-only int64 arrays.

    score[R, n_boxes]: normal points. joker_score[R, n_boxes]: points when Joker values apply (differs
    from ``score`` only on five-alike rolls in full house / straights). yahtzee_face[R]: face of a
    five-alike roll, -1 otherwise.
    """

    score: np.ndarray
    joker_score: np.ndarray
    yahtzee_face: np.ndarray


@cache
def scoring_tables(rules: Rules) -> ScoringTables:
    """The score tables of ``rules`` (cached)."""
    enc = rules.encoding
    score = np.zeros((enc.n_rolls, rules.n_boxes), dtype=np.int64)
    joker = np.zeros_like(score)
    no_joker = rules.joker_code == JOKER_NONE  # Joker values are never used: skip half of the scoring
    for r, roll in enumerate(enc.rolls):
        pips = [int(f) + 1 for f in roll]
        for c in range(rules.n_boxes):
            score[r, c] = score_roll(rules, pips, c)
            joker[r, c] = score[r, c] if no_joker else score_roll(rules, pips, c, joker=True)
    yface = enc.yahtzee_face.copy()
    for a in (score, joker, yface):
        a.setflags(write=False)
    return ScoringTables(score=score, joker_score=joker, yahtzee_face=yface)


# ---------------------------------------------------------------------------------------------------
# The Joker rule and the bookkeeping of a scored box. Plain-int functions: numba compiles them as is.


def scoring_options(joker_code: int, filled_mask: int, yahtzee_face: int) -> tuple[int, int]:
    """``scoring_options_n`` for the American sheet (13 boxes, Yahtzee box 11, any order)."""
    return scoring_options_n(joker_code, filled_mask, yahtzee_face, ALL_FILLED, YAHTZEE, 0)


def scoring_options_n(
    joker_code: int, filled_mask: int, yahtzee_face: int, all_filled: int, ybox_index: int, forced: int
) -> tuple[int, int]:
    """Which boxes a final roll may be scored in, and whether Joker values apply.

    joker_code: ``Rules.joker_code``; filled_mask: boxes already filled; yahtzee_face: the face of a
    five-alike roll, -1 for any other roll; all_filled: ``Rules.all_filled``; ybox_index:
    ``Rules.yahtzee_index``; forced: 1 when boxes are filled in sheet order (then only the first open box
    is allowed). Returns ``(allowed, use_joker)``: ``allowed`` a bitmask of boxes (never empty while a box
    is open) and ``use_joker`` 1 when the points come from ``ScoringTables.joker_score`` instead of
    ``score``. The upper boxes are boxes 0..5, all the others are lower boxes.
    """
    open_mask = all_filled & ~filled_mask
    if forced:
        return open_mask & -open_mask, 0
    if yahtzee_face < 0 or joker_code == JOKER_NONE or (filled_mask >> ybox_index) & 1 == 0:
        return open_mask, 0
    upper_bit = 1 << yahtzee_face
    if joker_code == JOKER_FORCED:
        if open_mask & upper_bit:
            return upper_bit, 0
        lower_open = open_mask & ~UPPER_MASK
        if lower_open:
            return lower_open, 1
        return open_mask, 0  # only upper boxes of other faces are open: a zero in one of them
    # Free-choice Joker: only when the matching upper box is filled too.
    if filled_mask & upper_bit:
        return open_mask, 1
    return open_mask, 0


def box_outcome(
    category: int,
    box_points: int,
    upper: int,
    ybox: int,
    yahtzee_roll: int,
    upper_threshold: int,
    upper_bonus: int,
    yahtzee_bonus: int,
) -> tuple[int, int, int]:
    """``box_outcome_n`` for the American sheet (Yahtzee box 11)."""
    return box_outcome_n(category, box_points, upper, ybox, yahtzee_roll, upper_threshold, upper_bonus,
                         yahtzee_bonus, YAHTZEE)


def box_outcome_n(
    category: int,
    box_points: int,
    upper: int,
    ybox: int,
    yahtzee_roll: int,
    upper_threshold: int,
    upper_bonus: int,
    yahtzee_bonus: int,
    ybox_index: int,
) -> tuple[int, int, int]:
    """Points earned by scoring ``box_points`` in ``category`` and the next (upper, ybox).

    upper: upper total so far, capped at ``upper_threshold``; ybox: 1 if the Yahtzee box holds 50;
    yahtzee_roll: 1 if the scored roll is five alike; ybox_index: ``Rules.yahtzee_index``. The reward
    adds the upper bonus in the turn the threshold is reached and ``yahtzee_bonus`` when a five-alike roll
    is scored while the Yahtzee box holds 50. Returns ``(reward, next_upper, next_ybox)``; the next upper
    total is capped.
    """
    reward = box_points
    next_upper = upper
    next_ybox = ybox
    if category < UPPER:
        next_upper = min(upper_threshold, upper + box_points)
        if upper < upper_threshold <= next_upper:
            reward += upper_bonus
    elif category == ybox_index and box_points > 0:
        next_ybox = 1
    if yahtzee_roll and ybox:
        reward += yahtzee_bonus
    return reward, next_upper, next_ybox


def kernel_params(rules: Rules, *, real_bonus: bool = False, saved_rolls: bool = False) -> list[int]:
    """The rules as the integer vector the kernels take: (joker_code, upper_threshold, upper_bonus,
    yahtzee_bonus, n_dice, n_boxes, yahtzee_index, forced_order). ``real_bonus`` counts the upper bonus
    even when the optimisation ignores it (``seed``).

    Every kernel but the saved-rolls solver plays turns of three rolls and states without saved rolls: a
    rule set that saves rolls is refused (ValueError) unless the caller says it handles them
    (``saved_rolls``; the cap then comes from the rules, not from this vector)."""
    if rules.saved_rolls_cap and not saved_rolls:
        raise ValueError(f"rule set {rules.name!r} saves unused rolls (at most {rules.saved_rolls_cap}): only its "
                         "value table can be built (yahtzee.saved.rule_sets; docs/yahtzee.md, \"Saved rolls\")")
    ubonus = rules.upper_bonus if real_bonus else rules.optimised_upper_bonus
    return [rules.joker_code, rules.upper_threshold, ubonus, rules.yahtzee_bonus, rules.n_dice, rules.n_boxes,
            rules.yahtzee_index, int(rules.forced_order)]
