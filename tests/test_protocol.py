"""The behavioural test of the game protocol, run on every registered game (``lookup.games.names()``: each
``lookup/<game>/game.py``; nothing here names a game): random legal games played to the end through the protocol,
on the game's smallest tables (its declaration's ``small`` params, tests/shared.py), checking at every state

* the rules: a seat or chance to move; chance outcomes distinct, of positive exact probability summing to 1;
  legal actions distinct; JSON and text forms that read back (actions, outcomes, positions); observations
  hashable; returns at the end, one per seat;
* the tables: a chance node's value is the expectation of its outcomes' values, a decision's value is the
  expectation of its actions' values under the tables' strategy, each action's value is the value of the state
  it leads to, the advice is among the best actions, a terminal state's value is its return;
* the features written once on the protocol: the game's record reads back and replays to the same end, and its
  review adds up (value at the end = value at the start - cost + luck);
* bad input: junk positions, actions, setups and records are ValueErrors with a message.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import Any

import pytest

from lookup.games import get_spec, names, open_setup
from lookup.protocol import CHANCE
from lookup.records import parse_record, record_of, replay
from lookup.review import review
from lookup.simulate import draw
from tests import shared
from tests.fuzz_inputs import refusals

GAMES = names()
CHECKED_OUTCOMES = 300  # a chance node with more outcomes has its probabilities checked, not its expectation
GAMES_PER_SETUP = 2
MAX_SETUPS = 5  # the first setups built (and more where an option's value is not among them: setups_of)
NAN, HUGE = float("nan"), 2**70
JUNK = (None, True, 1.5, NAN, HUGE, -1, "", "x" * 300, [], [None], {}, {"nosuch": 1}, [[[[]]]])


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    built: dict[str, Any] = {}

    def get(game: str):
        if game not in built:
            built[game] = shared.small(tmp_path_factory, game)
        return built[game]

    return get


def values_of(setup: dict, game: str) -> set[tuple[str, str]]:
    """(option, one of its values as JSON) for every option of ``setup`` (each value of a list option)."""
    spec = get_spec(game)
    return {(k, json.dumps(v)) for k, o in spec.options.items() for v in (setup[k] if o.many else [setup[k]])}


def setups_of(game: str, root) -> list[dict]:
    """The first ``MAX_SETUPS`` setups built, and then the first to bring each value of an option none of those has
    (a variant declared as an option's value is played whatever its place in the list)."""
    found = get_spec(game).setups(root)
    assert found, f"{game}: its small tables answer no setup"
    chosen = found[:MAX_SETUPS]
    seen = set().union(*(values_of(s, game) for s in chosen))
    for s in found[MAX_SETUPS:]:
        if values_of(s, game) - seen:
            chosen.append(s)
            seen |= values_of(s, game)
    return chosen


def test_every_game_is_registered():
    assert {"pig"} <= set(GAMES)
    for game in GAMES:
        spec = get_spec(game)
        assert spec.name == game and spec.title and spec.summary and spec.options
        assert shared.small_params(game)


def typed_dice_read(game: Any, state: Any, outcome: Any, rng: random.Random) -> None:
    """A chance outcome of dice (a face, or faces) typed as people type dice (digits, in any order where the game
    lists them sorted, run together or between spaces or commas) reads as that outcome, in every game."""
    data = game.action_json(state, outcome)
    faces = [data] if type(data) is int else data
    if not (isinstance(faces, list) and faces and all(type(f) is int and 1 <= f <= 9 for f in faces)):
        return
    order = rng.sample(faces, len(faces)) if faces == sorted(faces) else faces
    text = rng.choice(["", " ", ", "]).join(map(str, order))
    assert game.parse_action(state, text) == outcome, (text, data)


def check_state(advisor: Any, state: Any, rng: random.Random) -> int:
    """Every invariant at one state; returns how many values it compared."""
    game, n = advisor.game, 0
    seats = range(game.seats)
    assert game.parse_state(json.loads(json.dumps(game.state_json(state)))) == state
    assert isinstance(game.state_text(state), str)
    for s in seats:
        hash(game.observation(state, s))
        assert isinstance(game.state_text_for(state, s), str)  # the position as the seat is shown it
    values = [advisor.value(state, s) for s in seats]
    whole = [game.observation(state, s) == state for s in seats]  # the seat sees the whole state
    if game.is_terminal(state):
        returns = game.returns(state)
        assert len(returns) == game.seats
        for s in seats:
            assert values[s] == float(returns[s]), (s, values, returns)
        return 1
    mover = game.to_move(state)
    assert mover == CHANCE or 0 <= mover < game.seats
    if mover == CHANCE:
        assert game.has_chance
        outcomes = game.chance_outcomes(state)
        assert outcomes and len({o for o, _ in outcomes}) == len(outcomes)
        assert all(type(p) is Fraction and p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        weighted = [(game.apply(state, o), p) for o, p in outcomes] if len(outcomes) <= CHECKED_OUTCOMES else []
        pairs = weighted
    else:
        legal = game.legal_actions(state)
        assert legal and len(set(legal)) == len(legal)
        action_values = advisor.action_values(state)
        assert list(action_values) == list(legal)
        policy = advisor.policy(state)
        assert set(policy) <= set(legal) and abs(sum(policy.values()) - 1) < 1e-12
        assert all(p > 0 for p in policy.values())
        best = advisor.best_actions(state)
        assert best and set(best) <= set(legal) and advisor.decide(state) in legal
        if None not in action_values.values():  # (a seat whose turn the tables do not value has none)
            top = game.unit.best(list(action_values.values()))
            assert all(not game.unit.gain(top, action_values[a]) for a in best)
        children = {a: game.apply(state, a) for a in legal}
        for a, v in action_values.items():
            after = advisor.value(children[a], mover)
            if v is not None and after is not None and whole[mover]:
                assert close(v, after), (game.action_text(state, a), v, after)
                n += 1
        pairs = [(children[a], p) for a, p in policy.items()]
    for s in seats:
        if values[s] is None or not pairs or not whole[s]:
            continue
        after = [advisor.value(child, s) for child, _ in pairs]
        if None in after:
            continue
        expected = sum(float(p) * v for (_, p), v in zip(pairs, after, strict=True))
        assert close(values[s], expected), (game.state_text(state), s, values[s], expected)
        n += 1
    for option in game.options(state):
        text = game.action_json(state, option)
        assert game.parse_action(state, json.loads(json.dumps(text))) == option
        assert isinstance(game.action_text(state, option), str)
        assert all(isinstance(game.action_text_for(state, option, s), str) for s in seats)
    return n


@pytest.mark.parametrize("game", GAMES)
def test_random_legal_games_keep_every_invariant(game, tables):
    root = tables(game)
    spec = get_spec(game)
    every = spec.setups(root)
    for key, option in spec.options.items():  # every choice an option offers is played, where it is built
        offered = set(map(json.dumps, option.choices)) | ({"null"} if option.choices and option.default is None
                                                           else set())
        seen = {json.dumps(v) for s in every for v in (s[key] if option.many else [s[key]])}
        assert not offered or seen <= offered
    compared = 0
    played = setups_of(game, root)
    assert set().union(*(values_of(s, game) for s in played)) == set().union(*(values_of(s, game) for s in every))
    for i, setup in enumerate(played):
        advisor = open_setup(game, setup, root)
        g = advisor.game
        assert g.name == game
        for number in range(GAMES_PER_SETUP if i < MAX_SETUPS else 1):  # a setup added for an option's value: once
            rng = random.Random(f"{game}-{json.dumps(setup)}-{number}")
            state, steps = g.initial_state(), []
            from lookup.records import Step

            while True:
                compared += check_state(advisor, state, rng)
                if g.is_terminal(state):
                    break
                mover = g.to_move(state)
                if mover == CHANCE:
                    action = draw(g.chance_outcomes(state), rng)
                    typed_dice_read(g, state, action, rng)
                else:  # half the time the tables' play, else a uniform legal action
                    legal = g.legal_actions(state)
                    action = advisor.decide(state) if rng.random() < 0.5 else rng.choice(legal)
                after = g.apply(state, action)
                steps.append(Step(len(steps) + 1, state, mover, action, after))
                state = after
                assert len(steps) < 5000, "the game does not end"
            record = record_of(g, setup, steps, seat=number % g.seats)
            again = parse_record(json.loads(record.to_json()))
            assert again == parse_record(record.to_dict())
            assert replay(g, again.events, again.start)[1] == state
            result = review(advisor, again)
            assert result.finished and result.end == float(g.returns(state)[result.seat])
            assert result.decisions == sum(1 for e in result.events if e.kind == "decision" and e.cost is not None)
            # Every decision of the seat is counted once: valued (with a cost) or not valued by these tables.
            assert result.unvalued == sum(1 for e in result.events if e.kind == "decision" and e.cost is None)
            assert result.decisions + result.unvalued == sum(1 for s in steps if s.mover == result.seat)
            assert (result.unvalued > 0) == bool(result.unvalued_text()) and result.as_dict()["unvalued"] == \
                result.unvalued
            assert all(e.cost >= 0 for e in result.events if e.cost is not None)
            if result.start is not None and all(e.value is not None for e in result.events):
                direction = 1 if result.higher else -1
                assert close(result.end, result.start + direction * (result.total_luck - result.total_cost)), result
    assert compared >= 20, f"{game}: only {compared} values compared"


@pytest.mark.parametrize("game", GAMES)
def test_bad_input_is_a_value_error(game, tables):
    root = tables(game)
    setup = setups_of(game, root)[0]
    advisor = open_setup(game, setup, root)
    g = advisor.game
    start = g.initial_state()
    calls = [(f"parse_state({junk!r:.30})", lambda j=junk: g.parse_state(j)) for junk in JUNK]
    calls += [(f"parse_action({junk!r:.30})", lambda j=junk: g.parse_action(start, j)) for junk in JUNK]
    calls += [(f"setup {{{key!r}: {junk!r:.30}}}", lambda k=key, j=junk: open_setup(game, {**setup, k: j}, root))
              for key in get_spec(game).options for junk in JUNK if junk is not None]
    calls += [("setup with an unknown option", lambda: open_setup(game, {**setup, "nosuch": 1}, root))]
    calls += [(f"record {junk!r:.30}", lambda j=junk: review(advisor, j)) for junk in JUNK]
    calls += [("record of another game", lambda: review(advisor, {"game": "nosuch", "events": []}))]
    calls += [("record with an illegal event", lambda: review(advisor, {"game": game, "setup": setup,
                                                                         "events": [{"nosuch": 1}]}))]
    failures = refusals(calls)
    assert not failures, "\n".join(failures)
