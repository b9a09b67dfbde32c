"""Opponent models as distributions over legal moves, and the players that plan against them: written once
here for every two-seat game of the protocol without chance nodes (``lookup.protocol``: tic-tac-toe, dominoes;
stated in docs/tictactoe.md). Everything is exact: probabilities are ``Fraction``s.

The game is a ``lookup.protocol.Game``; the players read ``to_move``, ``legal_actions`` (in the game's
documented order: the order the "first" and "last" models read), ``apply``, ``is_terminal``, ``returns`` ((+1, 0
or -1) for each player at a terminal state) and ``observation`` (hashable, with perfect recall: two states with
equal observations are the same to the player, their whole history included). Who moves and whether the game is
over are seen by both players.

Optional hooks: ``strength(state, move)`` (the "strong" model: highest wins), ``heuristic(state, player)``
(the seed's evaluation, for the "greedy" model), ``minimax(state)`` (the "perfect" model: value for the
player to move under perfect play); a model whose hook the game lacks does not apply to it. A game that
hides information adds ``deals(start, player)``: every start position the player cannot tell from
``start``, each with its probability (``Fraction``s summing to 1); the players then reason over
information sets. A third game implementing this API gets every model and player below.

Players (all maximise the expected return of the player they play for, +1 win, 0 draw, -1 loss; ties
between moves of exactly equal value go to the first move in the documented order). With hidden
information a player's position is its information set: the states it cannot tell apart, each weighed by
its probability and by each model's probability of the opponent's moves so far; it picks one move for the
whole set, and after a move the set splits on what the player sees.

- ``perfect``: minimax on the full state, the opponent minimises (with hidden information: the
  clairvoyant player, who sees every hand).
- ``predictive``: one fixed model; the value of an opponent node is the model's expectation.
- ``realistic``: a set of credible models, filtered on the observed opponent moves (a model that gives an
  observed move probability 0 is dropped). At a simulated opponent node with credible set C, each model m
  of C gives sum_a m(a) V(next, C_a), where C_a keeps the models of C that could play a; the node's value
  is the worst (lowest) of these (the seed's Max-Min-Expectimax, with its per-move filtering). With one
  credible model it is exactly ``predictive`` with that model. With hidden information the worst model is
  taken per state of the information set, the states weighed at the decision by the mean of the credible
  models' own posteriors (the dominoes engine's definition).
- ``bayesian``: a posterior over the models (uniform prior), updated by each model's
  likelihood of the observed moves; an opponent node's value is the expectation under the posterior
  predictive mixture, the posterior updated along each simulated move (with hidden information: over
  models and states together).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from lookup.naming import by_name
from lookup.protocol import Game

State = Hashable
Move = Hashable
Distribution = dict[Any, Fraction]


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
    return _uniform(game.legal_actions(state))


def first_model(game: Game, state: State) -> Distribution:
    """The first legal move in the documented order, always."""
    return {game.legal_actions(state)[0]: Fraction(1)}


def last_model(game: Game, state: State) -> Distribution:
    """The last legal move in the documented order, always."""
    return {game.legal_actions(state)[-1]: Fraction(1)}


def strong_model(game: Game, state: State) -> Distribution:
    """Uniform over the moves of highest ``game.strength`` (dominoes: the highest pip sum)."""
    return _best(game.legal_actions(state), lambda m: game.strength(state, m))  # type: ignore[attr-defined]


def greedy_model(game: Game, state: State) -> Distribution:
    """The seed's evaluation-greedy model: uniform over the moves whose resulting position has the highest
    ``game.heuristic`` for the mover (one ply, no search)."""
    me = game.to_move(state)
    return _best(game.legal_actions(state),
                 lambda m: game.heuristic(game.apply(state, m), me))  # type: ignore[attr-defined]


def perfect_model(game: Game, state: State) -> Distribution:
    """Uniform over the moves that keep the mover's minimax value (perfect play)."""
    me = game.to_move(state)

    def score(m: Move) -> int:
        nxt = game.apply(state, m)
        if game.is_terminal(nxt):
            return game.returns(nxt)[me]
        return game.minimax(nxt) * (1 if game.to_move(nxt) == me else -1)  # type: ignore[attr-defined]

    return _best(game.legal_actions(state), score)


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
    if move not in game.legal_actions(state):
        raise ValueError(f"{game.name}: move {move!r} is not legal here (legal: {list(game.legal_actions(state))})")


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

