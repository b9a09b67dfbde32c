"""Dominoes as one seat sees it at a real table (the setup's ``you``): the game through the protocol
(``lookup.protocol``) whose states are that seat's information sets, so that a player enters only what it sees.

A state is the seat's hand as dealt, every move so far as ``lookup.dominoes.play`` reads a history (its own draws
with the tile, ``"draw:2-4"``, the other's without, ``"draw"``) and, at a blocked end, the pip total the other
shows. What happens:

- **Chance** deals the seat its tiles one at a time, and gives it the tile of each of its draws: uniform over the
  tiles it has not seen that keep the history possible. (The exact law of a draw also weighs what the other's
  draws and passes tell about its hand; these probabilities do not, and no value here reads them: the advice
  comes from the search of ``play``, which weighs the other's possible hands itself.)
- **The seat** plays its legal moves (``engine.legal_into``: the rules' order), the advice being the search of
  ``lookup.dominoes.play`` from its hand and the history, exactly ``play.move_values``.
- **The other seat's** moves are entered, never played by the tables: any tile the seat has not seen that fits an
  end (after a draw: the tile it drew, unseen, if it fits), ``draw`` while the boneyard holds a tile and it has not
  drawn this turn, ``pass`` after a draw or with an empty boneyard; a move the history then cannot explain (a tile
  placed that fitted an end it had just drawn for, more tiles kept than the unseen ones allow) is not legal. Its
  moves are listed in the rules' order of its possible tiles, then draw, then pass.
- **The end**: a hand emptied (the seat's, or the other's count), or the game blocked (``PASS_LIMIT`` passes in a
  row), the lower pip total winning. At a block the seat knows its own pips; the other's total is entered as the
  other seat's last move, ``"pips:12"``, any total that its count of the unseen tiles can make, unless every such
  total gives the same result (then the game ends at the block: nothing to enter).
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from lookup.dominoes import engine as E
from lookup.dominoes.game import DominoesGame
from lookup.dominoes.play import View, extend, replay_tokens
from lookup.dominoes.rules import extend_line, move_name, parse_move, parse_tile, tile_name
from lookup.protocol import CHANCE, JSON, Action, json_object
from lookup.validate import integer, shown
from lookup.words import counted

PIPS = "pips:"  # the other's pip total shown at a blocked end, "pips:12"
MAX_VIEWS = 50_000  # views kept per game (a replay each; a game has at most a few hundred states)


class Seen(NamedTuple):
    """A position as seat ``you`` sees it: ``dealt``, its tiles dealt so far, sorted (its hand as dealt once there are
    ``hand`` of them); ``moves``, the history so far in ``play``'s words; ``drawing``, the seat has chosen to draw
    and the tile is next; ``shown``, the other's pip total shown at a blocked end (None until then)."""

    dealt: tuple[int, ...] = ()
    moves: tuple[str, ...] = ()
    drawing: bool = False
    shown: int | None = None


