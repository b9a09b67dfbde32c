"""Yahtzee through the protocol answers as the entry points do: on random positions of every setup the small
tables answer (expected score, goal, beat, against an expected-score opponent, two players playing to win), the
advisor's value of every legal action equals ``explain``'s value of that option, and its advice is ``decide``'s."""

from __future__ import annotations

import random

import pytest

from lookup.games import get_spec, open_setup
from lookup.protocol import CHANCE
from lookup.simulate import draw
from lookup.yahtzee import decide, explain

VALUE = {"expected": "expected_final"}  # explain's field of the option's value (the others: probability)


def _objective(setup: dict, state, game) -> dict:
    kind = setup["objective"]
    if kind in ("goal", "beat"):
        return {kind: setup["target"]}
    if kind == "expected":
        return {}
    other = game.sheet(state, 1 - state.mover)
    return {"opponent": other} if kind == "opponent" else {"opponents": [other]}


@pytest.mark.parametrize("objective", ["expected", "goal", "beat", "opponent", "win"])
def test_action_values_are_explains_and_the_advice_decides(towin_tables, objective):
    setups = [s for s in get_spec("yahtzee").setups(towin_tables) if s["objective"] == objective]
    assert setups, f"the small tables answer no {objective} setup"
    advisor = open_setup("yahtzee", setups[0], towin_tables)
    game, rng, checked = advisor.game, random.Random(f"yahtzee-game-{objective}"), 0
    state = game.initial_state()
    while not game.is_terminal(state) and checked < 40:
        mover = game.to_move(state)
        if mover == CHANCE:
            state = game.apply(state, draw(game.chance_outcomes(state), rng))
            continue
        legal = game.legal_actions(state)
        if objective == "opponent" and mover == 1:  # the expected-score player: its own policy, no P(win) values
            state = game.apply(state, advisor.decide(state))
            continue
        sheet, dice, rerolls = game.sheet(state), list(state.dice), state.rerolls
        kw = {"artifacts_dir": towin_tables, **_objective(setups[0], state, game)}
        options = explain(dice, rerolls, sheet, setups[0]["rules"], **kw)
        field = VALUE.get(objective, "probability")
        by = {(o.category if rerolls == 0 else o.keep): getattr(o, field) for o in options}
        values = advisor.action_values(state)
        assert set(values) == set(legal) == set(by)
        for action, v in values.items():
            assert v == pytest.approx(by[action], abs=1e-12), (objective, action)
        d = decide(dice, rerolls, sheet, setups[0]["rules"], **kw)
        assert advisor.decide(state) == (d.category if rerolls == 0 else d.keep)
        checked += 1
        state = game.apply(state, rng.choice(legal))
    assert checked >= 20
