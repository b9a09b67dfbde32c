"""Every public function of lookup.g151 lets only ValueError escape, whatever it is given.

One example calls every function with its own draws, so each function gets as many inputs as the
profile's examples (10,000 in CI)."""

from fuzz_inputs import arg, integers, only_value_errors
from hypothesis import given
from hypothesis import strategies as st

from lookup import g151

POINTS = st.one_of(integers(-2, 22).map(lambda x: x * 50), integers(-60, 1100))
TARGETS = st.sampled_from([300, 1000, 500, 0, -50, 1050, 310])
RULES = st.sampled_from(["stated", "notebook", "straights", "nope", g151.RULE_SETS["stated"]])
DICE = st.one_of(st.lists(arg(integers(0, 7)), max_size=4), st.tuples(integers(1, 6), integers(1, 6), integers(1, 6)))


@given(data=st.data())
def test_every_g151_function(g151_tables, data):
    draw = data.draw
    for fn in (g151.decide, g151.value, g151.action_values):
        only_value_errors(fn, draw(arg(POINTS)), draw(arg(POINTS)), draw(st.one_of(st.none(), arg(POINTS))),
                          draw(arg(TARGETS)), draw(arg(RULES)), artifacts_dir=g151_tables)
    for fn in (g151.get_rules, g151.roll_distribution, g151.roll_moments):
        only_value_errors(fn, draw(arg(RULES)))
    only_value_errors(g151.roll_points, draw(arg(DICE)), draw(arg(RULES)))
