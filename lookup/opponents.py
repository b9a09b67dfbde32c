"""One small game API, opponent models as distributions over legal moves, and the players that plan
against them (stated in docs/tictactoe.md; dominoes uses them too). Everything is exact: probabilities
are ``Fraction``s.

The game API (``Game``): a state is hashable; ``to_move(state)`` is the player (0 or 1) about to move;
``legal_moves(state)`` lists the moves in the game's documented order (the order the "first" and "last"
models read); ``apply(state, move)`` is the next state; ``is_terminal(state)``; ``returns(state)`` is
(+1, 0 or -1) for each player at a terminal state; ``observation(state, player)`` is what that player sees.
Models read two optional hooks: ``strength(state, move)`` (the "strong" model: highest wins) and
``heuristic(state, player)`` (the seed's evaluation, for the "greedy" model); the perfect model reads
``minimax(state)`` (value for the player to move under perfect play). A third game implements this API
and every model and player below works on it.

Players (all maximise the expected return of the player they play for, +1 win, 0 draw, -1 loss; ties
between moves of exactly equal value go to the first move in the documented order):

- ``perfect``: minimax, the opponent minimises.
- ``predictive``: one fixed model; the value of an opponent node is the model's expectation.
- ``realistic``: a set of credible models, filtered on the observed opponent moves (a model that gives an
  observed move probability 0 is dropped). At a simulated opponent node with credible set C, each model m
  of C gives sum_a m(a) V(next, C_a), where C_a keeps the models of C that could play a; the node's value
  is the worst (lowest) of these (the seed's Max-Min-Expectimax, with its per-move filtering). With one
  credible model it is exactly ``predictive`` with that model.
- ``bayesian``: a posterior over the models (uniform prior), updated by each model's
  likelihood of the observed moves; an opponent node's value is the expectation under the posterior
  predictive mixture, the posterior updated along each simulated move.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from lookup.naming import by_name

State = Hashable
Move = Hashable
Distribution = dict[Any, Fraction]


class Game(Protocol):
    """The game API every model and player reads (see the module docstring)."""

    name: str

    def to_move(self, state: State) -> int: ...
    def legal_moves(self, state: State) -> tuple[Move, ...]: ...
    def apply(self, state: State, move: Move) -> State: ...
    def is_terminal(self, state: State) -> bool: ...
    def returns(self, state: State) -> tuple[int, int]: ...
    def observation(self, state: State, player: int) -> Any: ...


# --- opponent models ---------------------------------------------------------------------------------


def _uniform(moves: Sequence[Move]) -> Distribution:
    p = Fraction(1, len(moves))
    return {m: p for m in moves}


def _best(moves: Sequence[Move], score: Callable[[Move], Any]) -> Distribution:
    """Uniform over the moves of highest score."""
    scores = [score(m) for m in moves]
    top = max(scores)
    return _uniform([m for m, s in zip(moves, scores, strict=True) if s == top])


def random_model(game: Game, state: State) -> Distribution:
    """Every legal move with equal probability."""
    return _uniform(game.legal_moves(state))


def first_model(game: Game, state: State) -> Distribution:
    """The first legal move in the documented order, always."""
    return {game.legal_moves(state)[0]: Fraction(1)}


def last_model(game: Game, state: State) -> Distribution:
    """The last legal move in the documented order, always."""
    return {game.legal_moves(state)[-1]: Fraction(1)}


def strong_model(game: Game, state: State) -> Distribution:
    """Uniform over the moves of highest ``game.strength`` (dominoes: the highest pip sum)."""
    return _best(game.legal_moves(state), lambda m: game.strength(state, m))  # type: ignore[attr-defined]


def greedy_model(game: Game, state: State) -> Distribution:
    """The seed's evaluation-greedy model: uniform over the moves whose resulting position has the highest
    ``game.heuristic`` for the mover (one ply, no search)."""
    me = game.to_move(state)
    return _best(game.legal_moves(state),
                 lambda m: game.heuristic(game.apply(state, m), me))  # type: ignore[attr-defined]


def perfect_model(game: Game, state: State) -> Distribution:
    """Uniform over the moves that keep the mover's minimax value (perfect play)."""
    me = game.to_move(state)

    def score(m: Move) -> int:
        nxt = game.apply(state, m)
        if game.is_terminal(nxt):
            return game.returns(nxt)[me]
        return game.minimax(nxt) * (1 if game.to_move(nxt) == me else -1)  # type: ignore[attr-defined]

    return _best(game.legal_moves(state), score)


