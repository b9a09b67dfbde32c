"""The strategy maps (``lookup.maps``) of every registered game whose declaration has one (``GameSpec.map``; nothing
here names a game), on its small tables: every cell is what the game's advisor says at the position with the two
coordinates set (the advisors are checked against independent recomputations in test_protocol and each game's
tests), cells the rules cannot have are empty, the position is circled; the command line answers the library's
map and draws it; a game without a map, a chance node and a finished game are refused with a message."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from lookup.games import get_spec, names, open_setup
from lookup.maps import MOVER, OTHER, strategy_map
from lookup.protocol import CHANCE
from pipeline.cli import main
from pipeline.strategy_maps import map_lines
from tests import shared

MAPPED = [g for g in names() if get_spec(g).map is not None]
UNMAPPED = [g for g in names() if get_spec(g).map is None]
CELLS = 1500  # cells checked per map (a random sample beyond)


def decision(advisor, rng: random.Random, steps: int):
    """A decision reached from the start by ``steps`` random outcomes and actions (fewer where the game ends)."""
    g = advisor.game
    state = g.initial_state()
    for _ in range(steps):
        if g.is_terminal(state):
            break
        options = g.options(state)
        state = g.apply(state, rng.choice(options))
    while g.is_terminal(state) or g.to_move(state) == CHANCE:
        state = g.initial_state() if g.is_terminal(state) else g.apply(state, rng.choice(g.options(state)))
    return state


def at(data, path, seat):
    for p in path[:-1]:
        data = data[seat if p == MOVER else 1 - seat if p == OTHER else p]
    return data, seat if path[-1] == MOVER else 1 - seat if path[-1] == OTHER else path[-1]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return {game: shared.small(tmp_path_factory, game) for game in MAPPED}


def test_some_games_have_a_map():
    assert {"pig"} <= set(MAPPED) and UNMAPPED


@pytest.mark.parametrize("game", MAPPED)
def test_every_cell_is_the_advisors_answer(game, built):
    spec = get_spec(game)
    rng = random.Random(game)
    for setup in spec.setups(built[game])[:4]:
        advisor = open_setup(game, setup, built[game])
        g = advisor.game
        state = decision(advisor, rng, rng.randrange(12))
        m = strategy_map(advisor, state, spec.map)
        seat = g.to_move(state)
        assert m.seat == seat and (m.rows, m.columns) == (spec.map.y.values(g), spec.map.x.values(g))
        assert len(m.action) == len(m.rows) and {len(r) for r in m.action + m.value + m.several} == {len(m.columns)}
        names_ = [name for _, name in m.actions]
        assert len(set(names_)) == len(names_) and all(isinstance(n, str) and n for n in names_)
        i, j = m.at
        assert m.value[i][j] == advisor.value(state, seat)
        assert m.actions[m.action[i][j]][0] == g.action_json(state, advisor.decide(state))
        cells = [(i, j) for i in range(len(m.rows)) for j in range(len(m.columns))]
        decisions, sample = 0, rng.sample(cells, min(CELLS, len(cells)))
        for i, j in sample:
            data = g.state_json(state)
            for axis, v in ((spec.map.y, m.rows[i]), (spec.map.x, m.columns[j])):
                holder, key = at(data, axis.path, seat)
                holder[key] = v
            try:
                cell = g.parse_state(json.loads(json.dumps(data)))
            except ValueError:
                cell = None
            if cell is None or g.is_terminal(cell) or g.to_move(cell) != seat:
                assert (m.action[i][j], m.value[i][j], m.several[i][j]) == (None, None, False), (setup, data)
                continue
            decisions += 1
            assert m.actions[m.action[i][j]][0] == g.action_json(cell, advisor.decide(cell)), (setup, data)
            assert m.value[i][j] == advisor.value(cell, seat), (setup, data)
            assert m.several[i][j] == (len(advisor.best_actions(cell)) > 1 or len(advisor.policy(cell)) > 1)
        assert decisions > len(sample) // 10, f"{game} {setup}: {decisions} decisions among the cells checked"
        lines = map_lines(m)
        assert len(lines) == len(m.rows) + 1 and any(n in lines[1 + m.at[0]] for n in names_)


@pytest.mark.parametrize("game", MAPPED)
def test_no_map_at_chance_or_at_the_end(game, built):
    spec = get_spec(game)
    advisor = open_setup(game, spec.setups(built[game])[0], built[game])
    g, rng = advisor.game, random.Random(1)
    state = g.initial_state()
    while not g.is_terminal(state):
        if g.to_move(state) == CHANCE:
            with pytest.raises(ValueError, match="a map is drawn at a decision; here chance moves"):
                strategy_map(advisor, state, spec.map)
        state = g.apply(state, rng.choice(g.options(state)))
    with pytest.raises(ValueError, match="the game is over"):
        strategy_map(advisor, state, spec.map)


@pytest.mark.parametrize("game", UNMAPPED[:1])
def test_a_game_without_a_map_says_so(game, tmp_path):
    result = CliRunner().invoke(main, [game, "map", "--artifacts", str(tmp_path)])
    assert result.exit_code != 0 and f"{game} has no map" in result.output + str(result.exception)


@pytest.mark.parametrize("game", MAPPED)
def test_the_command_line_answers_the_librarys_map_and_draws_it(game, built, tmp_path):
    spec = get_spec(game)
    setup = spec.setups(built[game])[0]
    args = [game, "map", "--artifacts", str(built[game])] + [f"--setup={k}={json.dumps(v)}" for k, v in
                                                                   setup.items()]
    result = CliRunner().invoke(main, [*args, "--json", "--plot", str(tmp_path / "map.png")])
    assert result.exit_code == 0, result.output
    got = json.loads(result.output)
    advisor = open_setup(game, setup, built[game])
    g = advisor.game
    assert got["game"] == game and got["seat"] == 0 and got["actions"]
    start = g.initial_state()  # the map is drawn at its first decision: after the first outcome that leaves one
    first = start if g.to_move(start) != CHANCE else next(
        s for s in (g.apply(start, o) for o, _ in g.chance_outcomes(start)) if g.to_move(s) != CHANCE)
    assert got == json.loads(json.dumps(strategy_map(advisor, first, spec.map).as_dict()))
    assert (tmp_path / "map.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0 and text.output.splitlines()[0].startswith("player 1 to move")
