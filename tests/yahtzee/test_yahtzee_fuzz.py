"""Every public function of lookup.yahtzee, fuzzed: valid input is answered, one wrong argument is refused by a
ValueError naming it, and a rule set whose tables are not built is reported as such (fuzz_inputs).

Valid sheets are played, not made up: random rolls scored in random allowed boxes through ``Sheet.score``.
A sample of the answers is recomputed by a plain one-turn search written here: every final roll scored in
every allowed box (``Sheet.score``), the game valued on by ``value`` at the next turn, rerolls enumerated die
by die. Play to win runs on the shared scandinavian+forced goal/win tables (test_yahtzee_towin.py builds the
same ones): ``chance`` at a turn's start must equal the mean over the first roll of ``decide``'s probability.
"""

from functools import lru_cache
from itertools import product

import fuzz_inputs
import numpy as np
from fuzz_inputs import JUNK, Sample, answer, bad_choice, bad_integer, examples, integers, missing, one_wrong, refused
from hypothesis import given
from hypothesis import strategies as st

import lookup.yahtzee as yz
from lookup.yahtzee.rules import CATEGORIES
from lookup.yahtzee.turn import tied
from tests import shared

BUILT = "hasbro"
FORCED = "scandinavian+forced"
DICE = st.lists(integers(1, 6), min_size=5, max_size=5)
BAD_DICE = st.one_of(st.lists(integers(1, 6), max_size=6).filter(lambda d: len(d) != 5), JUNK,
                     st.lists(integers(1, 6), min_size=4, max_size=4).flatmap(
                         lambda d: bad_integer(1, 6).map(lambda x: [*d, x])))
BAD_SHEET = st.one_of(JUNK.filter(lambda v: not isinstance(v, dict | list | tuple | range)),
                      st.sampled_from([{"ones": 7}, {"full_house": 20}, {"bogus": 3}, {"yahtzee_bonus": 100},
                                       [None] * 12, {"chance": 2.0}, {"sixes": True}]))
CHECK_FINAL, CHECK_KEEP, CHECK_TOWIN = Sample(every=5), Sample(every=60), Sample(every=40)


def played_sheet(draw, rules: str, most: int = 12) -> yz.Sheet:
    sheet = yz.Sheet.empty(rules)
    for _ in range(draw(st.integers(0, most))):
        if sheet.finished:
            break
        dice = draw(st.lists(st.integers(1, 6), min_size=5, max_size=5))
        sheet.score(draw(st.sampled_from(sorted(sheet.allowed(dice)))), dice)
    return sheet


def sheet_form(draw, sheet: yz.Sheet):
    return draw(st.sampled_from([sheet, sheet.to_dict(), list(sheet.boxes) if not sheet.yahtzee_bonus else sheet]))


@lru_cache(maxsize=4096)
def after_scoring(boxes: tuple, bonus: int, dice: tuple[int, ...], artifacts) -> dict[str, float]:
    """{box: expected final score after scoring ``dice`` there}: Sheet.score, then ``value`` of the sheet."""
    out = {}
    sheet = yz.Sheet(list(boxes), yz.get_rules(BUILT), bonus)
    for box in sheet.allowed(dice):
        nxt = yz.Sheet(list(boxes), yz.get_rules(BUILT), bonus)
        nxt.score(box, dice)
        out[box] = float(nxt.total) if nxt.finished else yz.value(nxt, BUILT, artifacts_dir=artifacts)
    return out


def keep_value(boxes: tuple, bonus: int, keep: tuple[int, ...], artifacts) -> float:
    """Expected final score of keeping ``keep`` with one reroll left: every outcome of the other dice."""
    outcomes = list(product(range(1, 7), repeat=5 - len(keep)))
    return sum(max(after_scoring(boxes, bonus, tuple(sorted(keep + o)), artifacts).values()) for o in outcomes) / len(
        outcomes)


def _check_turn(draw, fn, got, dice, rerolls: int, sheet: yz.Sheet, artifacts) -> None:
    options = yz.explain(dice, rerolls, sheet, BUILT, artifacts_dir=artifacts)
    best = options[0].expected_final
    assert all(abs(o.regret - (best - o.expected_final)) <= 1e-9 for o in options)
    if fn is yz.decide:
        assert got.expected_final == best
        assert (got.category, got.keep) == ((options[0].category, None) if rerolls == 0 else (None, options[0].keep))
    boxes, bonus = tuple(sheet.boxes), sheet.yahtzee_bonus
    if rerolls == 0 and CHECK_FINAL(draw):
        want = after_scoring(boxes, bonus, tuple(sorted(int(d) for d in dice)), artifacts)
        assert {o.category for o in options} == set(want)
        assert all(abs(o.expected_final - want[o.category]) <= 1e-9 for o in options)
    elif rerolls == 1 and CHECK_KEEP(draw):
        for o in options:
            assert abs(o.expected_final - keep_value(boxes, bonus, o.keep, artifacts)) <= 1e-9, o.keep


