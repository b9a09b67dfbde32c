"""Every public function of lookup.dicerace lets only ValueError escape, whatever it is given.

One example calls every function with its own draws, so each function gets as many inputs as the
profile's examples (10,000 in CI)."""

import numpy as np
from fuzz_inputs import arg, integers, only_value_errors
from hypothesis import given
from hypothesis import strategies as st

import lookup.dicerace as dr

SCORES = integers(-2, 31)
DICE = st.sampled_from([3, 5, 5, 0, 11, 7, 1001])
TARGETS = st.sampled_from([20, 30, 30, 31, 0])
MODES = st.sampled_from(["sequential", "simultaneous", "both"])
RNG = st.one_of(st.none(), integers(-2, 9), st.just(np.random.default_rng(1)))


@given(data=st.data())
def test_every_dicerace_function(built, data):
    draw = data.draw
    for fn in (dr.decide, dr.strategy, dr.value, dr.explain):
        kwargs = dict(dice=draw(arg(DICE)), target=draw(arg(TARGETS)), mode=draw(arg(MODES)), artifacts_dir=built)
        if fn is dr.decide:
            kwargs["rng"] = draw(arg(RNG))
        only_value_errors(fn, draw(arg(SCORES)), draw(arg(SCORES)), **kwargs)
    for fn in (dr.sequential_table, dr.simultaneous_table):
        only_value_errors(fn, draw(arg(DICE)), draw(arg(TARGETS)), artifacts_dir=built)
    only_value_errors(dr.probabilities, draw(arg(integers(-1, 12))), artifacts_dir=built)
    only_value_errors(dr.blind_dice, draw(arg(integers(-1, 40))))
    only_value_errors(dr.expected_points, draw(arg(integers(-1, 40))))
