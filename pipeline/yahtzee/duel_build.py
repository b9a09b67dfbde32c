"""The forced-order duel table families: one per rule set in ``yahtzee.duel.rule_sets`` and player count in
``yahtzee.duel.players``: 2 here (docs/yahtzee.md, "Two players, forced order"), 3 by ``party_build``.

``yahtzee-duel2-RULES`` ('+' written '-') publishes ``yahtzee-RULES-duel2`` (schema ``yahtzee.duel``): the
flat arrays ``value`` and ``tie`` of every layer of ``pipeline.yahtzee.duel.solve_duel`` (layer L starts at
``layer_offset[L]``, C order over (seat 0's upper index, seat 1's upper index, difference + low[L])), and
the axes that make them readable without this code: ``low[L]``, ``high[L]``, ``layer_shape[L]`` and
``upper_axis[j, u]`` (position of canonical upper total u after j boxes, -1 unreachable). The stats hold
the headline numbers: optimal play from the start, and both seats playing the expected-score policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.yahtzee.duel_states import DUEL_SCHEMA, SCHEMA_VERSIONS, duel_layout, duel_name, layer_offsets
from lookup.yahtzee.rules import get_rules
from pipeline.family import Computed, Family, nonempty_list
from pipeline.progress import say
from pipeline.store import ArtifactSpec, StoredArray
from pipeline.yahtzee import party_build

BUILT_PLAYERS = (2, 3)  # 3: pipeline.yahtzee.party_build


def settings(section: Mapping[str, Any]) -> dict[str, Any]:
    """``yahtzee.duel`` checked: rule_sets (forced-order ones) and players (2, 3)."""
    duel = section.get("duel")
    if not isinstance(duel, Mapping):
        raise ValueError("yahtzee.duel must be a mapping (rule_sets, players)")
    rule_sets = nonempty_list(duel, "rule_sets", "yahtzee.duel.rule_sets", "forced-order rule sets", get_rules)
    for name in rule_sets:
        duel_layout(get_rules(name))  # ValueError naming a rule set the duel solver does not cover
    players = nonempty_list(duel, "players", "yahtzee.duel.players", "player counts (2, 3)")
    bad = [p for p in players if type(p) is not int or p not in BUILT_PLAYERS]
    if bad or len(set(players)) != len(players):
        raise ValueError(f"yahtzee.duel.players must list distinct counts among {list(BUILT_PLAYERS)} (four or "
                         f"more players are not built), not {players!r}")
    return {"rule_sets": rule_sets, "players": players}


def duel_spec(name: str, players: int) -> ArtifactSpec:
    rules = get_rules(name)
    return ArtifactSpec(name=duel_name(rules, players), schema=DUEL_SCHEMA, schema_version=max(SCHEMA_VERSIONS),
                        game="yahtzee", rules=rules.to_dict(), params={"players": players}, code=(__name__,))


def _compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    from pipeline.yahtzee.duel import expected_score_duel, solve_duel

    rules = get_rules(spec.rules["name"])
    sol = solve_duel(rules)
    lay = sol.layout
    first, tie, second = sol.start()
    es = expected_score_duel(rules)
    say(f"  {spec.name}: {sol.n_states()} joint states in {sol.seconds:.1f} s; P(first wins) {first:.10f}, "
        f"P(tie) {tie:.10f}, P(second wins) {second:.10f}; both expected-score: {es['chain']}")
    upper_axis = np.stack([np.asarray(ix, dtype=np.int32) for ix in lay.u_index])
    stats = {
        "states": sol.n_states(),
        "optimal": {"first_wins": first, "tie": tie, "second_wins": second, "first_edge": first - second},
        "expected_score": {"first_wins": es["chain"][0], "tie": es["chain"][1], "second_wins": es["chain"][2],
                           "iid_check": list(es["iid"])},
        # One seat plays to win (best response), the other for expected score: (first wins, tie, second wins).
        "first_plays_to_win_against_expected_score": list(es["first_responds"]),
        "second_plays_to_win_against_expected_score": list(es["second_responds"]),
    }
    arrays = {
        "value": StoredArray(np.concatenate([v.ravel() for v in sol.values]),
                             "value[layer_offset[L] + (a * n_b + b) * width + d + low[L]]: seat 0's P(win) + "
                             "P(tie) / 2 from the start of layer L's turn (L = 2 * box + seat to move) under "
                             "optimal play of both; a, b: seat 0's and seat 1's upper_axis positions; d = seat "
                             "0's total - seat 1's; seat 1's value is 1 - value"),
        "tie": StoredArray(np.concatenate([t.ravel() for t in sol.ties]),
                           "tie[same index as value]: P(tie) under that play (the build's tie rule among exactly "
                           "equal keeps); P(seat 0 wins) = value - tie / 2"),
        "layer_offset": StoredArray(layer_offsets(lay), "start of layer L in value and tie; the last entry is "
                                    "their length"),
        "layer_shape": StoredArray(np.array([lay.shape(L) for L in range(lay.n_layers)], dtype=np.int64),
                                   "layer_shape[L] = (n_a, n_b, width = low[L] + high[L] + 1)"),
        "low": StoredArray(np.asarray(lay.low, dtype=np.int64), "the difference axis of layer L runs from "
                           "-low[L] to high[L]"),
        "high": StoredArray(np.asarray(lay.high, dtype=np.int64), "see low"),
        "upper_axis": StoredArray(upper_axis, "upper_axis[j, u]: position of canonical upper total u (the "
                                  "threshold once the bonus is decided) on the axis of a seat that has filled j "
                                  "boxes; -1 = unreachable"),
    }
    return arrays, stats


def family_name(rule_set: str, players: int) -> str:
    """``yahtzee-duelN-RULES`` with '+' as '-' (DVC stage names allow no other punctuation)."""
    return f"yahtzee-duel{players}-{rule_set.replace('+', '-')}"


def families(section: Mapping[str, Any]) -> list[Family]:
    """One family per rule set and player count of ``yahtzee.duel`` (none when params have no ``duel``)."""
    if section.get("duel") is None:
        return []
    duel = settings(section)
    return [Family(name=family_name(name, players), section="yahtzee",
                   artifacts=lambda _sec, n=name, p=players: [duel_spec(n, p)], compute=_compute)
            if players == 2 else party_build.family(name, players)
            for name in duel["rule_sets"] for players in duel["players"]]