@dataclass(frozen=True)
class Model:
    """An opponent model: ``distribution(game, state)`` over the legal moves (probabilities > 0 only)."""

    name: str
    distribution: Callable[[Game, State], Distribution]
    needs: str = ""  # the game hook it reads ("strength", "heuristic", "minimax"), "" for none

    def probability(self, game: Game, state: State, move: Move) -> Fraction:
        """Probability that the model plays ``move`` at ``state`` (0 for a move it never plays)."""
        return self.distribution(game, state).get(move, Fraction(0))

    def applies_to(self, game: Game) -> bool:
        return not self.needs or callable(getattr(game, self.needs, None))


MODELS: dict[str, Model] = {
    "random": Model("random", random_model),
    "first": Model("first", first_model),
    "last": Model("last", last_model),
    "strong": Model("strong", strong_model, "strength"),
    "greedy": Model("greedy", greedy_model, "heuristic"),
    "perfect": Model("perfect", perfect_model, "minimax"),
}


def get_model(name: str | Model) -> Model:
    """The model called ``name`` (a Model passes through); ValueError naming an unknown one."""
    return name if isinstance(name, Model) else by_name(MODELS, name, "opponent model")


def models_for(game: Game, names: Iterable[str] | None = None) -> tuple[Model, ...]:
    """The models (all, or the named ones) that ``game`` supports; ValueError for an unknown or
    unsupported name."""
    if names is None:
        return tuple(m for m in MODELS.values() if m.applies_to(game))
    out = []
    for name in names:
        model = get_model(name)
        if not model.applies_to(game):
            raise ValueError(f"opponent model {model.name!r} does not apply to {game.name} "
                             f"(the game has no {model.needs!r})")
        out.append(model)
    return tuple(out)


def check_move(game: Game, state: State, move: Move) -> None:
    """ValueError naming the move unless it is legal at ``state``."""
    if game.is_terminal(state):
        raise ValueError(f"{game.name}: the game is over, no move is legal")
    if move not in game.legal_moves(state):
        raise ValueError(f"{game.name}: move {move!r} is not legal here (legal: {list(game.legal_moves(state))})")


def likelihood(model: Model, game: Game, history: Iterable[tuple[State, Move]]) -> Fraction:
    """Probability that ``model`` plays every (state, move) of ``history`` (the opponent's moves only);
    ValueError for a move that is not legal in its state."""
    p = Fraction(1)
    for state, move in history:
        check_move(game, state, move)
        p *= model.probability(game, state, move)
    return p


def credible(models: Iterable[Model], game: Game, history: Iterable[tuple[State, Move]]) -> tuple[Model, ...]:
    """The models with positive likelihood of ``history`` (the realistic player's filter)."""
    history = list(history)
    return tuple(m for m in models if likelihood(m, game, history) > 0)


def posterior(models: Sequence[Model], game: Game, history: Iterable[tuple[State, Move]],
              prior: Sequence[Fraction] | None = None) -> tuple[Fraction, ...]:
    """Posterior over ``models`` after ``history`` (prior uniform unless given); ValueError when every
    model gives the history probability 0."""
    history = list(history)
    prior = prior or [Fraction(1, len(models))] * len(models)
    weights = [w * likelihood(m, game, history) for m, w in zip(models, prior, strict=True)]
    total = sum(weights)
    if total == 0:
        raise ValueError("no opponent model can have played this history")
    return tuple(w / total for w in weights)


# --- players ----------------------------------------------------------------------------------------

PLAYER_KINDS = ("perfect", "predictive", "realistic", "bayesian")


