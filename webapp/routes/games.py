"""The routes every registered game gets from the protocol (``lookup.protocol``, ``lookup.games``), written once:
the page's game list (its tabs), and for a game record (the JSON of ``lookup.records``, the same as the command
line's) the advice at its end, the game played on to the player's next decision, the cost of one decision, the
review of the whole game, and seeded simulations. Stateless: the page sends the record every time.

    GET  /api/games                  every registered game, its setup options and the setups built here
    POST /api/games/{game}/advise    {record}: the position at its end, every option's value, the advice
    POST /api/games/{game}/play      {record, seat, opponent, seed, draw}: chance and the other seats played on
    POST /api/games/{game}/judge     {record, action}: what that decision at the record's end costs
    POST /api/games/{game}/review    {record, seat}: each decision's cost and each event's luck
    POST /api/games/{game}/simulate  {setup, players, games, seed, swap}: means and intervals
    POST /api/games/{game}/map       {record}: the strategy over two coordinates at its end (a game with a map)
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends

from lookup.advice import advice
from lookup.games import game_map, get_spec, names, open_setup, served_setup
from lookup.maps import cell_of, held, strategy_map
from lookup.opponents import MODELS
from lookup.protocol import CHANCE, JSON, Advisor
from lookup.records import GameRecord, Step, parse_record, record_of, replay, step_texts
from lookup.review import judge, review
from lookup.simulate import draw, player, simulate
from lookup.validate import integer
from lookup.validate import seed as validate_seed
from webapp.common import STATIC, StrictModel, artifacts_dir

router = APIRouter(prefix="/api/games", tags=["games"])
Artifacts = Annotated[Path, Depends(artifacts_dir)]
MAX_SIMULATED = 20_000  # games one request may simulate
SIMULATE_BUDGET = 5.0  # seconds of play one request may take (a ValueError past them: lookup.simulate)
MAPS_KEPT = 32  # maps kept for the next position that differs only in the map's coordinates (one costs up to 1 s)
_MAPS: dict[tuple[str, ...], dict[str, Any]] = {}


class RecordBody(StrictModel):
    """record: a game record (``lookup.records``: game, setup, events; the game's name must be the route's)."""

    record: dict[str, Any]


class PlayBody(RecordBody):
    """seat: the player's seat (0 = the first player); opponent: who plays the other seats ("table", the tables'
    play, an opponent model: random, first, last, ..., or "none": nobody, play stops at their decisions too, which
    the page then enters); seed: the draws of chance and of a model (the record's length picks the draw, so the
    same record and seed always continue the same way); draw: false stops at chance nodes too (the dice of a real
    table, entered on the page)."""

    seat: int = 0
    opponent: str = "table"
    seed: int = 0
    draw: bool = True


class JudgeBody(RecordBody):
    """action: the decision about to be played at the record's end, as the game writes it."""

    action: JSON


class ReviewBody(RecordBody):
    """seat: the seat whose decisions are judged (default: the record's, else 0)."""

    seat: int | None = None


class SimulateBody(StrictModel):
    """setup: the game's setup; players: who plays each seat ("table" or an opponent model); games, seed, swap
    (two seats: every seed played twice, the players exchanged)."""

    setup: dict[str, Any] = {}
    players: list[str] | None = None
    games: int = 1000
    seed: int = 0
    swap: bool = False


def _record(game: str, record: dict[str, Any]) -> GameRecord:
    parsed = parse_record(record)
    if parsed.game != game:
        raise ValueError(f"the record is a {parsed.game!r} game, not {game!r}")
    return parsed


def _advisor(game: str, setup: dict[str, Any] | None, root: Path) -> Advisor:
    """The advisor of ``setup`` within what the server answers (``served_setup``)."""
    return open_setup(game, served_setup(game, setup), root)


def _opened(game: str, record: dict[str, Any], root: Path) -> tuple[Advisor, GameRecord, list[Step], Any]:
    parsed = _record(game, record)
    advisor = _advisor(game, parsed.setup, root)
    steps, state = replay(advisor.game, parsed.events, parsed.start)
    return advisor, parsed, steps, state


@router.get("")
def games_route(root: Artifacts) -> dict[str, list[dict[str, Any]]]:
    """Every registered game: its name, title, rules in a sentence, setup options, the setups built here, and
    whether the page has a view of its own for it (``view``) or shows it through the one for every game, and whether
    that view has a game's extra picture (``extra``: ``js/extras/<game>.js``, a board) and a map of its strategy
    (``map``: ``POST /{game}/map``)."""
    out = []
    for name in names():
        spec = get_spec(name)
        out.append({"name": name, "title": spec.title, "summary": spec.summary,
                    "options": {k: {"default": o.default, "help": o.help, "choices": list(o.choices), "free": o.free}
                                for k, o in spec.options.items()},
                    "setups": spec.setups(root), "view": (STATIC / "js" / f"{name}.js").is_file(),
                    "map": spec.map is not None,
                    "extra": (STATIC / "js" / "extras" / f"{name}.js").is_file()})
    return {"games": out}


