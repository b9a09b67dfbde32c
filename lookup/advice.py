"""The JSON of a position and its options, one definition for the command line (``dicetables GAME advise``), the
web page (``POST /api/games/GAME/advise``) and any program: what ``Advisor`` says at a state, in the game's unit."""

from __future__ import annotations

from lookup.protocol import CHANCE, JSON, Advisor, State


def advice(advisor: Advisor, state: State, seat: int | None = None) -> dict[str, JSON]:
    """The JSON of a position (``dicetables GAME advise --json`` and the page's): the position (``state``, as the
    game writes it, and ``text``: in words, as ``seat`` is shown it when one is given), whether the game is over
    (then each seat's ``returns``), whose turn (``to_move``: a seat, or -1 for chance), each seat's value
    (``values``, in ``unit``; null where the tables hold none), every option (an action with the mover's value, its
    cost against the best and whether it is among the best; or a chance outcome with its exact probability and each
    seat's value after it, null beyond the advisor's ``valued_outcomes``), the advice and the tables' strategy
    (``policy``)."""
    game = advisor.game
    out: dict[str, JSON] = {"game": game.name, "unit": game.unit.name, "state": game.state_json(state),
                           "text": game.state_text_for(state, seat), "over": game.is_terminal(state)}
    if out["over"]:
        out["returns"] = [float(r) for r in game.returns(state)]
        return out
    mover = game.to_move(state)
    out["to_move"] = mover
    out["values"] = [advisor.value(state, s) for s in range(game.seats)]
    if mover == CHANCE:
        outcomes = game.chance_outcomes(state)
        valued = len(outcomes) <= advisor.valued_outcomes
        out["options"] = [{"outcome": game.action_json(state, o), "text": game.action_text(state, o),
                           "probability": float(p), "exact": f"{p.numerator}/{p.denominator}",
                           "values": [advisor.value(game.apply(state, o), s) for s in range(game.seats)]
                           if valued else [None] * game.seats}
                          for o, p in outcomes]
        return out
    values = advisor.action_values(state)
    best = advisor.best_actions(state)
    top = values[best[0]]
    out["options"] = [{"action": game.action_json(state, a), "text": game.action_text(state, a), "value": v,
                       "cost": None if v is None or top is None else game.unit.gain(top, v), "best": a in best}
                      for a, v in values.items()]
    out["advice"] = game.action_json(state, advisor.decide(state))
    out["policy"] = [{"action": game.action_json(state, a), "probability": p}
                     for a, p in advisor.policy(state).items()]
    return out
