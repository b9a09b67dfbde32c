"""Every public function of lookup.yahtzee lets only ValueError escape, whatever it is given.

One example calls every function with its own draws, so each function gets as many inputs as the
profile's examples (10,000 in CI)."""

import numpy as np
from fuzz_inputs import JUNK, arg, integers, only_value_errors
from hypothesis import given
from hypothesis import strategies as st

import lookup.yahtzee as yz
from lookup.yahtzee.rules import CATEGORIES

POINTS = st.one_of(st.none(), st.sampled_from([0, 1, 2, 3, 4, 5, 6, 8, 9, 12, 15, 18, 24, 25, 30, 40, 50, 7, 100]),
                   integers(-1, 60))
KEYS = st.sampled_from([*CATEGORIES, "yahtzee_bonus", "Full House", "bogus", 3, True, np.int64(2)])
SHEETS = st.one_of(
    st.dictionaries(KEYS, arg(POINTS), max_size=14),
    st.lists(arg(POINTS), min_size=12, max_size=14),
    st.lists(arg(POINTS), min_size=13, max_size=13).map(tuple),
    st.lists(POINTS, min_size=13, max_size=13).map(lambda b: yz.Sheet(b, yz.get_rules("hasbro"))),
)
DICE = st.one_of(st.lists(arg(integers(0, 7)), min_size=4, max_size=6), st.tuples(*[integers(1, 6)] * 5),
                 st.lists(integers(1, 6), min_size=5, max_size=5).map(np.array))
RULES = st.sampled_from(["hasbro", "hasbro", "verhoeff", "nope"])
DTYPES = [np.int64, np.int64, np.uint8, np.float64, bool, object, str]


def _array(draw, shape: tuple[int, ...], low: int, high: int) -> object:
    if draw(st.integers(0, 9)) == 0:
        return draw(JUNK)
    values = np.array(draw(st.lists(st.integers(low, high), min_size=int(np.prod(shape)),
                                    max_size=int(np.prod(shape)))), dtype=np.int64).reshape(shape)
    return values.astype(draw(st.sampled_from(DTYPES)))


@given(data=st.data())
def test_every_yahtzee_function(hasbro_tables, data):
    draw = data.draw
    for fn in (yz.decide, yz.explain):
        only_value_errors(fn, draw(arg(DICE)), draw(arg(integers(-1, 3))), draw(arg(SHEETS)), draw(arg(RULES)),
                          artifacts_dir=hasbro_tables)
    only_value_errors(yz.value, draw(arg(SHEETS)), draw(arg(RULES)), artifacts_dir=hasbro_tables)
    # Play to win: no goal/win table is built here, so past validation the answer is a missing-table error.
    target = st.sampled_from(["goal", "beat"])
    for fn in (yz.decide, yz.explain):
        only_value_errors(fn, draw(arg(DICE)), draw(arg(integers(-1, 3))), draw(arg(SHEETS)), draw(arg(RULES)),
                          artifacts_dir=hasbro_tables, **{draw(target): draw(arg(integers(-5, 400)))})
    only_value_errors(yz.chance, draw(arg(SHEETS)), draw(arg(RULES)), artifacts_dir=hasbro_tables,
                      **{draw(target): draw(arg(integers(-5, 400)))})
    n = draw(st.integers(0, 3))
    m = draw(st.sampled_from([n, n, n + 1]))
    only_value_errors(yz.decide_batch, _array(draw, (n, draw(st.sampled_from([5, 5, 4]))), 0, 7),
                      _array(draw, (m,), -1, 3), _array(draw, (n,), -1, 8192), _array(draw, (n,), -1, 64),
                      _array(draw, (n,), -1, 2), draw(arg(RULES)), artifacts_dir=hasbro_tables)
    only_value_errors(yz.get_rules, draw(arg(RULES)))
    try:
        sheet = yz.Sheet.parse(draw(arg(SHEETS)), draw(arg(RULES)))
    except ValueError:
        return
    only_value_errors(sheet.allowed, draw(arg(DICE)))
    only_value_errors(sheet.score, draw(arg(KEYS)), draw(arg(DICE)))
