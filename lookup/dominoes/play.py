"""A player's decision from what it has seen: its hand, every move so far (the other player's draws
without the tile), and its opponent models.

The hidden hand is handled explicitly (``engine.hand_weights``): every opponent hand consistent with
the observed history is listed and weighed exactly when there are at most ``max_exact`` of them, otherwise
``samples`` consistent hands are drawn per model; together they are searched ``depth`` placements deep
over the player's information sets (``engine.belief_search``).
This runs the engine as plain Python: one decision takes from milliseconds to a few seconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from lookup.dominoes import engine as E
from lookup.dominoes.rules import hand_mask, move_name, parse_move, parse_tile, tile_name
from lookup.naming import by_name
from lookup.validate import integer, shown

MODEL_NAMES = tuple(E.MODEL_CODES)  # random, first, last, strong, greedy
PLAYERS = tuple(E.PLAYER_CODES)  # predictive, realistic, bayesian


@dataclass
class View:
    """The player's bookkeeping after replaying a history (with the player's settings, all that
    ``engine.move_values`` reads)."""

    seat: int
    hand: int
    board: int
    left: int
    right: int
    to_move: int
    passes: int
    drawn: int
    boneyard_size: int
    opponent_tiles: int
    events: np.ndarray
    n_events: int
    over: bool
    tiles: int = E.ALL_TILES  # the set played (a reduced instance plays fewer tiles)

    @property
    def unknown(self) -> int:
        """Tiles the player has not seen: the opponent's hand and the boneyard."""
        return self.tiles & ~self.hand & ~self.board


def _listlike(value: object) -> bool:
    """Iterable, and not a 0-d numpy array (an ndarray says it is iterable, then refuses with a TypeError)."""
    return isinstance(value, Iterable) and not (isinstance(value, np.ndarray) and value.ndim == 0)


def _tokens(history: str | Iterable[str]) -> list[str]:
    if isinstance(history, str):
        return history.split()
    if not _listlike(history):
        raise ValueError(f"history must be a string of moves or a list of them, got {type(history).__name__}")
    return [str(t) for t in history]


def _settings(player: str, model: str | None, models: Sequence[str] | None) -> tuple[int, np.ndarray, np.ndarray]:
    kind = by_name(E.PLAYER_CODES, player, "dominoes player")
    if kind == E.PREDICTIVE:
        if model is None:
            raise ValueError("a predictive player needs model=... (the one opponent model it assumes)")
        names = [model]
    else:
        if models is not None and not _listlike(models):
            raise ValueError(f"models must be a list of opponent model names, got {type(models).__name__}")
        names = list(models) if models is not None else list(MODEL_NAMES)
        if not names:
            raise ValueError(f"a {player} player needs at least one opponent model")
    mk = np.array([by_name(E.MODEL_CODES, n, "opponent model") for n in names], np.int64)
    w = np.ones(len(mk)) / (len(mk) if kind == E.BAYESIAN else 1)
    return kind, mk, w


def replay(hand: Iterable[str | int], history: str | Iterable[str], seat: int, *, player: str = "realistic",
           model: str | None = None, models: Sequence[str] | None = None) -> View:
    """Replay ``history`` (move tokens in turn order: ``"6-6"``, ``"6-3R"``, ``"draw"``, ``"pass"``; the
    player's own draws as ``"draw:2-4"``) from the view of ``seat`` holding ``hand`` (its 7 dealt tiles).
    ValueError naming the first move that the rules refuse (an illegal move of the player, an opponent
    tile the player holds or that is on the line, a draw from an empty boneyard or a second draw in a
    turn, a pass before drawing, a move after the end) or a history no opponent hand can explain."""
    seat = integer(seat, "seat", 0, 1)
    _settings(player, model, models)  # refuses an unknown player or model before the history is read
    # A list, tuple or set, not any iterable: a string or a dict would be read one character or key at a time,
    # and the length is checked before a tile is read (a million-item list is refused at once).
    if isinstance(hand, np.ndarray) and hand.ndim == 1:
        hand = hand.tolist()
    if not isinstance(hand, list | tuple | set | frozenset) or len(hand) != E.HAND_SIZE:
        got = f"{len(hand)} tiles" if isinstance(hand, list | tuple | set | frozenset) else type(hand).__name__
        raise ValueError(f"hand must be a list of the {E.HAND_SIZE} dealt tiles ('a-b' or tile indices), got {got}")
    my_hand = hand_mask(hand)
    if E.popcount(my_hand) != E.HAND_SIZE:
        raise ValueError(f"hand: expected {E.HAND_SIZE} dealt tiles, got {E.popcount(my_hand)}")
    return replay_tokens(my_hand, _tokens(history), seat)