@examples(ci=300, dev=60)
@given(data=st.data())
def test_turn_queries(hasbro_tables, data):
    draw = data.draw
    rules = draw(st.sampled_from([BUILT, BUILT, BUILT, "verhoeff"]))  # verhoeff: valid, not built here
    sheet = played_sheet(draw, rules)
    valid = {"dice": draw(DICE), "rerolls": draw(integers(0, 2)), "sheet": sheet_form(draw, sheet), "rules": rules}
    bad = {"dice": BAD_DICE, "rerolls": bad_integer(0, 2), "sheet": BAD_SHEET, "rules": bad_choice(yz.RULE_SETS)}
    args, wrong = one_wrong(draw, valid, bad)
    fn = draw(st.sampled_from([yz.decide, yz.explain]))
    call = (args["dice"], args["rerolls"], args["sheet"], args["rules"])
    names = {"dice": ("dice", "die"), "rerolls": ("rerolls",), "sheet": ("sheet", "box", "categor", "yahtzee_bonus"),
             "rules": ("rule set",)}
    if wrong is not None:
        refused(fn, *call, names=names[wrong], artifacts_dir=hasbro_tables)
    elif rules != BUILT:
        missing(fn, *call, artifacts_dir=hasbro_tables)
    else:
        got = answer(fn, *call, artifacts_dir=hasbro_tables)
        _check_turn(draw, fn, got, args["dice"], int(args["rerolls"]), sheet, hasbro_tables)
        v = answer(yz.value, args["sheet"], rules, artifacts_dir=hasbro_tables)
        opening = yz.explain(args["dice"], 2, sheet, BUILT, artifacts_dir=hasbro_tables)[0].expected_final
        assert v > sheet.total - 1e-9 and np.isfinite(opening)
    if wrong in ("sheet", "rules"):
        refused(yz.value, args["sheet"], args["rules"], names=names[wrong], artifacts_dir=hasbro_tables)


def towin_tables(tmp_path_factory):
    return shared.small(tmp_path_factory, "yahtzee")


@examples(ci=30, dev=20)
@given(data=st.data())
def test_play_to_win(tmp_path_factory, data):
    """decide / explain / chance with goal= or beat=, against a built play-to-win table."""
    root = towin_tables(tmp_path_factory)
    draw = data.draw
    rules = draw(st.sampled_from([FORCED, FORCED, FORCED, "hasbro"]))  # no hasbro play-to-win table here
    sheet = played_sheet(draw, rules, most=14)
    objective = draw(st.sampled_from(["goal", "beat"]))
    valid = {"dice": draw(DICE), "rerolls": draw(integers(0, 2)), "sheet": sheet_form(draw, sheet), "rules": rules,
             objective: draw(integers(0, 400))}
    bad = {"dice": BAD_DICE, "rerolls": bad_integer(0, 2), "sheet": BAD_SHEET, "rules": bad_choice(yz.RULE_SETS),
           objective: bad_integer(None, None, extra=[100.0, "300"]).filter(lambda v: v is not None)}
    args, wrong = one_wrong(draw, valid, bad)
    names = {"dice": ("dice", "die"), "rerolls": ("rerolls",), "sheet": ("sheet", "box", "categor", "yahtzee_bonus"),
             "rules": ("rule set",), objective: (objective,)}
    fn = draw(st.sampled_from([yz.decide, yz.explain, yz.chance]))
    kw = {objective: args[objective], "artifacts_dir": root}
    call = (args["sheet"], args["rules"]) if fn is yz.chance else (args["dice"], args["rerolls"], args["sheet"],
                                                                   args["rules"])
    if wrong is not None and (fn is not yz.chance or wrong in ("sheet", "rules", objective)):
        refused(fn, *call, names=names[wrong], **kw)
        return
    if fn is not yz.chance and sheet.finished:
        refused(fn, *call, names=("finished",), **kw)
        return
    if rules != FORCED and not (fn is yz.chance and sheet.finished):
        missing(fn, *call, **kw)
        return
    got = answer(fn, *call, **kw)
    if fn is yz.chance:
        assert 0 <= got <= 1
        if not sheet.finished and CHECK_TOWIN(draw):
            enc = yz.get_rules(FORCED).encoding
            first = [answer(yz.decide, [int(f) + 1 for f in roll], 2, sheet, FORCED, **kw).probability
                     for roll in enc.rolls]
            # Rounding only (relative, as every probability's): an absolute 1e-9 tie rule once lost 4e-10 here.
            assert abs(float(enc.roll_prob @ np.array(first)) - got) <= 1e-12 * got
    elif fn is yz.explain:
        # The options tied with the best first (regret 0, tie order), then the others by probability.
        best = max(o.probability for o in got)
        ties = [tied(o.probability, best, "probability") for o in got]
        rest = [o.probability for o, t in zip(got, ties, strict=True) if not t]
        assert ties == sorted(ties, reverse=True) and rest == sorted(rest, reverse=True)
        assert all((o.regret == 0) == t for o, t in zip(got, ties, strict=True))
    else:
        options = yz.explain(*call, **kw)
        # decide takes explain's first option: the best up to the relative tie rule of probabilities (an absolute
        # 1e-9 once kept 1-1-1-1-2, P = 1.652e-8, over 1-1-1-1, P = 1.749e-8, at goal 337 on an empty sheet).
        assert got.probability == options[0].probability and (got.keep, got.category) == (options[0].keep,
                                                                                             options[0].category)
        assert tied(got.probability, max(o.probability for o in options), "probability")


