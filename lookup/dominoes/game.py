"""Dominoes as the game API of ``lookup.opponents`` (docs/dominoes.md, "Rules"): full positions (which
neither player sees whole), what each player sees, the deals, and reduced instances.

Every rule is read from ``lookup.dominoes.engine`` (legal moves and their order, placing, results, the
greedy model's score); this module only keeps the state. The opponent models and the players of
``lookup.opponents`` run on it: the models through the hooks ``strength`` and ``heuristic``, the players
over information sets through ``observation`` and ``deals``.

A reduced instance (``Dominoes(max_pip, hand)``) plays the same rules with the tiles of pips 0..max_pip
only (the double-n set, in the double-six encoding) and ``hand`` tiles each: small enough for the exact
players of ``lookup.opponents`` (double-two with 2 tiles each: 12 deals per player view, double-three with
3: 840), where the standard game (``GAME``, double-six, 7 each) is far too large for them. With every tile dealt
(double-two, 3 each) there is no boneyard, and after the deal each player sees the other's hand: a game of
complete information.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import combinations, permutations
from pathlib import Path
from typing import NamedTuple

import numpy as np

from lookup.dominoes import engine as E
from lookup.dominoes.play import MAX_DEPTH, MODEL_NAMES, PLAYERS, View, replay_tokens, view_values
from lookup.dominoes.rules import extend_line, move_name, parse_move, parse_tile, tile_name
from lookup.dominoes.tables import load_matchups
from lookup.errors import ArtifactError
from lookup.games import GameSpec, Option
from lookup.protocol import CHANCE, JSON, Action, Advisor, Game, Unit, json_object
from lookup.validate import shown
from lookup.words import counted


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
        self.hand = integer(hand, "hand", 1, len(self.tiles) // 2)
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
        return replace(state, hands=(int(h0), int(h1)), left=int(left), right=int(right), to_move=int(to_move),
                       passes=int(passes), drawn=-1, line=extend_line(state.line, move, state.left, state.right),
                       log=log, last_score=int(score))

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


# --- the game through the protocol (``lookup.protocol``) ------------------------------------------------------


class DomState(NamedTuple):
    """A position of the game played through the protocol: ``dealt``, the tiles dealt so far (one at a time: seat
    0's ``hand`` tiles, then seat 1's), until the deal is complete; then ``position``, the game (``State``, its
    boneyard a set: sorted); ``drawing``, the player to move has chosen to draw and the tile is next."""

    dealt: tuple[int, ...] = ()
    position: State | None = None
    drawing: bool = False


UNIT = Unit("result", "the player's expected result, +1 a win, 0 a draw, -1 a loss, by the search of what it has "
                      "seen (an estimate below the search's depth)", tie=1e-12)


class DominoesGame(Game):
    """Dominoes with chance nodes: the deal, tile by tile, and every draw, uniform over the tiles still unseen (in
    law a shuffled boneyard drawn from the front). ``max_pip`` and ``hand`` make a reduced instance (``Dominoes``).

    Actions are ``engine`` move codes (``Dominoes.legal_actions``, their order), written as ``rules.move_name``
    ("3-5L", "6-6", "draw", "pass"); chance outcomes are tiles, written "3-5". A seat observes its own tiles, the
    line and every move (the other's draws without the tile); it sees the whole state at the end, and once the
    boneyard is empty (the other hand is then every tile it has not seen), but for a tile the other has just drawn.
    """

    name = "dominoes"
    seats = 2
    unit = UNIT
    you: int | None = None  # the seat whose view alone is played (``lookup.dominoes.seen``); None: the whole game

    def __init__(self, max_pip: int = 6, hand: int = E.HAND_SIZE) -> None:
        self.rules = Dominoes(max_pip, hand)
        self.hand = self.rules.hand

    def initial_state(self) -> DomState:
        return DomState()

    def to_move(self, state: DomState) -> int:
        return CHANCE if state.position is None or state.drawing else state.position.to_move

    def legal_actions(self, state: DomState) -> tuple[int, ...]:
        if self.to_move(state) == CHANCE or self.is_terminal(state):
            return ()
        return self.rules.legal_actions(state.position)

    def chance_outcomes(self, state: DomState) -> tuple[tuple[int, Fraction], ...]:
        if state.position is None:
            left = [t for t in self.rules.tiles if t not in state.dealt]
        elif state.drawing:
            left = list(state.position.boneyard)
        else:
            return ()
        return tuple((t, Fraction(1, len(left))) for t in left)

    def apply(self, state: DomState, action: Action) -> DomState:
        action = self.canonical(state, action)
        if state.position is None:
            dealt = (*state.dealt, action)
            if len(dealt) < 2 * self.hand:
                return DomState(dealt)
            k, rest = self.hand, [t for t in self.rules.tiles if t not in dealt]
            return DomState(position=State((_mask(dealt[:k]), _mask(dealt[k:])), tuple(rest)))
        if state.drawing:  # the drawn tile first, then the rules' draw from the front (the rest stays sorted)
            bone = (action, *(t for t in state.position.boneyard if t != action))
            return DomState(position=self.rules.apply(replace(state.position, boneyard=bone), E.DRAW))
        if action == E.DRAW:
            return state._replace(drawing=True)
        return DomState(position=self.rules.apply(state.position, action))

    def is_terminal(self, state: DomState) -> bool:
        return state.position is not None and not state.drawing and self.rules.is_terminal(state.position)

    def returns(self, state: DomState) -> tuple[int, int]:
        return self.rules.returns(state.position)

    def observation(self, state: DomState, seat: int) -> Hashable:
        if state.position is None:
            k = self.hand
            own = state.dealt[:k] if seat == 0 else state.dealt[k:2 * k]
            return "deal", seat, tuple(sorted(own)), len(state.dealt)
        pos = state.position
        deduced = not pos.boneyard and not state.drawing and (pos.drawn < 0 or pos.to_move == seat)
        if deduced or self.is_terminal(state):
            return state
        return self.rules.observation(pos, seat), state.drawing

    # -- words and JSON --

    def action_json(self, state: DomState, action: Action) -> str:
        return tile_name(action) if self.to_move(state) == CHANCE else move_name(action)

    def action_text(self, state: DomState, action: Action) -> str:
        return self.action_text_for(state, action, None)

    def action_text_for(self, state: DomState, action: Action, seat: int | None) -> str:
        """A tile dealt to or drawn by the other seat is "a tile" (``seat`` None: every tile named)."""
        if state.position is None:
            to = int(len(state.dealt) >= self.hand)
            return f"deals {'a tile' if seat not in (None, to) else tile_name(action)} to player {to + 1}"
        if state.drawing:
            mover = state.position.to_move
            return f"player {mover + 1} draws {'a tile' if seat not in (None, mover) else tile_name(action)}"
        return f"plays {move_name(action)}"

    def state_text(self, state: DomState) -> str:
        return self.state_text_for(state, None)

    def state_text_for(self, state: DomState, seat: int | None) -> str:
        """The position as ``seat`` is shown it: its own tiles, the size of the other hand; everything once the game
        is over (``seat`` None: always)."""
        k, seat = self.hand, None if self.is_terminal(state) else seat
        if state.position is None:
            own = "" if seat is None else f"; yours: {_names(sorted(state.dealt[k * seat:k * seat + k])) or 'none yet'}"
            return f"the deal: {len(state.dealt)} of {2 * k} tiles dealt{own}"
        pos = state.position
        line = " ".join(f"{a}-{b}" for a, b in pos.line) or "empty"
        hands = "; ".join(f"player {s + 1}: " + (_names(t for t in self.rules.tiles if pos.hands[s] >> t & 1)
                                                 if seat in (None, s) else counted(E.popcount(pos.hands[s]), "tile"))
                          for s in (0, 1))
        if self.is_terminal(state):
            r = self.returns(state)[0]
            return f"line {line}; {hands}: {'a draw' if r == 0 else f'player {1 if r > 0 else 2} has won'}"
        doing = "draws" if state.drawing else "to move"
        return f"line {line}; {hands}; boneyard {len(pos.boneyard)}; player {pos.to_move + 1} {doing}"

    def state_json(self, state: DomState) -> dict[str, JSON]:
        """{"dealt": the tiles dealt so far} during the deal; then {"hands": [seat 0's tiles, seat 1's] as dealt,
        "moves": every move so far (a draw as "draw:3-5"), "drawing": true when the player to move is drawing}."""
        if state.position is None:
            return {"dealt": [tile_name(t) for t in state.dealt]}
        pos = state.position
        drew = [iter(pos.drew[0]), iter(pos.drew[1])]
        moves = [f"draw:{tile_name(next(drew[p]))}" if m == E.DRAW else move_name(m) for p, m in pos.log]
        return {"hands": [[tile_name(t) for t in self.rules.tiles if _dealt(pos, s) >> t & 1] for s in (0, 1)],
                "moves": moves, "drawing": state.drawing}

    def parse_state(self, data: JSON) -> DomState:
        """A position as ``state_json`` writes it, replayed by the rules from the deal; ValueError naming what
        cannot be."""
        if not isinstance(data, dict) or "dealt" in data:
            data = json_object(data, "dominoes position", {"dealt": True})
            return self._deal(data["dealt"])
        data = json_object(data, "dominoes position", {"hands": True, "moves": False, "drawing": False})
        hands, moves, drawing = data["hands"], data.get("moves", []), data.get("drawing", False)
        if not isinstance(hands, list) or len(hands) != 2 or not all(isinstance(h, list) for h in hands):
            raise ValueError("hands must be the two hands as dealt, lists of tiles such as '3-5'")
        return self._played(self._deal([t for h in hands for t in h]), moves, drawing)

    def _played(self, state: DomState, moves: JSON, drawing: JSON) -> DomState:
        """``state`` (the deal complete) with ``moves`` played on as ``state_json`` writes them, and a draw begun
        where ``drawing``; ValueError naming the first that cannot be."""
        if not isinstance(moves, list) or len(moves) > 8 * E.N_TILES or type(drawing) is not bool:
            raise ValueError("moves must be a list of moves (at most a game's), drawing true or false")
        for i, move in enumerate(moves):
            if not isinstance(move, str):
                raise ValueError(f"move {i + 1}: a move is written as text such as '3-5L', 'draw:2-4' or 'pass'")
            drawn = move.lower().startswith("draw:")
            state = self.apply(state, self.parse_action(state, "draw" if drawn else move))
            if drawn:
                state = self.apply(state, self.parse_action(state, move.split(":", 1)[1]))
        if drawing:
            state = self.apply(state, self.parse_action(state, "draw"))
        return state

    def _deal(self, tiles: JSON) -> DomState:
        if not isinstance(tiles, list) or len(tiles) > 2 * self.hand:
            raise ValueError(f"the deal is a list of at most {2 * self.hand} tiles")
        state = self.initial_state()
        for t in tiles:
            state = self.apply(state, self.parse_action(state, t))
        return state

    def canonical(self, state: DomState, action: Action) -> Action:
        """A legal move code or tile (an int), or its written form; ValueError naming it otherwise."""
        if isinstance(action, str):
            return self.parse_action(state, action)
        if self.is_terminal(state):
            raise ValueError("dominoes: the game is over, nothing more happens")
        options = self.options(state)
        if not isinstance(action, bool) and isinstance(action, int | np.integer) and int(action) in options:
            return int(action)
        raise ValueError(f"dominoes: {shown(action)} is not legal here; legal: {self._legal_text(state)}")

    def parse_action(self, state: DomState, data: JSON) -> Action:
        """A move ("3-5L", "6-6" to open, "draw", "pass") or, at a chance node, a tile ("3-5")."""
        if self.is_terminal(state):
            raise ValueError("dominoes: the game is over, nothing more happens")
        if not isinstance(data, str):
            raise ValueError(f"dominoes: a move or tile is written as text such as '3-5L' or '3-5', got "
                             f"{type(data).__name__}; legal: {self._legal_text(state)}")
        chance = self.to_move(state) == CHANCE
        action = parse_tile(data) if chance else parse_move(data, opening=state.position.left < 0)
        if action not in self.options(state):
            kind = "tile" if chance else "move"
            raise ValueError(f"dominoes: {kind} {shown(data, 20)} is not legal here; legal: {self._legal_text(state)}")
        return action

    def _legal_text(self, state: DomState) -> str:
        return ", ".join(self.action_json(state, a) for a in self.options(state))

    def view(self, state: DomState) -> View | None:
        """What the seat to move has seen, replayed as ``lookup.dominoes.play`` reads a history (None at a chance
        node or at the end)."""
        if self.to_move(state) == CHANCE or self.is_terminal(state):
            return None
        pos, rules = state.position, self.rules
        seat = pos.to_move
        drew = iter(pos.drew[seat])
        tokens = [(f"draw:{tile_name(next(drew))}" if p == seat else "draw") if m == E.DRAW else move_name(m)
                  for p, m in pos.log]
        return replay_tokens(_dealt(pos, seat), tokens, seat, rules.tile_set, rules.hand)


def _names(tiles: Iterable[int]) -> str:
    return " ".join(tile_name(t) for t in tiles)


def _dealt(pos: State, seat: int) -> int:
    """The tiles ``seat`` was dealt: its hand, and the tiles it placed, but not those it drew."""
    placed = _mask([m >> 1 for p, m in pos.log if p == seat and m < E.DRAW])
    return (pos.hands[seat] | placed) & ~_mask(pos.drew[seat])


class DominoesAdvisor(Advisor):
    """The search of ``lookup.dominoes.play`` (the engine's), for the seat to move, from what it has seen (the
    game's ``view``): each legal move's value, assuming the opponent plays as ``player`` with ``models`` believes
    (``play.move_values``, with the ``settings`` depth, samples, max_exact, endgame, budget and seed). A seat's value
    is known at its own decisions (its best move's value) and at the end; None elsewhere, where its one legal move
    is a forced draw or pass (the search places tiles only), and at the decisions of a seat whose moves are only
    entered (the other seat of a game seen from one seat, ``lookup.dominoes.seen``: the tables do not play it,
    ``plays_others`` False, and its policy is its first legal move)."""

    game: DominoesGame

    def __init__(self, game: DominoesGame, player: str, models: tuple[str, ...], settings: dict[str, int]) -> None:
        super().__init__(game)
        self.player, self.models, self.settings = player, models, settings
        self.plays_others = game.you is None
        self._memo: dict[Hashable, dict[int, float | None]] = {}

    def action_values(self, state: Hashable) -> dict[int, float | None]:
        found = self._memo.get(state)
        if found is None:
            legal = self.game.legal_actions(state)
            view = self.game.view(state)
            if view is None or (len(legal) == 1 and legal[0] >= E.DRAW):
                found = dict.fromkeys(legal)
            else:
                found = dict(view_values(view, self.player, self.models[0], self.models, **self.settings))
            self._memo[state] = found
        return found

    def value(self, state: Hashable, seat: int) -> float | None:
        game = self.game
        if game.is_terminal(state):
            return float(game.returns(state)[seat])
        if game.to_move(state) != seat:
            return None
        values = list(self.action_values(state).values())
        return None if None in values else max(values)  # type: ignore[type-var]

    def best_actions(self, state: Hashable) -> tuple[int, ...]:
        values = self.action_values(state)
        if None in values.values():  # a forced draw or pass, or a seat the tables do not value
            return tuple(values)
        return super().best_actions(state)

    def policy(self, state: Hashable) -> dict[int, float]:
        """The first move of highest value (``lookup.dominoes.decide``); the first legal one where none is valued."""
        values = self.action_values(state)
        if None in values.values():
            return {next(iter(values)): 1.0}
        best = max(values.values())  # type: ignore[type-var]
        return {next(m for m, v in values.items() if v == best): 1.0}


# ``served``, the most a web request may ask of the search (``lookup.games.served_setup``): the experiment's
# settings (params.yaml ``dominoes.experiment``), which take ~0.15 s a decision on average and at most ~1.5 s in
# plain Python; lookup's own defaults (16 samples, 2000 exact hands) took up to 4.3 s, and an endgame of 14
# searches a whole game. A budget of positions deepens the search: 30,000 took 0.4-1.8 s on the first two
# decisions of a game, 300,000 3-19 s (measured 2026-11-28 with the experiment's other settings).
SETTINGS = {"depth": Option(3, "placements searched after a move", low=1, high=MAX_DEPTH),  # the library's bound
            "samples": Option(16, "opponent hands drawn per model when there are more than max_exact", low=1,
                              high=100_000, served=8),
            "max_exact": Option(2000, "list every opponent hand consistent with the history up to this many", low=0,
                                high=10**6, served=200),
            "endgame": Option(2, "search to the end once the boneyard holds at most this many tiles", low=0,
                              high=E.N_TILES - 2 * E.HAND_SIZE, served=2),
            "budget": Option(0, "deepen while the search visits at most this many positions (0: never)", low=0,
                             high=10**9, served=10_000),
            "seed": Option(0, "seed of the hands drawn", low=0, high=2**62)}
# Double-two with every tile dealt (3 each): no boneyard, so that after the deal each seat sees the whole state
# (the other hand is every tile it has not seen), and the search goes to the end of the game.
SMALL_INSTANCE = {"max_pip": 2, "hand": 3}


def setups(root: Path) -> list[dict[str, JSON]]:
    """The experiment's players (``dominoes-matchups``: its players, models and search settings; a predictive player
    assumes one model, each in turn), on a small instance of complete information (double-two, every tile dealt)
    and on the standard game, each as the whole game and as seen from either seat (``you``); [] when the experiment
    is not built."""
    try:
        params = load_matchups(artifacts_dir=root).params
    except ArtifactError:
        return []
    settings = {k: int(params[k]) if k in params else option.default for k, option in SETTINGS.items()}
    players = []
    for player in params["players"]:
        players += ([{"player": player, "models": [m]} for m in params["models"]] if player == "predictive"
                    else [{"player": player, "models": list(params["models"])}])
    return [{**instance, **p, **settings, "you": you} for p in players for you in (None, 0, 1)
            for instance in (SMALL_INSTANCE, {"max_pip": 6, "hand": E.HAND_SIZE})]


def open_dominoes(setup: dict[str, JSON], artifacts_dir: Path | None) -> DominoesAdvisor:
    models = tuple(setup["models"])  # type: ignore[arg-type]
    if setup["player"] == "predictive" and len(models) != 1:
        raise ValueError("a predictive player assumes exactly one opponent model: give models as one name")
    size = int(setup["max_pip"]), int(setup["hand"])  # type: ignore[arg-type]
    if setup["you"] is None:
        game = DominoesGame(*size)
    else:
        from lookup.dominoes.seen import SeenGame  # (it builds on DominoesGame: imported when a setup asks for it)

        game = SeenGame(int(setup["you"]), *size)  # type: ignore[arg-type]
    return DominoesAdvisor(game, str(setup["player"]), models, {k: int(setup[k]) for k in SETTINGS})  # type: ignore


SPEC = GameSpec(
    name="dominoes",
    title="Dominoes",
    summary="The double-six set, seven tiles each: place a tile matching an open end of the line, draw one from the "
            "boneyard when none fits; emptying the hand wins, a blocked game goes to the lower pip total. The "
            "opponent's hand is hidden: the advice searches what the player has seen, against opponent models.",
    options={"player": Option("realistic", "how the player weighs the opponent models: predictive (one model), "
                                           "realistic (the worst credible) or bayesian", choices=PLAYERS),
             "models": Option(list(MODEL_NAMES), "the opponent models the player considers", choices=MODEL_NAMES,
                              many=True),
             "max_pip": Option(6, "the set: tiles of pips 0..max_pip (6: double-six)", low=1, high=6),
             "hand": Option(E.HAND_SIZE, "tiles dealt to each player", low=1, high=E.HAND_SIZE),
             **SETTINGS,
             "you": Option(None, "your seat at a real table (0 opens): enter only what it sees, its own tiles and "
                                 "draws, the other's moves without its tiles (lookup.dominoes.seen); null: the whole "
                                 "game, both hands", choices=(0, 1))},
    setups=setups,
    open=open_dominoes,
)