def replay_tokens(my_hand: int, tokens: Sequence[str], seat: int, tiles: int = E.ALL_TILES,
                  hand_size: int = E.HAND_SIZE) -> View:
    """``replay`` of checked arguments: ``my_hand`` the seat's dealt tiles (a mask of ``hand_size`` tiles of the set
    ``tiles``: a reduced instance plays fewer), ``tokens`` the history's moves."""
    v = View(seat, my_hand, 0, -1, -1, 0, 0, -1, E.popcount(tiles) - 2 * hand_size, hand_size,
             np.zeros((E.HISTORY_ROWS, 6), np.int64), 0, False, tiles)
    moves = np.empty(E.MAX_MOVES, np.int64)
    for i, token in enumerate(tokens):
        _replay_one(v, token, i + 1, moves)
    _check_history(v)
    return v


def extend(v: View, token: str, index: int) -> View:
    """A copy of view ``v`` with one more move of the history replayed (``token``, move ``index`` counted from 1, as
    ``replay`` reads it); ValueError as ``replay`` names a move the rules refuse. ``v`` is left as it was."""
    v = replace(v, events=v.events.copy())
    _replay_one(v, token, index, np.empty(E.MAX_MOVES, np.int64))
    _check_history(v)
    return v


def _replay_one(v: View, token: str, index: int, moves: np.ndarray) -> None:
    where = f"history move {index} ({shown(token)})"
    if v.over:
        raise ValueError(f"{where}: the game is already over")
    if v.to_move == v.seat:
        _my_move(v, token, where, moves)
    else:
        _their_move(v, token, where)


def _my_move(v: View, token: str, where: str, moves: np.ndarray) -> None:
    n = E.legal_into(v.hand, v.left, v.right, v.drawn, v.boneyard_size, moves)
    legal = [int(m) for m in moves[:n]]
    if token.lower().startswith("draw"):
        if legal != [E.DRAW]:
            raise ValueError(f"{where}: drawing is not legal (legal: {', '.join(move_name(m) for m in legal)})")
        if ":" not in token:
            raise ValueError(f"{where}: say which tile you drew ('draw:2-4')")
        t = parse_tile(token.split(":", 1)[1])
        if not (v.unknown >> t & 1):
            raise ValueError(f"{where}: tile {tile_name(t)} cannot be in the boneyard (you hold it or it is placed)")
        v.hand |= 1 << t
        v.drawn = t
        v.boneyard_size -= 1
        return
    move = parse_move(token, opening=v.left < 0)
    if move not in legal:
        raise ValueError(f"{where}: not a legal move (legal: {', '.join(move_name(m) for m in legal)})")
    _apply(v, move, v.seat)