@examples(ci=300, dev=60)
@given(data=st.data())
def test_batch_and_sheets(hasbro_tables, data):
    draw = data.draw
    rows = [played_sheet(draw, BUILT) for _ in range(draw(st.integers(0, 3)))]
    n = len(rows)
    valid = {"dice": np.array(draw(st.lists(DICE.map(lambda d: [int(x) for x in d]), min_size=n, max_size=n)),
                              dtype=np.int64).reshape(n, 5),
             "rerolls": np.array(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), dtype=np.int64),
             "filled_mask": np.array([s.state[0] for s in rows], dtype=np.int64),
             "upper": np.array([s.state[1] for s in rows], dtype=np.int64),
             "ybox": np.array([s.state[2] for s in rows], dtype=np.int64)}
    bad = {"dice": st.sampled_from([np.zeros((n, 5), np.int64), np.full((n, 4), 2), np.full((n, 5), 2.0), "x"]),
           "rerolls": st.sampled_from([np.full(n, 3), np.full(n + 1, 1), np.full(n, True)]),
           "filled_mask": st.sampled_from([np.full(n, -1), np.full(n, 8191), np.full(n, 1.0)]),
           "upper": st.sampled_from([np.full(n, 64), np.full(n, -1)]), "ybox": st.sampled_from([np.full(n, 2)])}
    if n == 0:
        bad = {k: v for k, v in bad.items() if k in ("dice", "rerolls")}
        bad["dice"] = st.sampled_from([np.full((0, 4), 2), np.full((0, 5), 2.0), "x"])
        bad["rerolls"] = st.sampled_from([np.full(1, 1)])
    args, wrong = one_wrong(draw, valid, bad)
    call = [args[k] for k in ("dice", "rerolls", "filled_mask", "upper", "ybox")]
    if wrong is not None:
        refused(yz.decide_batch, *call, BUILT, names=(wrong, "die face"), artifacts_dir=hasbro_tables)
    else:
        got = answer(yz.decide_batch, *call, BUILT, artifacts_dir=hasbro_tables)
        for i, sheet in enumerate(rows):
            one = yz.decide(valid["dice"][i].tolist(), int(valid["rerolls"][i]), sheet, BUILT,
                            artifacts_dir=hasbro_tables)
            if one.category is not None:
                assert CATEGORIES[got[i]] == one.category
            else:
                assert [bool(got[i] >> j & 1) for j in range(5)] == list(one.reroll)

    # Sheet bookkeeping, against the rules as stated (docs/yahtzee.md): face x count in the upper boxes.
    sheet = played_sheet(draw, BUILT)
    dice = draw(st.one_of(DICE, DICE, BAD_DICE))
    if not (isinstance(dice, list) and len(dice) == 5 and all(fuzz_inputs.is_int(d, 1, 6) for d in dice)):
        refused(sheet.allowed, dice, names=("dice", "die"))
        return
    allowed = answer(sheet.allowed, dice)
    for box, points in allowed.items():
        if box in CATEGORIES[:6]:  # Joker or not, an upper box scores face x count
            face = CATEGORIES.index(box) + 1
            assert points == face * sum(int(d) == face for d in dice)
    box = draw(st.one_of(st.sampled_from(CATEGORIES), st.sampled_from(["bogus", "", 3.0, True])))
    if box not in CATEGORIES:
        refused(sheet.score, box, dice, names=("box", "categor"))
    elif box not in allowed:
        refused(sheet.score, box, dice, names=(box,))
    else:
        before = sheet.total
        earned = answer(sheet.score, box, dice)
        assert sheet.total - before == earned and sheet.boxes[CATEGORIES.index(box)] == allowed[box]
