"""The seed's experiment: every player against every opponent model, both seats, seeded games.

Game ``g`` of every pairing and seat is dealt from seed ``seed * 1_000_003 + g`` (``engine.deal``): each
player meets the same deals from both seats against every model (common random numbers, so that the
differences between players are measured on equal luck). The predictive player assumes the model it
faces; the realistic and Bayesian players start from every model of the experiment (uniform prior).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from lookup.dominoes import engine as E
from lookup.naming import by_name
from lookup.validate import integer


@dataclass(frozen=True)
class Settings:
    """players, models: names; games: per pairing and seat; seed; depth: placements searched after the
    move; samples: opponent hands drawn per model when they are too many to list; max_exact: the most
    hands listed exactly; rollouts: play-outs per leaf (0: the engine's leaf estimate); endgame: the
    search goes to the end of the game (exactly, no leaf estimate) once the boneyard holds at most this
    many tiles (-1: never); budget: the search deepens one placement at a time while it is expected to
    visit at most this many positions per decision (0: the fixed depth)."""

    players: tuple[str, ...]
    models: tuple[str, ...]
    games: int
    seed: int
    depth: int
    samples: int
    max_exact: int
    rollouts: int
    endgame: int
    budget: int

    @classmethod
    def from_params(cls, section: Mapping[str, Any]) -> Settings:
        """From ``dominoes.experiment`` (``full: true`` plays ``full_games`` per pairing and seat);
        ValueError naming a bad key."""
        s = section.get("experiment") or {}
        players = tuple(s.get("players", tuple(E.PLAYER_CODES)))
        models = tuple(s.get("models", tuple(E.MODEL_CODES)))
        for p in players:
            by_name(E.PLAYER_CODES, p, "dominoes.experiment.players entry: player")
        for m in models:
            by_name(E.MODEL_CODES, m, "dominoes.experiment.models entry: opponent model")
        if not players or not models:
            raise ValueError("dominoes.experiment.players and .models must not be empty")
        games = s.get("full_games", 10_000) if s.get("full", False) else s.get("games", 1000)
        return cls(players, models, integer(games, "dominoes.experiment.games", 1, 10**7),
                   integer(s.get("seed", 3), "dominoes.experiment.seed", 0, 10**9),
                   integer(s.get("depth", 3), "dominoes.experiment.depth", 1, 12),
                   integer(s.get("samples", 8), "dominoes.experiment.samples", 1, 10_000),
                   integer(s.get("max_exact", 200), "dominoes.experiment.max_exact", 0, 10**6),
                   integer(s.get("rollouts", 0), "dominoes.experiment.rollouts", 0, 1000),
                   integer(s.get("endgame", -1), "dominoes.experiment.endgame", -1, E.N_TILES - 2 * E.HAND_SIZE),
                   integer(s.get("budget", 0), "dominoes.experiment.budget", 0, 10**9))

    def to_dict(self) -> dict[str, Any]:
        return {"players": list(self.players), "models": list(self.models), "games": self.games, "seed": self.seed,
                "depth": self.depth, "samples": self.samples, "max_exact": self.max_exact, "rollouts": self.rollouts,
                "endgame": self.endgame, "budget": self.budget}


def seeds(settings: Settings) -> np.ndarray:
    return settings.seed * 1_000_003 + np.arange(settings.games, dtype=np.int64)


def player_setup(player: str, model: str, models: Sequence[str]) -> tuple[int, np.ndarray, np.ndarray]:
    """(player code, model codes, initial weights) of ``player`` facing ``model``."""
    kind = by_name(E.PLAYER_CODES, player, "dominoes player")
    if kind == E.PREDICTIVE:
        return kind, np.array([E.MODEL_CODES[model]], np.int64), np.ones(1)
    mk = np.array([E.MODEL_CODES[m] for m in models], np.int64)
    w = np.ones(len(mk)) / (len(mk) if kind == E.BAYESIAN else 1)
    return kind, mk, w


def play(settings: Settings, player: str, model: str, seat: int, threads: int = 2) -> np.ndarray:
    """Results (+1 / 0 / -1 for the player) of the pairing's games from ``seat``."""
    from pipeline.dominoes.kernels import run_games

    kind, mk, w = player_setup(player, model, settings.models)
    return run_games(seeds(settings), kind, seat, E.MODEL_CODES[model], mk, w, settings.depth, settings.samples,
                     settings.max_exact, settings.rollouts, settings.endgame,
                     settings.budget, threads)


def counts(results: np.ndarray) -> tuple[int, int, int]:
    return int((results == 1).sum()), int((results == 0).sum()), int((results == -1).sum())


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion k / n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
