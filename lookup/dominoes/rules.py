"""Rules of dominoes (docs/dominoes.md, "Rules") as the game API of ``lookup.opponents``.

Double-six set (28 tiles), two players, 7 tiles each, 14 in the boneyard; player 0 opens with any tile;
a player who cannot place draws one tile (once per turn) and places it if it fits, else passes; a hand
emptied wins; four passes in a row end the game, the lower pip total in hand winning (equal: a draw).
The rule helpers (legal moves and their order, placing, results, the models' scores) are written once,
in ``lookup.dominoes.engine``; this module wraps them in states and names.

Written forms: a tile is ``"a-b"`` (``"3-5"``, either order); a move is the tile with the end it goes to,
``"3-5L"`` or ``"3-5R"`` (the opening tile has no end: ``"6-6"``), ``"draw"`` or ``"pass"``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from lookup.dominoes import engine as E
from lookup.naming import by_name


@dataclass(frozen=True)
class Rules:
    """Dominoes' one rule set (the constants of ``lookup.dominoes.engine``)."""

    name: str = "standard"

    def to_dict(self) -> dict[str, Any]:
        return {"set": "double-six", "tiles": E.N_TILES, "hand": E.HAND_SIZE, "players": 2,
                "draws_per_turn": 1, "passes_to_end": E.PASS_LIMIT, "blocked": "lower pip total wins"}


RULE_SETS: dict[str, Rules] = {"standard": Rules()}
DEFAULT_RULES = "standard"


def get_rules(name: str | Rules = DEFAULT_RULES) -> Rules:
    """The rule set called ``name`` (a Rules passes through); ValueError for an unknown one."""
    return name if isinstance(name, Rules) else by_name(RULE_SETS, name, "dominoes rule set")


# --- names of tiles and moves ------------------------------------------------------------------------


def tile_name(t: int) -> str:
    return f"{E.TILE_A[t]}-{E.TILE_B[t]}"


def parse_tile(text: str) -> int:
    """The tile index of ``"a-b"`` (pips 0..6, either order); ValueError naming a bad tile."""
    parts = str(text).strip().split("-")
    if len(parts) != 2 or not all(p.isdigit() and len(p) == 1 and int(p) <= 6 for p in parts):
        raise ValueError(f"tile {text!r}: expected 'a-b' with pips 0..6 (e.g. '3-5')")
    a, b = sorted(int(p) for p in parts)
    return next(t for t in range(E.N_TILES) if E.TILE_A[t] == a and E.TILE_B[t] == b)


def move_name(move: int) -> str:
    if move == E.DRAW:
        return "draw"
    if move == E.PASS:
        return "pass"
    return tile_name(move >> 1) + ("R" if move & 1 else "L")


def parse_move(text: str, opening: bool = False) -> int:
    """A move from its written form (see the module docstring); the opening tile needs no end."""
    s = str(text).strip()
    if s.lower() in ("draw", "pass"):
        return E.DRAW if s.lower() == "draw" else E.PASS
    side = 0
    if s[-1:].upper() in ("L", "R"):
        side = 1 if s[-1].upper() == "R" else 0
        s = s[:-1]
    elif not opening:
        raise ValueError(f"move {text!r}: say which end the tile goes to ('{s}L' or '{s}R')")
    return 2 * parse_tile(s) + side


def hand_mask(tiles: Any) -> int:
    """A hand (28-bit mask) from tile names or indices; ValueError for a bad or repeated tile."""
    mask = 0
    for t in tiles:
        i = parse_tile(t) if isinstance(t, str) else _tile_index(t)
        if mask >> i & 1:
            raise ValueError(f"tile {tile_name(i)} given twice")
        mask |= 1 << i
    return mask


def _tile_index(t: Any) -> int:
    from lookup.validate import integer

    return integer(t, "tile", 0, E.N_TILES - 1)


def _tiles(tiles: tuple[int, ...]) -> int:
    return sum(1 << t for t in tiles)


def tiles_of(mask: int) -> list[int]:
    return [t for t in range(E.N_TILES) if mask >> t & 1]


