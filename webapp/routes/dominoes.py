"""Dominoes routes: a player's decision from what it has seen (``lookup.dominoes.move_values``: its hand, every
move so far), the question of a real table; and the opponent models and players it may assume. A game is played
through the protocol's routes (``webapp/routes/games.py``) like every game's."""

from __future__ import annotations

from fastapi import APIRouter

from lookup.dominoes import MAX_DEPTH, MODEL_NAMES, PLAYERS, move_values
from lookup.validate import integer
from webapp.common import StrictModel

router = APIRouter(prefix="/api/dominoes", tags=["dominoes"])

# Search bounds of one request: the command line's defaults (depth 3, 8 samples, 200 exact hands, endgame 2)
# are also the most a request may ask. A decision then takes 0.15 s on average and at most ~1.5 s in plain
# Python (whole games against greedy, both seats, 4 deals, on the shared machine); lookup's own defaults (16
# samples, 2000 exact hands) took up to 4.3 s. No adaptive budget: fixed depths only. The depth's limit is the
# library's (lookup.dominoes.MAX_DEPTH), the same on the command line.
MAX_SAMPLES = 8
MAX_EXACT = 200
MAX_ENDGAME = 2
MAX_MOVES = 120  # a game has at most 28 placements, 14 draws and its passes: far fewer tokens than this


class Search(StrictModel):
    """The player's settings (docs/dominoes.md, "The players"): predictive (assumes ``model``), realistic
    or bayesian (over every model); placements searched ``depth`` deep, ``samples`` opponent hands drawn per
    model when more than ``max_exact`` are consistent, search to the end with at most ``endgame`` tiles in
    the boneyard; ``seed`` seeds the search's draws."""

    player: str = "realistic"
    model: str | None = None
    depth: int = MAX_DEPTH
    samples: int = MAX_SAMPLES
    max_exact: int = MAX_EXACT
    endgame: int = MAX_ENDGAME
    seed: int = 0


class Decision(Search):
    """hand: the player's 7 dealt tiles ("6-6"); history: every move so far in turn order ("6-6", "6-3R",
    "draw", "pass"; the player's own draws as "draw:2-4"); seat: 0 opened, 1 moved second."""

    hand: list[str]
    history: list[str]
    seat: int


def _options(hand: list[str], history: list[str], seat: int, s: Search) -> list[dict[str, object]]:
    """Every legal move of the player with its value (expected result for the player: +1 win, 0 draw, -1
    loss) and whether it is the advised one (the first of highest value, in the documented order)."""
    if len(history) > MAX_MOVES:
        raise ValueError(f"history: at most {MAX_MOVES} moves, got {len(history)}")
    values = move_values(hand, history, seat, player=s.player, model=s.model,
                         depth=integer(s.depth, "depth", 1, MAX_DEPTH),
                         samples=integer(s.samples, "samples", 1, MAX_SAMPLES),
                         max_exact=integer(s.max_exact, "max_exact", 0, MAX_EXACT),
                         endgame=integer(s.endgame, "endgame", -1, MAX_ENDGAME), seed=s.seed)
    best = max(v for _, v in values)
    advised = next(m for m, v in values if v == best)
    return [{"move": m, "value": v, "best": m == advised} for m, v in values]


@router.get("/models")
def models_route() -> dict[str, list[str]]:
    """The opponent models a game can be played against, and the players that can advise."""
    return {"models": list(MODEL_NAMES), "players": list(PLAYERS)}


@router.post("/decide")
def decide_route(q: Decision) -> dict[str, object]:
    """Every legal move of ``seat`` after ``history`` with its value for that player, and the advised move."""
    options = _options(q.hand, q.history, q.seat, q)
    return {"options": options, "move": next(o["move"] for o in options if o["best"])}
