"""Every "not built" message says the same four things, and says them right (lookup.errors.not_built): what is
missing (its file), the command that builds it (a family that params.yaml, with the change the message names,
really defines), that the command needs the [build] extra, and roughly what the build costs. The Maxi message
contradicted itself ("add 'maxi' to yahtzee.rule_sets ... goes in yahtzee.layered.rule_sets") and was appended to
every other rule set's message too."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from lookup import dicerace, dominoes, g151, pig, poker, tictactoe, yahtzee
from lookup.errors import NotBuiltError
from lookup.games import open_setup
from pipeline.family import DEFAULT_PARAMS, load_params
from pipeline.registry import families

# (what to ask, the file that is missing, the family named, the params change the message names: (section path, value))
CASES = {
    "yahtzee hasbro": (lambda d: yahtzee.value({}, "hasbro", artifacts_dir=d), "yahtzee-hasbro-values.zarr",
                       "yahtzee-hasbro", None),
    "yahtzee maxi": (lambda d: yahtzee.decide([1, 2, 3, 4, 5, 6], 2, {}, "maxi", artifacts_dir=d),
                     "yahtzee-maxi-layered.zarr", "yahtzee-layered-maxi", ("yahtzee.layered.rule_sets", ["maxi"])),
    "yahtzee law maxi-se": (lambda d: yahtzee.distribution("maxi-se", artifacts_dir=d),
                            "yahtzee-maxi-se-distribution.zarr", "yahtzee-law-maxi-se",
                            ("yahtzee.law.rule_sets", ["maxi-se"])),
    "yahtzee law hasbro": (lambda d: yahtzee.distribution("hasbro", artifacts_dir=d),
                           "yahtzee-hasbro-distribution.zarr", "yahtzee-hasbro", None),
    "yahtzee goal": (lambda d: yahtzee.decide([1, 2, 3, 4, 5], 2, {}, "hasbro", goal=200, artifacts_dir=d),
                     "yahtzee-hasbro-goal.zarr", "yahtzee-towin-hasbro", ("yahtzee.towin.rule_sets", ["hasbro"])),
    "dicerace": (lambda d: dicerace.decide(0, 0, artifacts_dir=d), "dicerace-sequential.zarr",
                 "dicerace-strategies", None),
    "dicerace probabilities": (lambda d: dicerace.probabilities(3, artifacts_dir=d), "dicerace-probabilities.zarr",
                               "dicerace-probabilities", None),
    "g151": (lambda d: g151.decide(0, 0, artifacts_dir=d), "g151-stated.zarr", "g151-stated", None),
    "pig": (lambda d: pig.decide(0, 0, 0, artifacts_dir=d), "pig-standard.zarr", "pig-standard", None),
    "farkle": (lambda d: open_setup("farkle", {"target": 3000, "floor": -1000, "dice": 6}, d), "farkle-facebook.zarr",
               "farkle-facebook", None),
    "poker": (lambda d: poker.preflop("AA", 1, artifacts_dir=d), "poker-preflop.zarr", "poker-preflop", None),
    "tictactoe": (lambda d: tictactoe.decide("X........", artifacts_dir=d), "tictactoe-tables.zarr",
                  "tictactoe-standard", None),
    "dominoes": (lambda d: dominoes.load_matchups(artifacts_dir=d), "dominoes-matchups.zarr", "dominoes-standard",
                 None),
}


def _with(params: dict, change: tuple[str, object] | None) -> dict:
    params = copy.deepcopy(params)
    if change is not None:
        *parents, last = change[0].split(".")
        section = params
        for key in parents:
            section = section.setdefault(key, {})
        section[last] = change[1]
    return params


@pytest.mark.parametrize("case", CASES)
def test_a_table_not_built_says_what_how_with_what_and_what_it_costs(case, tmp_path):
    ask, missing, family, change = CASES[case]
    with pytest.raises(NotBuiltError) as caught:
        ask(tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{Path(tmp_path).resolve() / missing}") and " not built" in message, message
    assert f"to build: `dicetables build {family}`" in message, message
    assert "the command needs the [build] extra (pip install 'dicetables[build]')" in message, message
    assert re.search(r"the build takes .*(second|minute|\d s\b)", message), message
    if change is not None:
        assert f"with {change[1][0]!r} in {change[0]}" in message.partition(" in params.yaml;")[0], message
    assert family in families(_with(load_params(DEFAULT_PARAMS), change)), f"{family}: no such family"
    # The web says the fact only: no path, no build step.
    public = caught.value.public
    assert "not built on this server" in public and "dicetables" not in public and ".zarr" not in public


def test_only_six_dice_point_to_the_layered_and_law_tables(tmp_path):
    """Maxi's build goes with Maxi only: a five-dice rule set's message names its own family and nothing else."""
    for rules in ("hasbro", "scandinavian+forced"):
        with pytest.raises(NotBuiltError) as caught:
            yahtzee.value({}, rules, artifacts_dir=tmp_path)
        message = str(caught.value)
        assert "layered" not in message and "Maxi" not in message and "yahtzee.law" not in message, message
        assert f"`dicetables build yahtzee-{rules}`, with {rules!r} in yahtzee.rule_sets in params.yaml" in message
    with pytest.raises(NotBuiltError) as caught:
        yahtzee.value({}, "maxi-se", artifacts_dir=tmp_path)
    assert "yahtzee.rule_sets" not in str(caught.value) and "yahtzee-maxi-se-layered.zarr" in str(caught.value)