def _their_move(v: View, token: str, where: str) -> None:
    low = token.lower()
    if low == "draw":
        if v.drawn >= 0:
            raise ValueError(f"{where}: a player draws at most once a turn")
        if v.boneyard_size == 0:
            raise ValueError(f"{where}: the boneyard is empty")
        if v.left < 0:
            raise ValueError(f"{where}: the opening player places a tile, it does not draw")
        move = E.DRAW
    elif low == "pass":
        if v.drawn < 0 and v.boneyard_size > 0:
            raise ValueError(f"{where}: a player passes only after drawing, or with an empty boneyard")
        move = E.PASS
    else:
        move = parse_move(token, opening=v.left < 0)
        t = move >> 1
        if not (v.unknown >> t & 1):
            raise ValueError(f"{where}: the opponent cannot hold {tile_name(t)} (you hold it or it is placed)")
        moves = np.empty(E.MAX_MOVES, np.int64)
        n = E.legal_into(1 << t, v.left, v.right, -1, v.boneyard_size, moves)
        if move not in [int(m) for m in moves[:n]]:
            raise ValueError(f"{where}: {tile_name(t)} does not go there (ends {v.left} and {v.right})")
    drawn = v.drawn if v.drawn >= 0 else -1
    if v.n_events >= E.HISTORY_ROWS:
        raise ValueError(f"{where}: more opponent moves than a game can have")
    E.record(v.events, v.n_events, move, drawn, v.left, v.right, v.board, v.boneyard_size)
    v.n_events += 1
    _check_history(v)
    if move == E.DRAW:
        v.drawn = E.N_TILES  # drew a tile the player does not see
        v.boneyard_size -= 1
        v.opponent_tiles += 1
        return
    _apply(v, move, 1 - v.seat)


def _apply(v: View, move: int, mover: int) -> None:
    if move == E.PASS:
        v.passes += 1
    else:
        v.left, v.right = (int(x) for x in E.place(move, v.left, v.right))
        v.board |= 1 << (move >> 1)
        v.passes = 0
        if mover == v.seat:
            v.hand &= ~(1 << (move >> 1))
        else:
            v.opponent_tiles -= 1
    v.drawn = -1
    v.to_move = 1 - mover
    v.over = v.hand == 0 or v.opponent_tiles == 0 or v.passes >= E.PASS_LIMIT


def _check_history(v: View) -> None:
    """ValueError unless the opponent's history fits the rules: a tile it placed from its hand after a
    void (a draw, or a pass with an empty boneyard), with no unseen draw kept in between, cannot match
    that void's ends; a tile it kept unseen fitted neither end, so some unknown tile, or one it placed since,
    must fit neither; and enough unknown tiles avoid every void since its last unseen draw to make up its
    hand."""
    ev, n = v.events, v.n_events
    placed = 0  # tiles placed from the hand after the event, back to the next unseen draw kept
    placed_since = 0  # every tile placed from the hand after the event (a kept tile may be one of them)
    for e in range(n - 1, -1, -1):
        kind = ev[e, 0]
        ends = E.MATCH[ev[e, 2]] | E.MATCH[ev[e, 3]]
        if kind == E.EV_UNSEEN:
            placed = 0
            if not (v.unknown | placed_since) & ~ends:
                raise ValueError(f"history inconsistent with the rules: the opponent kept a drawn tile fitting "
                                 f"neither {ev[e, 2]} nor {ev[e, 3]}, but every unknown tile fits one (and it "
                                 "placed no such tile since)")
        elif kind == E.EV_VOID and placed & ends:
            bad = [tile_name(t) for t in range(E.N_TILES) if (placed & ends) >> t & 1]
            raise ValueError(f"history inconsistent with the rules: the opponent placed {', '.join(bad)} "
                             f"after drawing or passing for want of a {ev[e, 2]} or {ev[e, 3]}")
        elif kind == E.EV_PLACE:
            placed |= 1 << (ev[e, 1] >> 1)
            placed_since |= 1 << (ev[e, 1] >> 1)
    after = E.placed_after(ev, n)
    free = E.popcount(E.model_pool(E.RANDOM, v.unknown, ev, n, after))
    k = v.opponent_tiles if v.drawn != E.N_TILES else v.opponent_tiles - 1
    if free < k:
        raise ValueError(f"history inconsistent with the rules: the opponent holds {k} tiles but only {free} "
                         "unknown tiles avoid the ends it could not play on")


