"""Tic-tac-toe through the game protocol (``lookup.protocol``): the advisor over the tables, and ``SPEC``.

The game is ``lookup.tictactoe.rules.GAME`` (boards, cells 0..8, no chance nodes). A setup is
``{"model": M, "you": S}``:

- ``model`` "perfect": both seats play perfect (minimax) play; every value is the minimax value (+1 / 0 / -1)
  and the best actions are the moves that keep it (the tables' ``minimax_moves``).
- ``model`` one of the opponent models built in the tables ("random", "first", ...): seat ``you`` best-responds
  to the other seat, which plays that model. At ``you``'s decisions the values are the tables' exact
  best-response values and the best actions their exact masks (``best_moves``); at the other seat's decisions
  the policy is the model's distribution and ``you``'s value is the model's expectation over its moves.

Values are the expected result (+1 win, 0 draw, -1 loss) of the seat named; the two seats' values are
opposite. (Best response to the "perfect" model is minimax play: that model keeps its own minimax value
with every move, so ``you`` can do no better than its minimax value, which minimax play achieves; the tables
agree, value for value and mask for mask, tests/tictactoe.)
"""

from __future__ import annotations

from pathlib import Path

from lookup.games import GameSpec, Option
from lookup.opponents import Model, get_model, models_for
from lookup.protocol import JSON, Advisor
from lookup.store import ArtifactError
from lookup.tictactoe.rules import GAME, Board, TicTacToe, board_code
from lookup.tictactoe.tables import Tables, load_tables

PERFECT = "perfect"  # the setup's model for perfect play by both seats (minimax)
MODELS = tuple(m.name for m in models_for(GAME))  # the models that apply to tic-tac-toe (the tables' choice)


def _cells(mask: int) -> tuple[int, ...]:
    return tuple(m for m in range(9) if mask >> m & 1)


class TicTacToeAdvisor(Advisor):
    """Perfect play for both seats (``model`` None), or seat ``you`` best-responding to ``model``."""

    game: TicTacToe

    def __init__(self, tables: Tables, model: Model | None = None, you: int = 0) -> None:
        super().__init__(GAME)
        self.tables, self.model, self.you = tables, model, you
        self.k = -1 if model is None else tables.model_index(model.name)

    def _row(self, state: Board) -> int:
        return self.tables.row(board_code(state))

    def _models_turn(self, state: Board) -> bool:
        return self.model is not None and self.game.to_move(state) != self.you

    def value(self, state: Board, seat: int) -> float:
        game = self.game
        if game.is_terminal(state):
            return float(game.returns(state)[seat])
        mover = game.to_move(state)
        if self.model is None:
            mine = float(self.tables.minimax[self._row(state)])
        elif mover == self.you:
            mine = float(self.tables.best_response[self.k, self._row(state)])
        else:  # the model's expectation, for the model's seat (the mover)
            mine = -sum(float(p) * self.value(game.apply(state, a), self.you)
                        for a, p in self.model.distribution(game, state).items())
        return mine if seat == mover else 0.0 - mine  # (0.0 - x: a draw is 0.0, not -0.0)

    def best_actions(self, state: Board) -> tuple[int, ...]:
        """The stored exact masks: the moves that keep the minimax value, or best-respond exactly; at the
        model's turn, the moves of highest value for it."""
        if self._models_turn(state):
            return super().best_actions(state)
        r = self._row(state)
        return _cells(int(self.tables.minimax_moves[r] if self.model is None else self.tables.best_moves[self.k, r]))

    def policy(self, state: Board) -> dict[int, float]:
        """The first best move (lowest cell), or the model's distribution at its turn."""
        if self._models_turn(state):
            assert self.model is not None
            return {a: float(p) for a, p in self.model.distribution(self.game, state).items()}
        return {self.best_actions(state)[0]: 1.0}


def setups(root: Path) -> list[dict[str, JSON]]:
    """Perfect play, then best response to every model the tables in ``root`` hold, seats alternating (so that
    the first few setups play both seats); [] when the tables are not built."""
    try:
        built = load_tables(artifacts_dir=root).models
    except ArtifactError:
        return []
    names = [PERFECT, *(m for m in built if m != PERFECT)]
    return [{"model": m, "you": (i + flip) % 2} for flip in (0, 1) for i, m in enumerate(names)]


def open_tictactoe(setup: dict[str, JSON], artifacts_dir: Path | None) -> TicTacToeAdvisor:
    tables = load_tables(artifacts_dir=artifacts_dir)
    model = None if setup["model"] == PERFECT else get_model(str(setup["model"]))
    return TicTacToeAdvisor(tables, model, int(setup["you"]))


SPEC = GameSpec(
    name="tictactoe",
    title="Tic-tac-toe",
    summary="Two players mark the cells of a 3x3 board in turn, X first; three marks in a row win, a full board "
            "without a line is a draw.",
    options={"model": Option(PERFECT, "perfect play by both seats, or the opponent model the other seat plays "
                                      "(you best-respond to it)", choices=MODELS),
             "you": Option(0, "your seat: 0 plays X (first), 1 plays O", choices=(0, 1))},
    setups=setups,
    open=open_tictactoe,
)