@router.post("/{game}/advise")
def advise_route(game: str, q: RecordBody, root: Artifacts) -> dict[str, Any]:
    """The position at the record's end: every option's value for the seat to move (or chance's outcomes), the
    advice (``lookup.advice``), each event of the record in words (``log``; the position's ``text`` and the events
    as the record's seat was shown them, where it names one: a hidden hand stays hidden until the end), and what
    the page needs to show them: the number of seats, whether chance may move (``chance``), the unit's sentence
    (``unit_text``), its decimals (``digits``) and direction (``higher``), and who may play the other seats
    (``opponents``: "table", unless the tables do not play them (``Advisor.plays_others``: their moves are
    entered), and the models that apply)."""
    advisor, parsed, steps, state = _opened(game, q.record, root)
    g = advisor.game
    seat = None if parsed.seat is None else integer(parsed.seat, "the record's seat", 0, g.seats - 1)
    texts = step_texts(g, steps, seat, g.is_terminal(state))
    return {**advice(advisor, state, seat), "log": [{"mover": s.mover, "text": t} for s, t in zip(steps, texts,
                                                                                                  strict=True)],
            "seats": g.seats, "chance": g.has_chance, "unit_text": g.unit.text, "digits": g.unit.digits,
            "higher": g.unit.higher_is_better,
            "opponents": ["table"] * advisor.plays_others + [n for n, m in MODELS.items() if m.applies_to(g)]}


@router.post("/{game}/play")
def play_route(game: str, q: PlayBody, root: Artifacts) -> dict[str, Any]:
    """The record played on from its end until ``seat`` must decide or the game is over: chance drawn (unless
    ``draw`` is false: then it stops at a chance node too), the other seats played by ``opponent`` ("none": it
    stops at their decisions too); returns the longer record and the advice at its end (as ``/advise``)."""
    advisor, parsed, steps, state = _opened(game, q.record, root)
    g = advisor.game
    seat = integer(q.seat, "seat", 0, g.seats - 1)
    seed = validate_seed(q.seed)
    others = None if q.opponent == "none" else player(advisor, q.opponent)
    while not g.is_terminal(state) and (mover := g.to_move(state)) != seat:
        if (mover == CHANCE and not q.draw) or (mover != CHANCE and others is None):
            break  # entered on the page
        rng = random.Random(f"{seed}:{len(steps)}")  # the same record and seed: the same draw
        action = draw(g.chance_outcomes(state), rng) if mover == CHANCE else others(state, rng)
        after = g.apply(state, action)
        steps.append(Step(len(steps) + 1, state, mover, action, after))
        state = after
    record = record_of(g, parsed.setup, steps, parsed.start, seat).to_dict()
    return {**advise_route(game, RecordBody(record=record), root), "record": record}


@router.post("/{game}/judge")
def judge_route(game: str, q: JudgeBody, root: Artifacts) -> dict[str, Any]:
    """What ``action`` costs the seat to move at the record's end, in the game's unit, against the best one."""
    advisor, _, steps, state = _opened(game, q.record, root)
    return judge(advisor, state, advisor.game.parse_action(state, q.action), len(steps) + 1).as_dict()


@router.post("/{game}/review")
def review_route(game: str, q: ReviewBody, root: Artifacts) -> dict[str, Any]:
    """Each decision's cost and each event's luck for ``seat``, the totals, the cost per decision."""
    parsed = _record(game, q.record)
    return review(_advisor(game, parsed.setup, root), parsed, q.seat).as_dict()


@router.post("/{game}/simulate")
def simulate_route(game: str, q: SimulateBody, root: Artifacts) -> dict[str, Any]:
    """Seeded games between the tables and opponent models (at most ``MAX_SIMULATED``, and at most
    ``SIMULATE_BUDGET`` seconds of play: a game costs from microseconds to seconds, the search-based ones most),
    with the tables' exact value from the start beside the means."""
    advisor = _advisor(game, q.setup, root)
    games = integer(q.games, "games", 1, MAX_SIMULATED)
    names_ = q.players or ["table"] * advisor.game.seats
    result = simulate(advisor, names_, games, validate_seed(q.seed), q.swap, budget=SIMULATE_BUDGET)
    start = advisor.game.initial_state()
    return {**result.as_dict(), "exact_table_values": [advisor.value(start, s) for s in range(advisor.game.seats)]}


@router.post("/{game}/map")
def map_route(game: str, q: RecordBody, root: Artifacts) -> dict[str, Any]:
    """The map of the strategy at the record's end, a decision (``lookup.maps``): the tables' action and the mover's
    value over the game's two coordinates, the rest of the position held, and ``at``: the position's cell. Kept
    for the next position that differs only in the two coordinates."""
    spec = game_map(game)
    advisor, parsed, _, state = _opened(game, q.record, root)
    g = advisor.game
    key = (game, json.dumps(served_setup(game, parsed.setup), sort_keys=True), held(g, state, spec), str(root))
    found = _MAPS.get(key)
    if found is None:
        found = _MAPS[key] = strategy_map(advisor, state, spec).as_dict()
        if len(_MAPS) > MAPS_KEPT:
            _MAPS.pop(next(iter(_MAPS)), None)  # the oldest
    return {**found, "at": cell_of(g, state, spec)}
