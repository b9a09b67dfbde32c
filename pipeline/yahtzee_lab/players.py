"""Yahtzee players behind one interface, and their compiled forms for the numba engine.

The interface (what a plain Python callable implements)::

    player(own: Sheet, opponent: Sheet, dice: tuple[int, ...], rerolls_left: int) -> action

``own`` / ``opponent`` are the two score sheets (``lookup.yahtzee.sheet.Sheet`` of the game's rules;
``Sheet.total`` is the real score so far), ``dice`` the five pips SORTED ascending, ``rerolls_left`` 2, 1
or 0. With rerolls left the action is a reroll mask (int, bit i set = reroll ``dice[i]``; 0 = keep all) or
a sequence of five bools (True = reroll); with 0 left it is the box to score in (index in sheet order or
name). A player may define ``start_turn(seed, key, stream, turn)``: the engine calls it at each of its
turns with the turn's stream identity (built-in random players draw their choices from it).

Built-in players (``get_player(name)``):

* ``optimal`` - the policy table of the game's rule set; ``optimal:RULES`` that of another rule set
  with the same scoring (e.g. ``optimal:verhoeff`` is refused in a forced-Joker game);
* ``esperance`` - the ``seed`` rule set's table (the seed's ESPERANCE: upper bonus ignored by the
  optimisation, paid by the game);
* ``random`` - uniform reroll masks and uniform allowed boxes;
* ``decision_une`` - the seed's hand-made strategy (``pipeline.yahtzee_lab.decision_une``);
* ``perturbation`` - ESPERANCE plus the seed's twelve weighted functions, weights from the tuned artifact
  (``pipeline.yahtzee_lab.tuning``) unless given (``pipeline.yahtzee_lab.perturbation``);
* ``package.module:attribute`` - a Python callable (the slow path).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from lookup.yahtzee.rules import CATEGORIES, Rules, get_rules, kernel_params
from lookup.yahtzee.sheet import Sheet, category_index
from lookup.yahtzee.tables import load_tables
from pipeline.yahtzee_lab import engine
from pipeline.yahtzee_lab.perturbation import N_FEATURES

__all__ = ["BUILTIN", "PlayerSpec", "get_player", "game_rules", "compile_player", "CompiledPlayer", "python_player",
           "as_reroll_mask", "as_category", "NO_PLAYER"]

BUILTIN = ("optimal", "esperance", "random", "decision_une", "perturbation")
_KINDS = {"random": engine.KIND_RANDOM, "decision_une": engine.KIND_UNE}
# The scoring fields two rule sets must share for a table of one to play a game of the other.
_SCORING = ("n_dice", "n_faces", "upper_threshold", "upper_bonus", "yahtzee_bonus", "joker", "full_house_score",
            "small_straight_score", "large_straight_score", "yahtzee_score", "joker_scores", "boxes", "forced_order")


@dataclass(frozen=True)
class PlayerSpec:
    """What a player is (small and picklable: Dask ships it to the workers, which load the tables).

    kind: "table", "random", "decision_une", "perturbation" or "python"; table_rules: the rule set whose
    tables a table player (or Perturbation's values) reads, None = the game's; alpha: Perturbation's
    weights (None = the tuned artifact); func: the callable of a "python" player.
    """

    name: str
    kind: str
    table_rules: str | None = None
    alpha: tuple[float, ...] | None = None
    func: Callable[..., Any] | None = None

    @property
    def compiled(self) -> bool:
        """True when the numba engine can play it (every kind but "python")."""
        return self.kind != "python"


def get_player(player: str | PlayerSpec | Callable[..., Any], *, alpha: Sequence[float] | None = None) -> PlayerSpec:
    """The player called ``player`` (a built-in name, ``optimal:RULES``, ``module:attribute``), a spec
    unchanged, or a plain callable wrapped; ValueError for an unknown name."""
    if isinstance(player, PlayerSpec):
        return player
    if callable(player):
        return PlayerSpec(name=getattr(player, "__name__", type(player).__name__), kind="python", func=player)
    name = str(player).strip()
    if name == "optimal":
        return PlayerSpec("optimal", "table")
    if name.startswith("optimal:"):
        return PlayerSpec(name, "table", table_rules=get_rules(name.split(":", 1)[1]).name)
    if name == "esperance":
        return PlayerSpec("esperance", "table", table_rules="seed")
    if name in _KINDS:
        return PlayerSpec(name, name)
    if name == "perturbation":
        if alpha is not None and len(alpha) != N_FEATURES:
            raise ValueError(f"perturbation takes {N_FEATURES} weights, got {len(alpha)}")
        return PlayerSpec(name, "perturbation", table_rules="seed",
                          alpha=None if alpha is None else tuple(float(a) for a in alpha))
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            func = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"player {name!r}: cannot import {attr!r} from {module!r} ({exc})") from None
        return PlayerSpec(name, "python", func=checked_player(func, name))
    raise ValueError(f"unknown player {name!r}; built-in: {', '.join(BUILTIN)}, optimal:RULES, or module:callable")


def checked_player(func: Any, name: str) -> Callable[..., Any]:
    """``func`` when it can be called as a player, ``func(own, opponent, dice, rerolls_left)``; ValueError naming
    the player otherwise (``os:system`` takes one argument: refused here, not a TypeError mid-game)."""
    if not callable(func):
        raise ValueError(f"player {name!r} is not callable")
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return func  # a callable whose signature Python cannot tell (some built-ins): its first call says
    try:
        signature.bind(None, None, (), 0)
    except TypeError as exc:
        raise ValueError(f"player {name!r} cannot be called as player(own, opponent, dice, rerolls_left) "
                         f"({exc})") from None
    return func


def game_rules(rules: str | Rules) -> Rules:
    """The rules a game is played and scored by: the rule set itself, with the upper bonus always paid
    (``seed`` only differs from ``hasbro`` in what its optimisation counts)."""
    rules = get_rules(rules)
    return rules if rules.bonus_in_optimisation else replace(rules, bonus_in_optimisation=True)


def _check_scoring(table: Rules, game: Rules, who: str) -> None:
    diff = [f for f in _SCORING if getattr(table, f) != getattr(game, f)]
    if diff:
        raise ValueError(f"player {who!r} reads the {table.name!r} tables, whose scoring differs from the "
                         f"{game.name!r} game in {', '.join(diff)}")


def frozen(a: np.ndarray) -> np.ndarray:
    # Every array of a compiled player is read-only: the memory-mapped tables are, and one numba type per
    # argument avoids a compilation per combination of players.
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


_DUMMY = {
    "state_index": frozen(np.zeros((1, 1, 1), dtype=np.int32)),
    "reroll": frozen(np.zeros((1, 1, 1), dtype=np.uint8)),
    "category": frozen(np.zeros((1, 1), dtype=np.uint8)),
    "vrow": frozen(np.zeros(1)),
}


def _row_values(value: np.ndarray, state_index: np.ndarray, n_rows: int) -> np.ndarray:
    """The value table by policy row (``vrow[state_index[s]] = value[s]``), as the solver's kernels read it."""
    vrow = np.zeros(n_rows)
    index = np.asarray(state_index)
    reach = index >= 0
    vrow[index[reach]] = np.asarray(value)[reach]
    return vrow


def player_params(kind: int, table: Rules | None) -> np.ndarray:
    """``ip`` of a compiled player: [kind, joker_code, threshold, optimised upper bonus, yahtzee bonus, n_dice,
    n_boxes, yahtzee box index, forced order] (``kernel_params`` of its table's rules)."""
    t = table or get_rules("hasbro")
    return frozen(np.array([kind, *kernel_params(t)], dtype=np.int64))


ZERO_ALPHA = frozen(np.zeros(N_FEATURES))


def _untabled(kind: int, alpha: np.ndarray = ZERO_ALPHA) -> tuple:
    return (player_params(kind, None), _DUMMY["state_index"], _DUMMY["reroll"], _DUMMY["category"], _DUMMY["vrow"],
            alpha)


NO_PLAYER = _untabled(engine.KIND_NONE)  # player B of solo games


@lru_cache(maxsize=32)
def compile_player(spec: PlayerSpec, rules: Rules, artifacts_dir: str | None = None) -> tuple:
    """The engine's tuple ``(ip, state_index, reroll, category, vrow, alpha)`` for ``spec`` in a game of
    ``rules`` (tables memory-mapped from ``artifacts_dir``; cached per process)."""
    if not spec.compiled:
        raise ValueError(f"player {spec.name!r} is a Python callable: it plays on the Python engine only")
    if spec.kind in ("decision_une", "perturbation") and rules.categories != CATEGORIES:
        raise ValueError(f"player {spec.name!r} plays the American sheet only, not {rules.name!r}")
    if spec.kind in _KINDS:
        return _untabled(_KINDS[spec.kind])
    table = get_rules(spec.table_rules or rules.name)
    _check_scoring(table, rules, spec.name)
    tables = load_tables(table, artifacts_dir)
    if tables.policy is None:
        raise ValueError(f"player {spec.name!r} needs the {table.name!r} policy table; build it")
    pol = tables.policy
    state_index = frozen(np.asarray(pol["state_index"]))
    if spec.kind == "table":
        return (player_params(engine.KIND_TABLE, table), state_index, frozen(np.asarray(pol["reroll"])),
                frozen(np.asarray(pol["category"])), _DUMMY["vrow"], ZERO_ALPHA)
    if spec.kind != "perturbation":
        raise ValueError(f"unknown player kind {spec.kind!r}")
    alpha = spec.alpha
    if alpha is None:
        from pipeline.yahtzee_lab.tuning import load_weights

        alpha = load_weights(artifacts_dir)
    vrow = _row_values(tables.value, state_index, pol["reroll"].shape[0])
    return (player_params(engine.KIND_PERTURB, table), state_index, _DUMMY["reroll"], _DUMMY["category"],
            frozen(vrow), frozen(np.array(alpha, dtype=np.float64)))


def as_reroll_mask(action: Any, n_dice: int, who: str) -> int:
    """A reroll action as a mask (bit i = reroll die i); ValueError naming the player otherwise."""
    if isinstance(action, int | np.integer) and not isinstance(action, bool):
        if 0 <= action < (1 << n_dice):
            return int(action)
    elif isinstance(action, Sequence) and len(action) == n_dice and all(
            isinstance(x, bool | np.bool_) for x in action):
        return sum(1 << i for i, x in enumerate(action) if x)
    raise ValueError(f"player {who!r}: illegal reroll {action!r} (a mask 0..{(1 << n_dice) - 1} or "
                     f"{n_dice} bools)")


def as_category(action: Any, who: str, rules: str | Rules = "hasbro") -> int:
    """A box action of a ``rules`` game as its index; ValueError naming the player otherwise."""
    try:
        return category_index(action.item() if isinstance(action, np.integer) else action, rules)
    except (ValueError, TypeError):
        raise ValueError(f"player {who!r}: illegal box {action!r}") from None


class CompiledPlayer:
    """A compiled player behind the plain Python interface (the same numba code the engine runs)."""

    def __init__(self, spec: PlayerSpec, rules: str | Rules = "hasbro", artifacts_dir: str | Path | None = None):
        self.spec = spec
        self.rules = game_rules(rules)
        self.P = compile_player(spec, self.rules, None if artifacts_dir is None else str(artifacts_dir))
        self.G = engine.game_tables(self.rules)
        self.W = engine.new_work(self.G)
        self._state: tuple[int, int, int] | None = None
        self.start_turn(0, 0, 0, 0)

    def start_turn(self, seed: int, key: int, stream: int, turn: int) -> None:
        """Key the player's own random choices to this turn (as the engine does)."""
        from pipeline.yahtzee.streams import rng_start

        rng_start(seed, key, stream, turn, self.W[8])

    def __call__(self, own: Sheet, opponent: Sheet, dice: Sequence[int], rerolls_left: int) -> int:
        state = own.state
        me = np.array([*state, own.total, 0], dtype=np.int64)
        if state != self._state:
            engine.begin_turn(self.P, self.W, self.G, me)
            self._state = state
        pips = np.asarray(dice, dtype=np.int64)
        order = np.argsort(pips, kind="stable")
        action = int(engine.decide(self.P, self.W, self.G, me, int(opponent.total), pips[order] - 1,
                                   int(rerolls_left)))
        if rerolls_left == 0:
            return action if 0 <= action < own.rules.n_boxes else -1
        return sum(1 << int(order[i]) for i in range(len(order)) if (action >> i) & 1)  # back to input order


def python_player(spec: PlayerSpec, rules: str | Rules = "hasbro", artifacts_dir: str | Path | None = None):
    """A callable with the plain interface for ``spec`` (compiled players wrapped)."""
    return spec.func if spec.kind == "python" else CompiledPlayer(spec, rules, artifacts_dir)
