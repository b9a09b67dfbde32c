"""Every public function of lookup.g151, fuzzed: valid input is answered (a sample of the answers equals the
exact-rational references of tests/g151/reference.py), one wrong argument is refused by a ValueError naming it,
and a target that is not built is reported as such (fuzz_inputs)."""

from fractions import Fraction
from functools import cache

from fuzz_inputs import JUNK, Sample, answer, bad_choice, bad_integer, examples, integers, missing, one_wrong, refused
from hypothesis import given
from hypothesis import strategies as st

from lookup import g151

from .reference import enumerated_law, notebook_points, roll_outcomes, solitaire_policy_iteration

BUILT = {"stated": (300, 1000), "notebook": (300, 1000)}  # pipeline/g151/game.py small=
TARGETS = st.sampled_from([300, 1000, 300, 500, 50])  # 500 and 50: valid targets that are not built
VARIANTS = st.sampled_from(["stated", "notebook", "straights", g151.RULE_SETS["stated"]])
SAMPLE = Sample(every=6)
REFERENCE_TARGET = 300  # the exact references of 1000 (20 units) take about a minute: not sampled


def _name(rules) -> str:
    return rules if isinstance(rules, str) else rules.name


def _points(draw, below: int) -> int:
    """A multiple of 50 in 0..below - 1 (numpy or Python)."""
    return draw(integers(0, below // 50 - 1)) * 50


@cache
def solitaire_exact(name: str, n: int) -> dict:
    return solitaire_policy_iteration(g151.get_rules(name), n)[0]  # J(a, t) exactly: 0.1 s for n = 6


def _exact_actions(name: str, n: int, a: int, t: int, b: int | None, artifacts) -> dict[str, Fraction]:
    """The value of rolling and of banking at (a, t[, b]) (units). Alone: exactly, from policy iteration in
    rationals over the whole game. In a duel (whose exact solve takes half a minute at 6 units): one step of the
    recursion over the 216 enumerated outcomes, the following states valued by ``g151.value``."""
    rules = g151.get_rules(name)
    law = enumerated_law(rules)
    if b is None:
        j = {**solitaire_exact(name, n), (n, 0): Fraction(0)}
        fail = Fraction(int(rules.failed_turns_count))
        out = {"roll": sum(p * (j[(a, u)] if kind == "on" else 1 + j[(a + u, 0)] if kind == "bank"
                                else fail + j[(a, 0)])
                           for p, kind, u in roll_outcomes(law, t, n - a, rules.zero_keeps_turn))}
        if t:
            out["bank"] = 1 + j[(a + t, 0)]
        return out
    def w(a: int, b: int, t: int) -> Fraction:  # the mover's win probability at (a, b, t), from the table
        return Fraction(g151.value(a * 50, t * 50, b * 50, n * 50, name, artifacts_dir=artifacts))

    def after_bank(total: int) -> Fraction:
        return Fraction(1) if a + total == n else 1 - w(b, a + total, 0)

    out = {"roll": sum(p * (w(a, b, u) if kind == "on" else after_bank(u) if kind == "bank" else 1 - w(b, a, 0))
                       for p, kind, u in roll_outcomes(law, t, n - a, rules.zero_keeps_turn))}
    if t:
        out["bank"] = after_bank(t)
    return out


@examples(ci=600, dev=100)
@given(data=st.data())
def test_state_queries(g151_tables, data):
    draw = data.draw
    target = draw(TARGETS)
    banked = _points(draw, target)
    turn = _points(draw, target - banked + 50)
    valid = {"banked": banked, "turn_total": turn, "other_banked": draw(st.one_of(st.none(), st.just(0).map(
        lambda _: _points(draw, target)))), "target": target, "rules": draw(VARIANTS)}
    bad = {"banked": bad_integer(0, None, extra=[-50, 75, target, target + 50]),
           "turn_total": bad_integer(0, None, extra=[-50, 30, target - banked + 50]),
           "other_banked": bad_integer(0, None, extra=[-50, 1, target]).filter(lambda v: v is not None),
           "target": bad_integer(1, None, extra=[0, -50, 310]), "rules": bad_choice(g151.RULE_SETS)}
    args, wrong = one_wrong(draw, valid, bad)
    fn = draw(st.sampled_from([g151.decide, g151.value, g151.action_values]))
    call = (args["banked"], args["turn_total"], args["other_banked"], args["target"], args["rules"])
    if wrong is not None:
        # A wrong score may be refused for what it does to the state (past the target) rather than by name.
        names = (wrong, "variant") if wrong != "target" else ("target",)
        refused(fn, *call, names=(*names, "exceeds the target", "below the target"), artifacts_dir=g151_tables)
    elif target not in BUILT.get(_name(args["rules"]), ()):
        missing(fn, *call, artifacts_dir=g151_tables)
    else:
        got = answer(fn, *call, artifacts_dir=g151_tables)
        values = g151.action_values(*call, artifacts_dir=g151_tables)
        sign = 1 if args["other_banked"] is not None else -1  # win probability up, expected turns down
        best = max(values, key=lambda k: (sign * values[k], k == "bank"))  # ties bank (docstring)
        if fn is g151.decide:
            assert got == (best if turn else "roll")
        elif fn is g151.value:
            assert got == values[g151.decide(*call, artifacts_dir=g151_tables)]
        name = _name(args["rules"])
        other = args["other_banked"]
        if target == REFERENCE_TARGET and SAMPLE(draw):
            n = target // 50
            exact = _exact_actions(name, n, int(banked) // 50, int(turn) // 50,
                                   None if other is None else int(other) // 50, g151_tables)
            assert values.keys() == exact.keys()
            for action, v in exact.items():
                assert abs(values[action] - float(v)) <= 1e-12, action  # rounding of a few table entries
            chosen = g151.decide(*call, artifacts_dir=g151_tables)  # optimal: no exact improvement on it
            best = (max if other is not None else min)(exact.values())
            assert abs(exact[chosen] - best) <= 1e-12  # float ties aside, the table's action is the best


@examples(ci=300, dev=60)
@given(data=st.data())
def test_rules_and_rolls(data):
    draw = data.draw
    name = draw(st.one_of(st.sampled_from(sorted(g151.RULE_SETS)), bad_choice(g151.RULE_SETS)))
    fn = draw(st.sampled_from([g151.get_rules, g151.roll_distribution, g151.roll_moments]))
    if not isinstance(name, str) or name not in g151.RULE_SETS:
        refused(fn, name, names=("variant",))
    else:
        got = answer(fn, name)
        # plain enumeration of the 216 outcomes (in units of 50 points)
        law = {v * g151.UNIT: p for v, p in enumerated_law(g151.get_rules(name)).items()}
        if fn is g151.roll_distribution:
            assert got == law
        elif fn is g151.roll_moments:
            mean = sum(p * v for v, p in law.items())
            assert got == (mean, sum(p * (v - mean) ** 2 for v, p in law.items()))
    dice = draw(st.tuples(integers(1, 6), integers(1, 6), integers(1, 6)))
    variant = draw(st.sampled_from(["stated", "straights"]))
    wrong = draw(st.sampled_from([None, None, "length", "face"]))
    if wrong == "length":
        dice = draw(st.one_of(st.lists(integers(1, 6), max_size=4).filter(lambda d: len(d) != 3), JUNK))
        refused(g151.roll_points, dice, variant, names=("dice",))
    elif wrong == "face":
        dice = (*dice[:2], draw(bad_integer(1, 6)))
        refused(g151.roll_points, dice, variant, names=("dice",))
    else:
        got = answer(g151.roll_points, dice, variant)
        # the notebook's scoring, transcribed: straights add 100 to the usual value
        assert got == notebook_points(tuple(int(d) for d in dice), variant == "straights")