class SeenGame(DominoesGame):
    """Dominoes as seat ``you`` sees it (see the module docstring); ``max_pip`` and ``hand``: a reduced instance."""

    def __init__(self, you: int, max_pip: int = 6, hand: int = E.HAND_SIZE) -> None:
        super().__init__(max_pip, hand)
        self.you = integer(you, "you", 0, 1)
        self._views: dict[Seen, View] = {}

    # -- the rules, on the seat's view --

    def initial_state(self) -> Seen:
        return Seen()

    def seen(self, state: Seen) -> View:
        """The seat's bookkeeping after the history (``play.replay``), its deal complete."""
        found = self._views.get(state)
        if found is None:
            if state.moves:
                found = extend(self.seen(state._replace(moves=state.moves[:-1], drawing=False, shown=None)),
                               state.moves[-1], len(state.moves))
            else:
                found = replay_tokens(sum(1 << t for t in state.dealt), (), self.you, self.rules.tile_set, self.hand)
            if len(self._views) >= MAX_VIEWS:
                self._views.clear()
            self._views[state] = found
        return found

    def _dealing(self, state: Seen) -> bool:
        return len(state.dealt) < self.hand

    def _totals(self, v: View) -> list[int]:
        """Every pip total the other's hand can have: its count of the tiles the seat has not seen."""
        reach = [{0}] + [set() for _ in range(v.opponent_tiles)]
        for t in range(E.N_TILES):
            if v.unknown >> t & 1:
                for c in range(v.opponent_tiles, 0, -1):
                    reach[c] |= {s + int(E.TILE_A[t] + E.TILE_B[t]) for s in reach[c - 1]}
        return sorted(reach[v.opponent_tiles])

    def _result(self, state: Seen) -> int | None:
        """The seat's result (+1, 0, -1) once the game is over and decided, else None."""
        if self._dealing(state) or state.drawing:
            return None
        v = self.seen(state)
        if not v.over:
            return None
        if v.hand == 0 or v.opponent_tiles == 0:
            return 1 if v.hand == 0 else -1
        mine = int(E.pips(v.hand))
        results = {(t > mine) - (t < mine) for t in ([state.shown] if state.shown is not None else self._totals(v))}
        return results.pop() if len(results) == 1 else None

    def _showing(self, state: Seen) -> bool:
        """A blocked game whose result needs the other's pip total."""
        return (not self._dealing(state) and not state.drawing and state.shown is None and self.seen(state).over
                and self._result(state) is None)

    def to_move(self, state: Seen) -> int:
        if self._dealing(state) or state.drawing:
            return CHANCE
        return 1 - self.you if self._showing(state) else self.seen(state).to_move

    def is_terminal(self, state: Seen) -> bool:
        return self._result(state) is not None

    def returns(self, state: Seen) -> tuple[int, int]:
        r = self._result(state)
        return (r, -r) if self.you == 0 else (-r, r)  # type: ignore[operator]

    def chance_outcomes(self, state: Seen) -> tuple[tuple[int, Fraction], ...]:
        if self._dealing(state):
            left = [t for t in self.rules.tiles if t not in state.dealt]
        elif state.drawing:
            left = [t for t in self.rules.tiles if self._fits(state, f"draw:{tile_name(t)}")]
        else:
            return ()
        return tuple((t, Fraction(1, len(left))) for t in left)

    def _fits(self, state: Seen, token: str) -> bool:
        """Whether the history stays possible with ``token`` next."""
        try:
            self.seen(state._replace(moves=(*state.moves, token), drawing=False))
        except ValueError:
            return False
        return True

    def legal_actions(self, state: Seen) -> tuple[int, ...]:
        """The seat's moves in the rules' order; the other's possible moves (the module docstring); at a blocked end
        needing it, the other's possible pip totals."""
        if self.to_move(state) == CHANCE or self.is_terminal(state):
            return ()
        v = self.seen(state)
        if self._showing(state):
            return tuple(self._totals(v))
        out = np.empty(E.MAX_MOVES, np.int64)
        if v.to_move == self.you:
            n = E.legal_into(v.hand, v.left, v.right, v.drawn, v.boneyard_size, out)
            return tuple(int(m) for m in out[:n])
        n = E.legal_into(v.unknown, v.left, v.right, -1, v.boneyard_size, out)
        places = [int(m) for m in out[:n] if m < E.DRAW]
        others = [E.DRAW] if v.drawn < 0 and v.boneyard_size and v.left >= 0 else []
        others += [E.PASS] if v.left >= 0 and (v.drawn >= 0 or not v.boneyard_size) else []
        return tuple(m for m in places + others if self._fits(state, move_name(m)))

    def apply(self, state: Seen, action: Action) -> Seen:
        action = self.canonical(state, action)
        if self._dealing(state):
            return state._replace(dealt=tuple(sorted((*state.dealt, action))))  # one state whatever the order
        if state.drawing:
            return state._replace(moves=(*state.moves, f"draw:{tile_name(action)}"), drawing=False)
        if self._showing(state):
            return state._replace(shown=action)
        if action == E.DRAW and self.seen(state).to_move == self.you:
            return state._replace(drawing=True)
        return state._replace(moves=(*state.moves, move_name(action)))

    def observation(self, state: Seen, seat: int) -> Hashable:
        """The state itself for the seat it is seen from; for the other, the history without that seat's tiles."""
        if seat == self.you:
            return state
        return "seen by the other seat", tuple("draw" if m.startswith("draw:") else m for m in state.moves), \
            len(state.dealt), state.drawing, state.shown

    def view(self, state: Seen) -> View | None:
        """The seat's view at its own decisions (None elsewhere: the tables do not play the other seat)."""
        if self.to_move(state) != self.you or self.is_terminal(state):
            return None
        return self.seen(state)

    # -- words and JSON --

    def action_json(self, state: Seen, action: Action) -> str:
        if self.to_move(state) == CHANCE:
            return tile_name(action)
        return f"{PIPS}{action}" if self._showing(state) else move_name(action)

    def action_text_for(self, state: Seen, action: Action, seat: int | None) -> str:
        """The seat's tiles are named to it (``seat`` None or ``you``), "a tile" to the other."""
        tile = "a tile" if seat not in (None, self.you) or self.to_move(state) != CHANCE else tile_name(action)
        if self._dealing(state):
            return f"deals {tile} to player {self.you + 1}"
        if state.drawing:
            return f"player {self.you + 1} draws {tile}"
        if self._showing(state):
            return f"shows {counted(action, 'pip')} in hand"
        return f"plays {move_name(action)}"

    def state_text_for(self, state: Seen, seat: int | None) -> str:
        """The line, the seat's hand, the other's count (its tiles are never seen), the boneyard, who is to move."""
        me = self.you + 1
        if self._dealing(state):
            return f"the deal: {len(state.dealt)} of player {me}'s {self.hand} tiles dealt; yours: " \
                   f"{' '.join(tile_name(t) for t in state.dealt) or 'none yet'}"
        v, line, ends = self.seen(state), (), (-1, -1)
        for m in state.moves:
            if m not in ("draw", "pass") and not m.startswith("draw:"):
                move = parse_move(m, opening=ends[0] < 0)
                line, ends = extend_line(line, move, *ends), tuple(int(x) for x in E.place(move, *ends))
        hand = (" ".join(tile_name(t) for t in range(E.N_TILES) if v.hand >> t & 1) or "none") \
            if seat in (None, self.you) else counted(E.popcount(v.hand), "tile")
        other = counted(v.opponent_tiles, "tile") + ("" if state.shown is None else f", {state.shown} pips")
        hands = [f"player {me}: {hand}", f"player {3 - me}: {other}"][::1 if self.you == 0 else -1]
        text = f"line {' '.join(f'{a}-{b}' for a, b in line) or 'empty'}; {'; '.join(hands)}"
        if self.is_terminal(state):
            r = self.returns(state)[0]
            return f"{text}: {'a draw' if r == 0 else f'player {1 if r > 0 else 2} has won'}"
        doing = "shows its pips" if self._showing(state) else "draws" if state.drawing else "to move"
        mover = self.you if state.drawing else self.to_move(state)
        return f"{text}; boneyard {v.boneyard_size}; player {mover + 1} {doing}"

    def state_json(self, state: Seen) -> dict[str, JSON]:
        """{"dealt": the seat's tiles dealt so far} during the deal; then {"hand": its tiles as dealt, "moves": the
        history in ``play``'s words, "drawing": true when the seat is drawing, "shown": the other's pip total at a
        blocked end, or null}."""
        if self._dealing(state):
            return {"dealt": [tile_name(t) for t in state.dealt]}
        return {"hand": [tile_name(t) for t in state.dealt], "moves": list(state.moves),
                "drawing": state.drawing, "shown": state.shown}

    def parse_state(self, data: JSON) -> Seen:
        """A position as ``state_json`` writes it, replayed from the deal; ValueError naming what cannot be."""
        if not isinstance(data, dict) or "dealt" in data:
            data = json_object(data, "dominoes position", {"dealt": True})
            tiles, moves, drawing, pips = data["dealt"], [], False, None
        else:
            data = json_object(data, "dominoes position", {"hand": True, "moves": False, "drawing": False,
                                                           "shown": False})
            tiles, moves = data["hand"], data.get("moves", [])
            drawing, pips = data.get("drawing", False), data.get("shown")
        if not isinstance(tiles, list) or len(tiles) > self.hand:
            raise ValueError(f"the seat's hand is a list of at most {self.hand} tiles such as '3-5'")
        state = self.initial_state()
        for t in tiles:
            state = self.apply(state, self.parse_action(state, t))
        state = self._played(state, moves, drawing)
        if pips is not None:
            state = self.apply(state, self.parse_action(state, f"{PIPS}{pips}"))
        return state

    def parse_action(self, state: Seen, data: JSON) -> Action:
        """A tile at a chance node ("3-5"), a move ("3-5L", "6-6" to open, "draw", "pass"), or the other's pip total
        at a blocked end ("pips:12"); ValueError naming what is wrong with it (a tile already seen, one that does
        not fit, a move of the seat that is not to move)."""
        if self.is_terminal(state):
            raise ValueError("dominoes: the game is over, nothing more happens")
        if not isinstance(data, str):
            raise ValueError(f"dominoes: a move or tile is written as text such as '3-5L' or '3-5', got "
                             f"{type(data).__name__}; legal: {self._legal_text(state)}")
        mover = self.to_move(state)
        options = self.options(state)
        if self._showing(state):
            text = data.strip().lower().removeprefix(PIPS).removesuffix("pips").strip()
            if text.isdigit() and int(text) in options:
                return int(text)
            k = self.seen(state).opponent_tiles
            raise ValueError(f"dominoes: the game is blocked and player {2 - self.you} shows the pips in its hand, "
                             f"written '{PIPS}12': {shown(data, 20)} is not a total that {counted(k, 'tile')} it "
                             f"may hold make; legal: {self._legal_text(state)}")
        if mover != CHANCE and data.strip().lower().startswith("draw:"):
            raise ValueError(f"dominoes, seen from player {self.you + 1}: " + (
                "your draw is entered as 'draw', then the tile you drew" if mover == self.you else
                f"player {mover + 1} to move: the other player's draw is entered without its tile ('draw')"))
        action = parse_tile(data) if mover == CHANCE else parse_move(data, opening=self.seen(state).left < 0)
        if action in options:
            return action
        raise ValueError(f"dominoes, seen from player {self.you + 1}: {self._why(state, action, data)}; legal: "
                         f"{self._legal_text(state)}")

    def _why(self, state: Seen, action: int, data: str) -> str:
        """Why ``action`` (read from ``data``) cannot happen at ``state``: the rules' words (``play.replay``)."""
        if self._dealing(state):
            return f"tile {tile_name(action)} is dealt to you already"
        v = self.seen(state)
        if state.drawing:
            token, whose = f"draw:{tile_name(action)}", f"player {self.you + 1} draws"
        else:
            token, whose = move_name(action), f"player {v.to_move + 1} to move"
            if v.to_move == self.you and action < E.DRAW and not v.hand >> (action >> 1) & 1:
                return f"{whose} (you): you do not hold {tile_name(action >> 1)}"
        try:
            self.seen(state._replace(moves=(*state.moves, token), drawing=False))
        except ValueError as e:
            return f"{whose}: {str(e).split(': ', 1)[-1]}"
        return f"{whose}: {shown(data, 20)} is not legal here"