Weights = tuple[Fraction | int, ...]  # one weight per model of the player (see ``Player``)
Node = tuple[tuple[State, Weights], ...]  # an information set: (state, weights) particles, states distinct
_ONE, _ZERO = (1,), Fraction(0)  # (int weights where they are 0 or 1: hashed and multiplied faster)


def _weight(w: Weights | list[Fraction]) -> Fraction:
    """A particle's total weight (over the models)."""
    return w[0] if len(w) == 1 else sum(w)


def hides_information(game: Game) -> bool:
    """True for a game with hidden information: it has the ``deals`` hook (see the module docstring)."""
    return callable(getattr(game, "deals", None))


class Player:
    """A planning player for seat ``me`` (see the module docstring for the kinds).

    ``belief`` is what the player knows. In a game of complete information: None for perfect, a model
    index for predictive, a frozenset of model indices (the credible set) for realistic, a tuple of
    posterior weights for bayesian. In a game that hides information (``hides_information``): the
    information set itself, a ``Node`` of particles (state, weights) where weights[j] is proportional to
    the probability of that state (the deal) times model j's probability of every opponent move so far;
    ``initial_belief(start)`` lists the deals through ``game.deals``. The perfect player reads the full
    state in either case (in a hidden-information game it is the clairvoyant player who sees everything).

    ``value(state, belief)`` is the exact expected return for ``me``; ``move_values`` gives it after each
    legal move, ``choose`` the first move (documented order) of highest value; ``observe`` is the belief
    after a move (the player's own or the opponent's) that the player sees played."""

    def __init__(self, kind: str, game: Game, me: int, models: Sequence[Model] = ()) -> None:
        if kind not in PLAYER_KINDS:
            raise ValueError(f"unknown player {kind!r}; known: {', '.join(PLAYER_KINDS)}")
        if kind != "perfect" and not models:
            raise ValueError(f"a {kind} player needs at least one opponent model")
        if kind == "predictive" and len(models) != 1:
            raise ValueError("a predictive player assumes exactly one opponent model")
        self.kind, self.game, self.me, self.models = kind, game, me, tuple(models)
        self.hidden = hides_information(game)
        self._memo: dict[Any, Fraction] = {}

    # -- beliefs --

    def initial_belief(self, start: State | None = None) -> Any:
        """The belief before any move; a hidden-information game needs the ``start`` position (the
        player's view of it: the deals it cannot tell apart)."""
        if self.kind == "perfect":
            return None
        if self.hidden:
            if start is None:
                raise ValueError(f"{self.game.name} hides information: initial_belief needs the start position")
            n = len(self.models)
            return self._canonical({s: [p] * n for s, p in self.game.deals(start, self.me)})  # type: ignore[attr-defined]
        if self.kind == "predictive":
            return 0
        if self.kind == "realistic":
            return frozenset(range(len(self.models)))
        return tuple([Fraction(1, len(self.models))] * len(self.models))

    def observe(self, belief: Any, state: State, move: Move) -> Any:
        """The belief after ``move`` is played at ``state`` (the true position; the player reads only its
        observation of the next one). ValueError when no credible model (realistic), no model of positive
        posterior (bayesian) or no deal (hidden information) can explain the move."""
        check_move(self.game, state, move)
        if self.kind == "perfect":
            return belief
        if self.hidden:
            seen = self.game.observation(self.game.apply(state, move), self.me)
            groups = self._successors(belief, move if self.game.to_move(state) == self.me else None)[0]
            if seen not in groups:
                raise ValueError(f"no deal and credible opponent model the player considers plays {move!r} here")
            return self._canonical(groups[seen])
        if self.game.to_move(state) == self.me or self.kind == "predictive":
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

    def _node(self, state: State, belief: Any) -> Node:
        """The information set of a belief: the belief itself when information is hidden, else the one
        state with a weight per model (realistic 1 for a credible model, bayesian the posterior)."""
        if self.hidden:
            return self._root(belief)
        if self.kind == "predictive":
            return ((state, _ONE),)
        if self.kind == "realistic":
            return ((state, tuple(int(i in belief) for i in range(len(self.models)))),)
        return ((state, tuple(belief)),)

    def _root(self, node: Node) -> Node:
        """At a decision the realistic player weighs the hidden state by each credible model's own
        posterior (every model's weights scaled to sum 1), as the dominoes engine does; then along the
        simulated moves the weights are multiplied by the models' probabilities of those moves."""
        if self.kind != "realistic":
            return node
        totals = [sum((w[j] for _, w in node), Fraction(0)) for j in range(len(self.models))]
        return tuple((s, tuple(x / t if t else x for x, t in zip(w, totals, strict=True))) for s, w in node)

    def _canonical(self, particles: dict[State, list[Fraction]]) -> Node:
        """A node from weighed states (equal states already merged), scaled to total weight 1 (values are
        ratios of weights: scaling the whole node changes none). With complete information the one state's
        realistic weights become 0/1: only which models are credible matters there."""
        if not self.hidden:  # one state (the common case, kept cheap: exact fractions are slow to add)
            ((state, w),) = particles.items()
            if self.kind == "predictive":
                return ((state, _ONE),)
            if self.kind == "realistic":
                return ((state, tuple(1 if x else 0 for x in w)),)
        total = sum(_weight(w) for w in particles.values())
        if total == 0:
            raise ValueError("no state of positive weight: the belief cannot explain what was seen")
        return tuple((s, tuple(x / total for x in w)) for s, w in particles.items())

    # -- values --

    def move_values(self, state: State, belief: Any) -> list[tuple[Move, Fraction]]:
        """(move, exact value) for each legal move of the player at ``state`` (its turn)."""
        if self.kind == "perfect":
            return [(m, self._perfect(self.game.apply(state, m))) for m in self.game.legal_actions(state)]
        node = self._node(state, belief)
        return [(m, self._after(node, m)) for m in self.game.legal_actions(state)]

    def choose(self, state: State, belief: Any) -> Move:
        values = self.move_values(state, belief)
        best = max(v for _, v in values)
        return next(m for m, v in values if v == best)

    def value(self, state: State, belief: Any) -> Fraction:
        if self.kind == "perfect":
            return self._perfect(state)
        return self._value(self._node(state, belief))

    def _perfect(self, state: State) -> Fraction:
        """Minimax on the full state: the opponent minimises the player's return."""
        found = self._memo.get(state)
        if found is None:
            game = self.game
            if game.is_terminal(state):
                found = Fraction(game.returns(state)[self.me])
            else:
                values = [self._perfect(game.apply(state, m)) for m in game.legal_actions(state)]
                found = max(values) if game.to_move(state) == self.me else min(values)
            self._memo[state] = found
        return found

    def _successors(self, node: Node, move: Move | None) -> tuple[dict[Any, dict[State, list[Fraction]]], list]:
        """The particles after one move, grouped by what the player sees of the result (complete
        information: by the state itself). ``move``: the player's own move, played in every particle;
        None: the opponent's turn, each particle playing each move its models give positive probability,
        the weights multiplied by it. Also returns, for the opponent's turn, each particle's weights and
        its (model, probability, group) plays, which the realistic player reads."""
        game, n = self.game, len(self.models)
        groups: dict[Any, dict[State, list[Fraction]]] = {}
        plays = []

        def add(child: State, j: int | None, weight: Fraction, w: Weights) -> Any:
            key = game.observation(child, self.me) if self.hidden else child
            group = groups.setdefault(key, {})
            acc = group.get(child)
            if acc is None:  # (copying rather than adding to zeros: exact fractions are slow to add)
                acc = group[child] = list(w) if j is None else [_ZERO] * n
                if j is None:
                    return key
            if j is None:
                for i in range(n):
                    acc[i] += w[i]
            else:
                acc[j] = acc[j] + weight if acc[j] else weight
            return key

        for s, w in node:
            if move is not None:
                add(game.apply(s, move), None, _ZERO, w)
                continue
            made, after = [], {}
            for j, wj in enumerate(w):
                if wj:
                    for a, p in self.models[j].distribution(game, s).items():
                        child = after.get(a)
                        if child is None:
                            child = after[a] = game.apply(s, a)
                        made.append((j, p, add(child, j, wj * p, w)))
            plays.append((w, made))
        return groups, plays

    def _after(self, node: Node, move: Move) -> Fraction:
        """Value after the player's ``move``: the mean over what it may then see (its own draw, say)."""
        groups = self._successors(node, move)[0]
        return self._mean(groups)

    def _mean(self, groups: dict[Any, dict[State, list[Fraction]]]) -> Fraction:
        """The weighted mean of the groups' values (each group a node of what the player may see)."""
        if len(groups) == 1:
            (group,) = groups.values()
            return self._value(self._canonical(group))
        num = total = _ZERO
        for group in groups.values():
            weight = sum(_weight(w) for w in group.values())
            if weight:
                num += weight * self._value(self._canonical(group))
                total += weight
        return num / total

    def _value(self, node: Node) -> Fraction:
        key = frozenset(node) if self.hidden else node
        found = self._memo.get(key)
        if found is not None:
            return found
        game = self.game
        state = node[0][0]  # whether the game is over and who moves are seen by both players
        if game.is_terminal(state):
            if len(node) == 1:
                out = Fraction(game.returns(state)[self.me])
            else:
                total = sum(_weight(w) for _, w in node)
                out = sum(_weight(w) * game.returns(s)[self.me] for s, w in node) / total
        elif game.to_move(state) == self.me:
            out = max(self._after(node, m) for m in game.legal_actions(state))
        else:
            out = self._opponent_value(node)
        self._memo[key] = out
        return out

    def _opponent_value(self, node: Node) -> Fraction:
        groups, plays = self._successors(node, None)
        if self.kind != "realistic":
            return self._mean(groups)
        # Each particle's worst credible model: sum_a m(a) V(what the player sees after a), the
        # particles weighed by their total weight (complete information: one particle, the worst model).
        values = {k: self._value(self._canonical(g)) for k, g in groups.items()}
        num = den = Fraction(0)
        for w, made in plays:
            per: dict[int, Fraction] = {}
            for j, p, key in made:
                per[j] = per.get(j, Fraction(0)) + p * values[key]
            omega = sum(w)
            num += omega * min(per.values())
            den += omega
        return num / den


