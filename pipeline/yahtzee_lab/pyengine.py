"""The plain-Python engine: the slow path for Python callables, and the reference the numba engine matches.

It plays exactly the games of ``pipeline.yahtzee_lab.engine`` (same streams, same turn order, same dice
bookkeeping) on ``Sheet`` objects, asking each player through the plain interface of
``pipeline.yahtzee_lab.players``. For compiled players both engines give identical results, which the tests
check; the benchmark times both on the same games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from lookup.yahtzee.rules import Rules
from lookup.yahtzee.sheet import Sheet
from pipeline.yahtzee.streams import MODE_CODES, destiny_list, game_streams
from pipeline.yahtzee_lab.players import PlayerSpec, as_category, as_reroll_mask, game_rules, python_player


def _asked(player: Any, name: str, *args: Any) -> Any:
    """``player(*args)``; an exception a plugin player raises becomes a ValueError naming it (a message, not a
    traceback from inside the engine)."""
    try:
        return player(*args)
    except Exception as exc:
        raise ValueError(f"player {name!r} failed: {type(exc).__name__}: {exc}") from exc


def _turn(player, name: str, own: Sheet, opp: Sheet, seed: int, key: int, stream: int, turn: int) -> None:
    dest = [int(x) for x in destiny_list(seed, key, stream, turn)]
    hook = getattr(player, "start_turn", None)
    if hook is not None:
        hook(seed, key, stream, turn)
    n = own.rules.n_dice
    dice = sorted(dest[:n])
    pos = n
    for left in (2, 1):
        mask = as_reroll_mask(_asked(player, name, own, opp, tuple(dice), left), n, name)
        for i in range(n):
            if (mask >> i) & 1:
                dice[i] = dest[pos]
                pos += 1
        dice.sort()
    box = as_category(_asked(player, name, own, opp, tuple(dice), 0), name, own.rules)
    try:
        own.score(box, dice)
    except ValueError as exc:
        raise ValueError(f"player {name!r}: illegal box for {dice}: {exc}") from None


def play_python(a: PlayerSpec, b: PlayerSpec | None, games: int, *, seed: int, mode: str, rules: str | Rules,
                first: int = 0, artifacts_dir: str | Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Games ``first .. first + games - 1``: (scores int32 (games, 2), upper bonus earned uint8 (games, 2)).

    Column 1 stays 0 in solo mode (``b`` None). Raises ValueError naming a player that breaks the rules.
    """
    rules = game_rules(rules)
    code = MODE_CODES[mode]
    pa = python_player(a, rules, artifacts_dir)
    pb = python_player(b, rules, artifacts_dir) if b is not None else None
    scores = np.zeros((games, 2), dtype=np.int32)
    bonus = np.zeros((games, 2), dtype=np.uint8)
    for i in range(games):
        key, sa, sb = game_streams(code, first + i)
        sheets = [Sheet.empty(rules), Sheet.empty(rules)]
        for turn in range(rules.n_boxes):
            # B sees A's sheet as it stood at the start of the round, like the compiled engine.
            before = Sheet(list(sheets[0].boxes), rules, sheets[0].yahtzee_bonus)
            _turn(pa, a.name, sheets[0], sheets[1], seed, key, sa, turn)
            if pb is not None:
                _turn(pb, b.name, sheets[1], before, seed, key, sb, turn)
        for p, sheet in enumerate(sheets if pb is not None else sheets[:1]):
            scores[i, p] = sheet.total
            bonus[i, p] = sheet.upper_total >= rules.upper_threshold
    return scores, bonus
