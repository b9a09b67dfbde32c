"""A game's strategy as a map: the tables' action and the mover's value over two coordinates of a position, the
rest of the position held. Written once on the protocol (``lookup.protocol``): a game declares which coordinates
(``GameSpec.map``, a ``lookup.games.MapSpec``) and gets the map in the library, on the command line
(``dicetables GAME map``) and on the page, with no code of its own for them.

A map is drawn at a decision: the seat to move there (``seat``) is the seat whose action and value every cell
shows. Each cell is the position with the two coordinates set, read by the game's own ``parse_state`` (so a cell
the rules cannot have, such as a turn total past the target, is refused there and left empty, as is a cell where
the game is over or another seat or chance is to move).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass

from lookup.games import MOVER, OTHER, Axis, MapSpec
from lookup.protocol import CHANCE, JSON, Advisor, Game, State
from lookup.words import counted

MAX_CELLS = 40_000  # cells one map may have: a map costs tens of microseconds a cell


@dataclass(frozen=True)
class StrategyMap:
    """The map at one decision. seat: the seat to move, whose action and value every cell shows; rows / columns:
    the values of ``y`` / ``x`` (ranges); actions: the actions the map shows, in the game's order (JSON, and a
    name: the JSON when it is a word, else the action in words); action[i][j]: the index in ``actions`` of the
    tables' action at row i, column j (None: no decision of ``seat`` there); several[i][j]: more than one action is
    optimal there (ties, or a mixed strategy); value[i][j]: the seat's value there, in the game's unit; at: the
    cell of the position the map was drawn at."""

    game: str
    unit: str
    higher_is_better: bool
    seat: int
    y: Axis
    x: Axis
    rows: range
    columns: range
    actions: tuple[tuple[JSON, str], ...]
    action: tuple[tuple[int | None, ...], ...]
    several: tuple[tuple[bool, ...], ...]
    value: tuple[tuple[float | None, ...], ...]
    at: tuple[int, int] | None

    def as_dict(self) -> dict[str, JSON]:
        """The JSON of the map (``dicetables GAME map --json`` and ``POST /api/games/GAME/map``): each axis as
        {label, start, step, count}, the rest as the fields above."""
        def axis(a: Axis, r: range) -> dict[str, JSON]:
            return {"label": a.label, "start": r.start, "step": r.step, "count": len(r)}

        return {"game": self.game, "unit": self.unit, "higher": self.higher_is_better, "seat": self.seat,
                "y": axis(self.y, self.rows), "x": axis(self.x, self.columns),
                "actions": [{"action": a, "name": t} for a, t in self.actions], "action": self.action,
                "several": self.several, "value": self.value, "at": self.at}


def _resolve(path: tuple[str | int, ...], seat: int) -> list[str | int]:
    return [seat if p == MOVER else 1 - seat if p == OTHER else p for p in path]


def _get(data: JSON, path: list[str | int]) -> JSON:
    for p in path:
        data = data[p]
    return data


def _set(data: JSON, path: list[str | int], value: int) -> None:
    for p in path[:-1]:
        data = data[p]
    data[path[-1]] = value


def _seat(game: Game, state: State) -> int:
    """The seat to move at ``state``; ValueError where no map is drawn (chance moves, or the game is over)."""
    if game.is_terminal(state) or game.to_move(state) == CHANCE:
        raise ValueError(f"{game.name}: a map is drawn at a decision; here "
                         f"{'the game is over' if game.is_terminal(state) else 'chance moves'}")
    return game.to_move(state)


def held(game: Game, state: State, spec: MapSpec) -> str:
    """What a map drawn at ``state`` depends on besides the setup: the position's JSON with the two coordinates left
    out (a key for a cache of maps: the same map is drawn at every position that differs only in them); ValueError
    where no map is drawn."""
    data = copy.deepcopy(game.state_json(state))
    seat = _seat(game, state)
    for axis in (spec.y, spec.x):
        _set(data, _resolve(axis.path, seat), None)
    return json.dumps([seat, data], sort_keys=True)


def strategy_map(advisor: Advisor, state: State, spec: MapSpec) -> StrategyMap:
    """The map of ``spec`` (``lookup.games.game_map``) at ``state``, a decision (ValueError otherwise, or for a map
    of more than ``MAX_CELLS`` cells)."""
    game: Game = advisor.game
    seat = _seat(game, state)
    rows, columns = spec.y.values(game), spec.x.values(game)
    if len(rows) * len(columns) > MAX_CELLS:
        raise ValueError(f"{game.name}: a map of {len(rows)} x {len(columns)} cells; at most "
                         f"{counted(MAX_CELLS, 'cell')} are drawn")
    template = game.state_json(state)
    ypath, xpath = _resolve(spec.y.path, seat), _resolve(spec.x.path, seat)
    seen: dict[JSON, int] = {}
    action, several, value = [], [], []
    for y in rows:
        acts, ties, vals = [], [], []
        for x in columns:
            data = copy.deepcopy(template)
            _set(data, ypath, y)
            _set(data, xpath, x)
            try:
                cell = game.parse_state(data)
            except ValueError:  # a position the rules cannot have
                cell = None
            if cell is None or game.is_terminal(cell) or game.to_move(cell) != seat:
                acts.append(None), ties.append(False), vals.append(None)
                continue
            acts.append(seen.setdefault(advisor.decide(cell), len(seen)))
            ties.append(len(advisor.best_actions(cell)) > 1 or len(advisor.policy(cell)) > 1)
            vals.append(advisor.value(cell, seat))
        action.append(acts), several.append(ties), value.append(vals)
    # The legend in the game's order of the actions (the order at the position the map is drawn at, then the rest).
    legal = game.legal_actions(state)
    order = sorted(seen, key=lambda a: (legal.index(a) if a in legal else len(legal), seen[a]))
    new = {seen[a]: k for k, a in enumerate(order)}
    return StrategyMap(game.name, game.unit.name, game.unit.higher_is_better, seat, spec.y, spec.x, rows, columns,
                       tuple(_named(game, state, a) for a in order),
                       tuple(tuple(None if a is None else new[a] for a in r) for r in action),
                       tuple(map(tuple, several)), tuple(map(tuple, value)), cell_of(game, state, spec))


def _named(game: Game, state: State, action: JSON) -> tuple[JSON, str]:
    """An action's JSON and its name in a legend: the JSON itself when it is a word ("roll", "hold"), else the words
    of the action at the map's position (its words may say more of that position: "holds (banks 20)")."""
    data = game.action_json(state, action)
    return data, data if isinstance(data, str) else game.action_text(state, action)


def cell_of(game: Game, state: State, spec: MapSpec) -> tuple[int, int] | None:
    """The (row, column) of ``state`` in its map; None where a coordinate is off the axes; ValueError where no map
    is drawn."""
    data, seat = game.state_json(state), _seat(game, state)
    y, x = (_get(data, _resolve(a.path, seat)) for a in (spec.y, spec.x))
    rows, columns = spec.y.values(game), spec.x.values(game)
    return (rows.index(y), columns.index(x)) if y in rows and x in columns else None
