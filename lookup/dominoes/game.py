"""Dominoes as the game API of ``lookup.opponents`` (docs/dominoes.md, "Rules"): full positions (which
neither player sees whole), what each player sees, the deals, and reduced instances.

Every rule is read from ``lookup.dominoes.engine`` (legal moves and their order, placing, results, the
greedy model's score); this module only keeps the state. The opponent models and the players of
``lookup.opponents`` run on it: the models through the hooks ``strength`` and ``heuristic``, the players
over information sets through ``observation`` and ``deals``.

A reduced instance (``Dominoes(max_pip, hand)``) plays the same rules with the tiles of pips 0..max_pip
only (the double-n set, in the double-six encoding) and ``hand`` tiles each: small enough for the exact
players of ``lookup.opponents`` (double-two with 2 tiles each: 12 deals per player view, double-three with
3: 840), where the standard game (``GAME``, double-six, 7 each) is far too large for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np

from lookup.dominoes import engine as E
from lookup.dominoes.rules import move_name


def _mask(tiles: tuple[int, ...] | list[int]) -> int:
    return sum(1 << t for t in tiles)


@dataclass(frozen=True)
class State:
    """A full dominoes position (what neither player sees whole).

    hands: the two hands (28-bit masks); boneyard: its tiles in draw order (front first); left, right: the
    open ends (-1 on the empty board); to_move: 0 or 1; passes: passes in a row; drawn: the tile the
    player to move drew this turn (-1 if none); line: the placed tiles as (left pip, right pip) pairs in
    line order; log: every move so far as (player, move); drew: the tiles each player drew, in order;
    last_score: the greedy model's score of the last placement (``engine.seed_score``), read by
    ``heuristic``. The last two are records of the past, not part of the position: positions that differ
    only in them compare equal, since their futures are the same. (An information set then holds one
    state per opponent hand and boneyard order, whatever unseen draws led there, and the realistic player
    takes its worst credible model per such state, as the engine does per hand.)
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
    drew: tuple[tuple[int, ...], tuple[int, ...]] = field(default=((), ()), compare=False)
    last_score: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Observation:
    """What ``player`` sees: the line, its own hand, the boneyard size, the other's hand size, every move
    so far (the other player's draws without the tile) and the tiles it drew itself (so that two states
    with equal observations have equal histories as the player saw them)."""

    player: int
    line: tuple[tuple[int, int], ...]
    hand: int
    boneyard_size: int
    other_hand_size: int
    moves: tuple[tuple[int, int], ...]
    drew: tuple[int, ...]


class Dominoes:
    """Dominoes as a ``lookup.opponents.Game`` (moves are ``engine`` move codes); ``max_pip`` and ``hand``
    make a reduced instance (the tiles of pips 0..max_pip, ``hand`` tiles each)."""

    def __init__(self, max_pip: int = 6, hand: int = E.HAND_SIZE) -> None:
        from lookup.validate import integer

        self.max_pip = integer(max_pip, "max_pip", 1, 6)
        self.tiles = tuple(t for t in range(E.N_TILES) if E.TILE_B[t] <= self.max_pip)
        self.hand = integer(hand, "hand", 1, (len(self.tiles) - 1) // 2)
        self.tile_set = _mask(self.tiles)
        standard = (self.max_pip, self.hand) == (6, E.HAND_SIZE)
        self.name = "dominoes" if standard else f"dominoes (double-{self.max_pip}, {self.hand} tiles each)"

    def deal(self, seed: int) -> State:
        """The deal of game ``seed``: the set shuffled (``engine.deal``'s Fisher-Yates, from
        ``engine.seed_rng(seed)``; for the standard set exactly the experiment's deal), seat 0 the first
        ``hand`` tiles, seat 1 the next, the boneyard the rest in order."""
        from lookup.validate import integer

        rng = E.seed_rng(integer(seed, "seed", 0, 2**62))
        if len(self.tiles) == E.N_TILES:
            order = np.empty(E.N_TILES, np.int64)
            E.deal(rng, order)
            tiles = [int(t) for t in order]
        else:
            tiles = list(self.tiles)
            for i in range(len(tiles) - 1, 0, -1):
                j = int(E.rand_below(rng, i + 1))
                tiles[i], tiles[j] = tiles[j], tiles[i]
        k = self.hand
        return State((_mask(tiles[:k]), _mask(tiles[k:2 * k])), tuple(tiles[2 * k:]))

    def deals(self, start: State, player: int) -> list[tuple[State, Fraction]]:
        """Every start position ``player`` cannot tell from ``start`` (no move made yet): its own hand as
        dealt, the other tiles split into the other hand and the boneyard order in every way, all equally
        likely (the hook of ``lookup.opponents`` for hidden information)."""
        if start.log or start.left >= 0:
            raise ValueError("deals: expected a start position (no move made yet)")
        mine = start.hands[player]
        rest = [t for t in self.tiles if not mine >> t & 1]
        out = []
        for other in combinations(rest, self.hand):
            bone = [t for t in rest if t not in other]
            for order in permutations(bone):
                hands = (mine, _mask(other)) if player == 0 else (_mask(other), mine)
                out.append(State(hands, order))
        return [(s, Fraction(1, len(out))) for s in out]

    def to_move(self, state: State) -> int:
        return state.to_move

    def legal_actions(self, state: State) -> tuple[int, ...]:
        """In the documented order (``engine.legal_into``); none once the game is over."""
        if self.is_terminal(state):
            return ()
        out = np.empty(E.MAX_MOVES, np.int64)
        n = E.legal_into(state.hands[state.to_move], state.left, state.right, state.drawn, len(state.boneyard), out)
        return tuple(int(m) for m in out[:n])

    def apply(self, state: State, move: int) -> State:
        """The next state; ValueError naming a move that is not legal."""
        if move not in self.legal_actions(state):
            shown = move_name(move) if isinstance(move, int) and 0 <= move <= E.PASS else repr(move)
            raise ValueError(f"dominoes: move {shown} is not legal here (legal: "
                             f"{[move_name(m) for m in self.legal_actions(state)] or 'none, the game is over'})")
        p = state.to_move
        log = (*state.log, (p, move))
        if move == E.DRAW:
            y = state.boneyard[0]
            hands = (state.hands[0] | 1 << y, state.hands[1]) if p == 0 else (state.hands[0], state.hands[1] | 1 << y)
            drew = ((*state.drew[0], y), state.drew[1]) if p == 0 else (state.drew[0], (*state.drew[1], y))
            return replace(state, hands=hands, boneyard=state.boneyard[1:], drawn=y, log=log, drew=drew, last_score=0)
        if move == E.PASS:
            return replace(state, to_move=1 - p, passes=state.passes + 1, drawn=-1, log=log, last_score=0)
        score = E.seed_score(move, state.hands[p], state.hands[1 - p] | _mask(state.boneyard), state.left,
                             state.right)
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
        return Observation(player, state.line, state.hands[player], len(state.boneyard),
                           int(E.popcount(state.hands[1 - player])), state.log, state.drew[player])

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


def deal(seed: int) -> State:
    """The deal of game ``seed`` of the standard game (the experiment's deal)."""
    return GAME.deal(seed)