def match_outcome(game: Game, player: Player, model: Model, start: State) -> tuple[Fraction, Fraction, Fraction]:
    """Exact (win, draw, loss) probabilities of ``player`` (its seat ``player.me``) against ``model``
    from ``start``, the player observing every move as it sees it (no simulation). In a game that hides
    information ``start`` is one deal: average over the deals for the game's expectation."""
    memo: dict[tuple[State, Any], tuple[Fraction, Fraction, Fraction]] = {}

    def walk(state: State, belief: Any) -> tuple[Fraction, Fraction, Fraction]:
        key = (state, belief)
        if key in memo:
            return memo[key]
        if game.is_terminal(state):
            r = game.returns(state)[player.me]
            out = (Fraction(r > 0), Fraction(r == 0), Fraction(r < 0))
        elif game.to_move(state) == player.me:
            move = player.choose(state, belief)
            out = walk(game.apply(state, move), player.observe(belief, state, move))
        else:
            acc = [Fraction(0)] * 3
            for move, p in model.distribution(game, state).items():
                sub = walk(game.apply(state, move), player.observe(belief, state, move))
                acc = [a + p * s for a, s in zip(acc, sub, strict=True)]
            out = (acc[0], acc[1], acc[2])
        memo[key] = out
        return out

    return walk(start, player.initial_belief(start) if player.hidden else player.initial_belief())
