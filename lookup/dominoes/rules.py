"""Rules of dominoes (docs/dominoes.md, "Rules"): the rule set and the written forms of tiles and moves.

Double-six set (28 tiles), two players, 7 tiles each, 14 in the boneyard; player 0 opens with any tile;
a player who cannot place draws one tile (once per turn) and places it if it fits, else passes; a hand
emptied wins; four passes in a row end the game, the lower pip total in hand winning (equal: a draw).
The rule helpers (legal moves and their order, placing, results, the models' scores) are written once,
in ``lookup.dominoes.engine``; ``lookup.dominoes.game`` plays them as the game API of ``lookup.opponents``.

Written forms: a tile is ``"a-b"`` (``"3-5"``, either order); a move is the tile with the end it goes to,
``"3-5L"`` or ``"3-5R"`` (the opening tile has no end: ``"6-6"``), ``"draw"`` or ``"pass"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


def extend_line(line: tuple[tuple[int, int], ...], move: int, left: int,
                right: int) -> tuple[tuple[int, int], ...]:
    """The line (its tiles as (left pip, right pip) pairs, in line order) after placing tile move ``move`` on it,
    its open ends ``left`` and ``right`` before (-1: the empty line)."""
    t = move >> 1
    a, b = int(E.TILE_A[t]), int(E.TILE_B[t])
    if left < 0:
        return ((a, b),)
    if move & 1 == 0:
        return ((b, a) if a == left else (a, b), *line)
    return (*line, (a, b) if a == right else (b, a))


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


def tiles_of(mask: int) -> list[int]:
    return [t for t in range(E.N_TILES) if mask >> t & 1]
