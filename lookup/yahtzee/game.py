"""Yahtzee's declaration (``SPEC``): the setups a player chooses (rule set, objective, players, target), the
game of a setup (``lookup.yahtzee.positions.YahtzeeGame``) and its advisor over the tables
(``lookup.yahtzee.advisors``). Every generic feature (records, review, simulation, the command line, the page)
reads it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from lookup.games import GameSpec, Option
from lookup.protocol import JSON
from lookup.yahtzee.advisors import advisor_for, built
from lookup.yahtzee.positions import YahtzeeGame
from lookup.yahtzee.rules import DEFAULT_RULES, RULE_SETS, get_rules

OBJECTIVES = ("expected", "goal", "beat", "opponent", "win")

SEATS = {"expected": (1,), "goal": (1,), "beat": (1,), "opponent": (2,), "win": (2, 3)}


def game_of(setup: Mapping[str, JSON]) -> YahtzeeGame:
    """The game of a checked setup; ValueError for options that do not go together."""
    rules = get_rules(setup["rules"])
    objective, players, target = setup["objective"], setup["players"], setup["target"]
    players = players if players is not None else SEATS[objective][0]
    if players not in SEATS[objective]:
        raise ValueError(f"objective {objective!r} is played by {' or '.join(map(str, SEATS[objective]))} "
                         f"players, not {players}")
    if (target is None) != (objective not in ("goal", "beat")):
        raise ValueError("target (a final score) goes with the objectives goal and beat, and only with them")
    if objective == "win" and not rules.forced_order:
        raise ValueError(f"objective 'win' (every player plays to win) needs a forced-order rule set, not "
                         f"{rules.name!r}")
    if rules.saved_rolls_cap:
        raise ValueError(f"rule set {rules.name!r} saves unused rolls: play does not take them yet")
    return YahtzeeGame(rules, players, objective, target)


def open_yahtzee(setup: dict[str, JSON], artifacts_dir: Path | None) -> Any:
    return advisor_for(game_of(setup), artifacts_dir)


class _RuleSetNames(Sequence[str]):
    """The names of the registered rule sets, read when asked: a rule set registered after import
    (added to ``lookup.yahtzee.rules.RULE_SETS``, as the tests add reduced ones) is a setup too."""

    def __getitem__(self, i):
        return list(RULE_SETS)[i]

    def __len__(self) -> int:
        return len(RULE_SETS)


SPEC = GameSpec(
    name="yahtzee",
    title="Yahtzee",
    summary="Five dice (six in Maxi Yatzy), three rolls a turn, keeping any dice between them; each turn scores "
            "one box of the sheet. American Yahtzee, Scandinavian Yatzy and their variants, alone or against "
            "other players.",
    options={"rules": Option(DEFAULT_RULES, "the rule set", choices=_RuleSetNames()),
             "objective": Option("expected", "expected: the best expected score; goal: reach target; beat: beat "
                                 "a known final score target; opponent: beat an opponent who plays for expected "
                                 "score; win: every player plays to win (forced order)", choices=OBJECTIVES),
             "players": Option(None, "how many players (default: what the objective is played by)", low=1, high=3),
             "target": Option(None, "the final score of goal and beat", low=-100_000, high=100_000,
                             free=True)},
    setups=built,
    open=open_yahtzee,
)