# --- states ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    """A full dominoes position (what neither player sees whole).

    hands: the two hands (28-bit masks); boneyard: its tiles in draw order (front first); left, right: the
    open ends (-1 on the empty board); to_move: 0 or 1; passes: passes in a row; drawn: the tile the
    player to move drew this turn (-1 if none); line: the placed tiles as (left pip, right pip) pairs in
    line order; log: every move so far as (player, move); last_score: the greedy model's score of the last
    placement (``engine.seed_score``), read by ``heuristic``.
    """

    hands: tuple[int, int]
    boneyard: tuple[int, ...]
    left: int = -1
    right: int = -1
    to_move: int = 0
    passes: int = 0
    drawn: int = -1
    line: tuple[tuple[int, int], ...] = ()
    log: tuple[tuple[int, int], ...] = ()
    last_score: int = 0


def deal(seed: int) -> State:
    """The deal of game ``seed`` (the experiment's deal: ``engine.deal`` from ``engine.seed_rng(seed)``)."""
    from lookup.validate import integer

    rng = E.seed_rng(integer(seed, "seed", 0, 2**62))
    order = np.empty(E.N_TILES, np.int64)
    E.deal(rng, order)
    h0 = sum(1 << int(t) for t in order[:E.HAND_SIZE])
    h1 = sum(1 << int(t) for t in order[E.HAND_SIZE:2 * E.HAND_SIZE])
    return State((h0, h1), tuple(int(t) for t in order[2 * E.HAND_SIZE:]))


@dataclass(frozen=True)
class Observation:
    """What ``player`` sees: the line, its own hand, the boneyard size, the other's hand size and every
    move so far (the other player's draws without the tile)."""

    player: int
    line: tuple[tuple[int, int], ...]
    hand: int
    boneyard_size: int
    other_hand_size: int
    moves: tuple[tuple[int, int], ...]


class Dominoes:
    """Dominoes as a ``lookup.opponents.Game`` (moves are ``engine`` move codes)."""

    name = "dominoes"

    def to_move(self, state: State) -> int:
        return state.to_move

    def legal_moves(self, state: State) -> tuple[int, ...]:
        """In the documented order (``engine.legal_into``); none once the game is over."""
        if self.is_terminal(state):
            return ()
        out = np.empty(E.MAX_MOVES, np.int64)
        n = E.legal_into(state.hands[state.to_move], state.left, state.right, state.drawn, len(state.boneyard), out)
        return tuple(int(m) for m in out[:n])

    def apply(self, state: State, move: int) -> State:
        """The next state; ValueError naming a move that is not legal."""
        if move not in self.legal_moves(state):
            shown = move_name(move) if isinstance(move, int) and 0 <= move <= E.PASS else repr(move)
            raise ValueError(f"dominoes: move {shown} is not legal here (legal: "
                             f"{[move_name(m) for m in self.legal_moves(state)] or 'none, the game is over'})")
        p = state.to_move
        log = (*state.log, (p, move))
        if move == E.DRAW:
            y = state.boneyard[0]
            hands = (state.hands[0] | 1 << y, state.hands[1]) if p == 0 else (state.hands[0], state.hands[1] | 1 << y)
            return replace(state, hands=hands, boneyard=state.boneyard[1:], drawn=y, log=log, last_score=0)
        if move == E.PASS:
            return replace(state, to_move=1 - p, passes=state.passes + 1, drawn=-1, log=log, last_score=0)
        score = E.seed_score(move, state.hands[p], state.hands[1 - p] | _tiles(state.boneyard), state.left, state.right)
        h0, h1, left, right, to_move, passes = E.step(state.hands[0], state.hands[1], state.left, state.right, p,
                                                      state.passes, move)
        t = move >> 1
        a, b = int(E.TILE_A[t]), int(E.TILE_B[t])
        if state.left < 0:
            line = ((a, b),)
        elif move & 1 == 0:
            line = ((b, a) if a == state.left else (a, b), *state.line)
        else:
            line = (*state.line, (a, b) if a == state.right else (b, a))
        return replace(state, hands=(int(h0), int(h1)), left=int(left), right=int(right), to_move=int(to_move),
                       passes=int(passes), drawn=-1, line=line, log=log, last_score=int(score))

    def is_terminal(self, state: State) -> bool:
        return E.result(0, state.hands[0], state.hands[1], state.passes) != 2.0

    def returns(self, state: State) -> tuple[int, int]:
        """(+1, -1), (-1, +1) or (0, 0) at a finished game."""
        r = int(E.result(0, state.hands[0], state.hands[1], state.passes))
        return r, -r

    def observation(self, state: State, player: int) -> Observation:
        moves = tuple((p, m) for p, m in state.log)
        return Observation(player, state.line, state.hands[player], len(state.boneyard),
                           E.popcount(state.hands[1 - player]), moves)

    def strength(self, state: State, move: int) -> int:
        """The "strong" model's score: the pip sum of the placed tile (0 for a draw or a pass)."""
        return 0 if move >= E.DRAW else int(E.TILE_A[move >> 1] + E.TILE_B[move >> 1])

    def heuristic(self, state: State, player: int) -> int:
        """The greedy model reads it on the state after each candidate move: the seed's score of the last
        placement for the player who made it (``engine.seed_score``), negated for the other player."""
        if not state.log:
            return 0
        mover = state.log[-1][0]
        return state.last_score if mover == player else -state.last_score


GAME = Dominoes()