# The deepest search a decision may ask, here, on the command line and in the web app (one limit): the search is
# plain Python and costs about three times more per placement of depth. From the opening, with this module's
# defaults, depth 3 took 0.1 s, 4 0.5 s, 5 1.6 s, 6 4.3 s (so 12 would take hours), and the costliest positions
# about ten times the opening's; more depth buys at most about a point of win rate, inside the noise
# (docs/dominoes.md, "Results beside the seed"). The compiled experiment (``pipeline.dominoes``) has its own
# bound.
MAX_DEPTH = 3


def move_values(hand: Iterable[str | int], history: str | Iterable[str], seat: int, *, player: str = "realistic",
                model: str | None = None, models: Sequence[str] | None = None, depth: int = 3, samples: int = 16,
                max_exact: int = 2000, endgame: int = 2, budget: int = 0, seed: int = 0) -> list[tuple[str, float]]:
    """(move, value) for each legal move of ``seat``, whose turn it must be after ``history``: the value
    is the player's expected result (+1 win, 0 draw, -1 loss; below the search depth the engine's leaf
    estimate) over the opponent hands consistent with the history, weighed by the models (``player``:
    predictive with ``model``, realistic or bayesian over ``models``, all five by default). With a
    boneyard of at most ``endgame`` tiles the search goes to the end of the game (-1: never); with
    ``budget`` > 0 it deepens while it is expected to visit at most ``budget`` positions."""
    depth = integer(depth, "depth", 1, MAX_DEPTH)
    endgame = integer(endgame, "endgame", -1, E.N_TILES - 2 * E.HAND_SIZE)
    budget = integer(budget, "budget", 0, 10**9)
    samples = integer(samples, "samples", 1, 100_000)
    max_exact = integer(max_exact, "max_exact", 0, 10**6)
    v = replay(hand, history, seat, player=player, model=model, models=models)
    found = view_values(v, player, model, models, depth, samples, max_exact, endgame, budget, seed)
    return [(move_name(m), value) for m, value in found]


def view_values(v: View, player: str, model: str | None, models: Sequence[str] | None, depth: int, samples: int,
           max_exact: int, endgame: int, budget: int, seed: int) -> list[tuple[int, float]]:
    """(move code, value) for each legal move of the player of view ``v`` (its turn), as ``move_values`` (its
    settings checked): the search of the view of a replayed history, or of a position of a game played through the
    protocol (``lookup.dominoes.game``)."""
    if v.over:
        raise ValueError("the game is over: no move to decide")
    if v.to_move != v.seat:
        raise ValueError(f"it is player {v.to_move}'s turn, not player {v.seat}'s")
    kind, mk, w = _settings(player, model, models)
    moves = np.empty(E.MAX_MOVES, np.int64)
    values = np.zeros(E.MAX_MOVES)
    rng = E.seed_rng(integer(seed, "seed", 0, 2**62) + 1)
    n = E.move_values(v.seat, v.hand, v.opponent_tiles, v.unknown, v.boneyard_size, v.left, v.right, v.passes,
                      v.drawn, v.events, v.n_events, kind, w, mk, depth, samples, float(max_exact), 0, endgame,
                      budget, rng, moves, values, True)
    return [(int(moves[i]), float(values[i])) for i in range(n)]


_OPTIONS = ("player", "model", "models", "depth", "samples", "max_exact", "endgame", "budget", "seed")


def _check_options(options: dict[str, object]) -> None:
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise ValueError(f"unknown option {', '.join(map(repr, unknown))}; known: {', '.join(_OPTIONS)}")


def decide(hand: Iterable[str | int], history: str | Iterable[str], seat: int, **options: object) -> str:
    """The move to play (written form): the first of highest value in the documented order (see
    ``move_values`` for the options)."""
    _check_options(options)
    values = move_values(hand, history, seat, **options)  # type: ignore[arg-type]
    best = max(v for _, v in values)
    return next(m for m, v in values if v == best)


def value(hand: Iterable[str | int], history: str | Iterable[str], seat: int, **options: object) -> float:
    """The player's expected result of its best move (see ``move_values``)."""
    _check_options(options)
    return max(v for _, v in move_values(hand, history, seat, **options))  # type: ignore[arg-type]
