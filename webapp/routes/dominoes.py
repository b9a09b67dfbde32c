"""Dominoes routes: a player's decision from what it has seen (``lookup.dominoes.move_values``: its hand, every
move so far), and a game against an opponent model, stateless: the page sends the deal's seed and every move so
far, the server deals again (``lookup.dominoes.deal``), plays the model's replies and advises the player."""

from __future__ import annotations

from fastapi import APIRouter

from lookup.dominoes import GAME, MAX_DEPTH, MODEL_NAMES, PLAYERS, State, move_name, move_values, parse_move, tile_name
from lookup.dominoes.rules import tiles_of
from lookup.validate import choice, integer
from webapp.common import StrictModel
from webapp.opponent import model_move

router = APIRouter(prefix="/api/dominoes", tags=["dominoes"])

# Search bounds of one request: the command line's defaults (depth 3, 8 samples, 200 exact hands, endgame 2)
# are also the most a request may ask. A decision then takes 0.15 s on average and at most ~1.5 s in plain
# Python (whole games against greedy, both seats, 4 deals, on the shared machine); lookup's own defaults (16
# samples, 2000 exact hands) took up to 4.3 s. No adaptive budget: fixed depths only. The depth's limit is the
# library's (lookup.dominoes.MAX_DEPTH), the same on the command line.
MAX_SAMPLES = 8
MAX_EXACT = 200
MAX_ENDGAME = 2
MAX_DEAL = 2**62  # the deals lookup.dominoes.deal numbers
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


class Play(StrictModel):
    """A game against ``model`` on the deal of ``deal`` (the same deal for the same number): ``you`` the
    seat of the player (0 opens); moves: every move so far, both players', in turn order ("6-6", "6-3R",
    "draw", "pass"); ``player``: how the advice plays (see Search); its search keeps lookup's defaults."""

    deal: int
    you: int = 0
    model: str = "random"
    moves: list[str]
    player: str = "realistic"


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


def _replay(start: State, moves: list[str]) -> State:
    """The state after ``moves``; ValueError naming the first move the rules refuse."""
    if len(moves) > MAX_MOVES:
        raise ValueError(f"moves: at most {MAX_MOVES} moves, got {len(moves)}")
    state = start
    for i, token in enumerate(moves):
        if GAME.is_terminal(state):
            raise ValueError(f"move {i + 1} ({token!r:.20}): the game is already over")
        try:
            state = GAME.apply(state, parse_move(token, opening=state.left < 0))
        except ValueError as exc:
            raise ValueError(f"move {i + 1}: {exc}") from None
    return state


def _history(state: State, seat: int) -> list[str]:
    """The moves as ``seat`` saw them: its own draws with the tile ("draw:2-4"), the other's without."""
    drawn = iter(state.drew[seat])
    return [f"draw:{tile_name(next(drawn))}" if p == seat and move_name(m) == "draw" else move_name(m)
            for p, m in state.log]


@router.post("/play")
def play_route(q: Play) -> dict[str, object]:
    """The game after ``moves`` and the model's replies (played while it is the model's turn): the line, the
    player's hand, the other's hand size, the boneyard's size, every move as the player saw it; on the
    player's turn every legal move's value for the player and the advised move; at the end the result and
    the other's hand."""
    you = integer(q.you, "you", 0, 1)
    model = choice(q.model, "model", MODEL_NAMES)
    start = GAME.deal(integer(q.deal, "deal", 0, MAX_DEAL))
    state = _replay(start, q.moves)
    moves = list(q.moves)
    while not GAME.is_terminal(state) and state.to_move != you:
        m = model_move(GAME, state, model, q.deal, len(moves))
        moves.append(move_name(m))
        state = GAME.apply(state, m)
    history = _history(state, you)
    hand = [tile_name(t) for t in tiles_of(start.hands[you])]
    out: dict[str, object] = {
        "moves": moves, "you": you, "model": model, "line": [list(t) for t in state.line],
        "hand": [tile_name(t) for t in tiles_of(state.hands[you])], "dealt": hand, "history": history,
        "log": [{"player": "you" if p == you else "model", "move": h} for (p, _), h in zip(state.log, history,
                                                                                          strict=True)],
        "opponent_tiles": len(tiles_of(state.hands[1 - you])), "boneyard": len(state.boneyard),
        "over": GAME.is_terminal(state)}
    if out["over"]:
        r = GAME.returns(state)[you]
        out["result"] = "win" if r > 0 else "loss" if r < 0 else "draw"
        out["opponent_hand"] = [tile_name(t) for t in tiles_of(state.hands[1 - you])]
        return out
    out["options"] = _options(hand, history, you, Search(player=choice(q.player, "player", PLAYERS),
                                                          model=model))
    return out