class Player:
    """A planning player for seat ``me``: ``belief`` is what it knows of the opponent (None for perfect,
    a model index for predictive, a frozenset of model indices for realistic, a tuple of posterior weights
    for bayesian); ``value(state, belief)`` is its exact expected return at ``state``; ``choose`` the first
    move (documented order) of highest value; ``observe`` updates the belief on an opponent move."""

    def __init__(self, kind: str, game: Game, me: int, models: Sequence[Model] = ()) -> None:
        if kind not in PLAYER_KINDS:
            raise ValueError(f"unknown player {kind!r}; known: {', '.join(PLAYER_KINDS)}")
        if kind != "perfect" and not models:
            raise ValueError(f"a {kind} player needs at least one opponent model")
        if kind == "predictive" and len(models) != 1:
            raise ValueError("a predictive player assumes exactly one opponent model")
        self.kind, self.game, self.me, self.models = kind, game, me, tuple(models)
        self._memo: dict[tuple[State, Any], Fraction] = {}

    def initial_belief(self) -> Any:
        if self.kind == "perfect":
            return None
        if self.kind == "predictive":
            return 0
        if self.kind == "realistic":
            return frozenset(range(len(self.models)))
        return tuple([Fraction(1, len(self.models))] * len(self.models))

    def observe(self, belief: Any, state: State, move: Move) -> Any:
        """The belief after the opponent plays ``move`` at ``state``; ValueError when no credible model
        (realistic) or no model with positive posterior (bayesian) could have played it."""
        check_move(self.game, state, move)
        if self.kind in ("perfect", "predictive"):
            return belief
        probs = [m.probability(self.game, state, move) for m in self.models]
        if self.kind == "realistic":
            kept = frozenset(i for i in belief if probs[i] > 0)
            if not kept:
                raise ValueError(f"no credible opponent model plays {move!r} here")
            return kept
        weights = [w * p for w, p in zip(belief, probs, strict=True)]
        total = sum(weights)
        if total == 0:
            raise ValueError(f"no opponent model with positive posterior plays {move!r} here")
        return tuple(w / total for w in weights)

    def move_values(self, state: State, belief: Any) -> list[tuple[Move, Fraction]]:
        """(move, exact value) for each legal move of the player at ``state`` (its turn)."""
        return [(m, self._value(self.game.apply(state, m), belief)) for m in self.game.legal_moves(state)]

    def choose(self, state: State, belief: Any) -> Move:
        values = self.move_values(state, belief)
        best = max(v for _, v in values)
        return next(m for m, v in values if v == best)

    def value(self, state: State, belief: Any) -> Fraction:
        return self._value(state, belief)

    def _value(self, state: State, belief: Any) -> Fraction:
        key = (state, belief)
        found = self._memo.get(key)
        if found is not None:
            return found
        game = self.game
        if game.is_terminal(state):
            out = Fraction(game.returns(state)[self.me])
        elif game.to_move(state) == self.me:
            out = max(self._value(game.apply(state, m), belief) for m in game.legal_moves(state))
        else:
            out = self._opponent_value(state, belief)
        self._memo[key] = out
        return out

    def _opponent_value(self, state: State, belief: Any) -> Fraction:
        game = self.game
        if self.kind == "perfect":
            return min(self._value(game.apply(state, m), None) for m in game.legal_moves(state))
        if self.kind == "predictive":
            dist = self.models[0].distribution(game, state)
            return sum((p * self._value(game.apply(state, m), belief) for m, p in dist.items()), Fraction(0))
        dists = [m.distribution(game, state) for m in self.models]
        if self.kind == "realistic":
            worst = None
            for i in sorted(belief):
                total = Fraction(0)
                for move, p in dists[i].items():
                    kept = frozenset(j for j in belief if move in dists[j])
                    total += p * self._value(game.apply(state, move), kept)
                worst = total if worst is None or total < worst else worst
            return worst
        out = Fraction(0)
        for move in game.legal_moves(state):
            weights = [w * dists[i].get(move, 0) for i, w in enumerate(belief)]
            q = sum(weights)
            if q:
                out += q * self._value(game.apply(state, move), tuple(w / q for w in weights))
        return out


def match_outcome(game: Game, player: Player, model: Model, start: State) -> tuple[Fraction, Fraction, Fraction]:
    """Exact (win, draw, loss) probabilities of ``player`` (its seat ``player.me``) against ``model``
    from ``start``, the player observing every opponent move (no simulation)."""
    memo: dict[tuple[State, Any], tuple[Fraction, Fraction, Fraction]] = {}

    def walk(state: State, belief: Any) -> tuple[Fraction, Fraction, Fraction]:
        key = (state, belief)
        if key in memo:
            return memo[key]
        if game.is_terminal(state):
            r = game.returns(state)[player.me]
            out = (Fraction(r > 0), Fraction(r == 0), Fraction(r < 0))
        elif game.to_move(state) == player.me:
            out = walk(game.apply(state, player.choose(state, belief)), belief)
        else:
            acc = [Fraction(0)] * 3
            for move, p in model.distribution(game, state).items():
                sub = walk(game.apply(state, move), player.observe(belief, state, move))
                acc = [a + p * s for a, s in zip(acc, sub, strict=True)]
            out = (acc[0], acc[1], acc[2])
        memo[key] = out
        return out

    return walk(start, player.initial_belief())
