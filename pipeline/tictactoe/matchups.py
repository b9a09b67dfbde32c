"""Exact match-ups: every player against every opponent model, moving first and second (no simulation:
the outcome probabilities are fractions summed over the model's moves, ``lookup.opponents.match_outcome``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from lookup.opponents import Model, Player, get_model, match_outcome, models_for
from lookup.tictactoe.rules import GAME, START

# Players of the report: (name, kind, assumed models). "predictive" assumes the model it faces (it knows
# it: the best response the tables hold); "predictive-random" always assumes the random model.
PLAYERS = ("perfect", "predictive", "predictive-random", "realistic", "bayesian")


def make_player(name: str, seat: int, opponent: Model, models: tuple[Model, ...]) -> Player:
    """The player called ``name`` for ``seat`` (0 = X, moving first) against ``opponent``."""
    if name == "perfect":
        return Player("perfect", GAME, seat)
    if name == "predictive":
        return Player("predictive", GAME, seat, (opponent,))
    if name == "predictive-random":
        return Player("predictive", GAME, seat, (get_model("random"),))
    if name in ("realistic", "bayesian"):
        return Player(name, GAME, seat, models)
    raise ValueError(f"unknown player {name!r}; known: {', '.join(PLAYERS)}")


def matchups(model_names: list[str], players: tuple[str, ...] = PLAYERS) -> list[dict[str, Any]]:
    """One entry per (player, model, seat): exact win / draw / loss fractions (as strings) and floats.
    Realistic and Bayesian players start from every model of ``model_names`` (uniform prior)."""
    models = models_for(GAME, model_names)
    out = []
    for name in players:
        for seat in (0, 1):
            shared = make_player(name, seat, models[0], models) if name in ("perfect", "realistic",
                                                                             "bayesian") else None
            for model in models:
                player = shared or make_player(name, seat, model, models)
                win, draw, loss = match_outcome(GAME, player, model, START)
                out.append({"player": name, "model": model.name, "seat": "first" if seat == 0 else "second",
                            **_fractions(win, draw, loss)})
    return out


def _fractions(win: Fraction, draw: Fraction, loss: Fraction) -> dict[str, Any]:
    return {"win": str(win), "draw": str(draw), "loss": str(loss),
            "win_f": float(win), "draw_f": float(draw), "loss_f": float(loss)}
