"""The tables of forced-order play to win among players: one family per rule set of ``yahtzee.duel.rule_sets``
and player count of ``yahtzee.duel.players`` (2, 3; docs/yahtzee.md, "Two players, forced order" and "Three
players, forced order"); ``towin_build`` registers them.

``yahtzee-partyN-RULES`` ('+' written '-') publishes ``yahtzee-RULES-partyN`` (schema ``yahtzee.party``): one flat
float64 array per outcome (``win_0``, ``tie_01``, ..., ``tie_012``: the winner set), every layer of
``pipeline.yahtzee.party.solve_party`` one after the other (layer L from ``layer_offset[L]``, C order over
the layer's axes), and the axes that make them readable without this code: ``layer_shape``, ``raw_layers``
(the number of upper-section layers, indexed by raw upper totals) and ``low`` (each lower-section layer's
difference offsets). The stats hold the headline numbers; with two players also the play of expected-score
players and the best response to one (``pipeline.yahtzee.party.against_expected_score``: four more solves,
seconds for two players; with three they would take minutes each, and nothing reads them).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.yahtzee.party_states import (
    PARTY_PLAYERS,
    PARTY_SCHEMA,
    PARTY_SCHEMA_VERSIONS,
    outcome_names,
    party_layout,
    party_name,
    share_weights,
)
from lookup.yahtzee.rules import get_rules
from pipeline.family import Computed, Family, nonempty_list
from pipeline.progress import say
from pipeline.store import ArtifactSpec, StoredArray


def settings(section: Mapping[str, Any]) -> dict[str, Any]:
    """``yahtzee.duel`` checked: rule_sets (forced-order ones) and players (2, 3)."""
    duel = section.get("duel")
    if not isinstance(duel, Mapping):
        raise ValueError("yahtzee.duel must be a mapping (rule_sets, players)")
    rule_sets = nonempty_list(duel, "rule_sets", "yahtzee.duel.rule_sets", "forced-order rule sets", get_rules)
    for name in rule_sets:
        party_layout(get_rules(name), None, 2)  # ValueError naming a rule set the solver does not cover
    players = nonempty_list(duel, "players", "yahtzee.duel.players", "player counts (2, 3)")
    bad = [p for p in players if type(p) is not int or p not in PARTY_PLAYERS]
    if bad or len(set(players)) != len(players):
        raise ValueError(f"yahtzee.duel.players must list distinct counts among {list(PARTY_PLAYERS)} (four or "
                         f"more players are not built), not {players!r}")
    return {"rule_sets": rule_sets, "players": players}


def party_spec(name: str, players: int) -> ArtifactSpec:
    rules = get_rules(name)
    return ArtifactSpec(name=party_name(rules, players), schema=PARTY_SCHEMA,
                        schema_version=max(PARTY_SCHEMA_VERSIONS), game="yahtzee", rules=rules.to_dict(),
                        params={"players": players}, code=(__name__,))


def _compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    from pipeline.yahtzee.party import against_expected_score, solve_party

    rules = get_rules(spec.rules["name"])
    players = int(spec.params["players"])
    sol = solve_party(rules, None, players)
    lay = sol.layout
    start, shares = sol.start(), sol.shares()
    say(f"  {spec.name}: {sol.n_states()} joint states in {sol.seconds:.1f} s; from the start {start}; "
        f"shares {shares}")
    # No timing in the stats: they are the artifact's bytes, which a rebuild must reproduce (tests/test_dvc.py).
    stats = {"states": sol.n_states(), "outcomes": start,
             "shares": dict(zip((f"seat_{j}" for j in range(players)), shares, strict=True)),
             "tie_for_first": sum(p for name, p in start.items() if name.startswith("tie_"))}
    if players == 2:
        es = against_expected_score(rules, players)
        say(f"  {spec.name}: both on the expected-score policy {es['chain']} (independent scores: {es['iid']})")
        stats |= {"expected_score": es["chain"], "expected_score_iid": es["iid"], "best_response": es["responds"]}
    seats = share_weights(players)
    arrays = {}
    for k, name in enumerate(outcome_names(players)):
        winners = [j for j in range(players) if seats[j, k] > 0]
        arrays[name] = StoredArray(
            np.concatenate([layer[k].ravel() for layer in sol.layers]),
            f"{name}[layer_offset[L] + i]: P(the winners are exactly seats {winners}) from the start of layer L's "
            "turn (L = players * box + seat to move), every player maximising their own share (a sole winner 1, "
            "m tied winners 1/m each); i: the state's C-order position in layer_shape[L]")
    arrays["layer_offset"] = StoredArray(lay.offsets(), "start of layer L in every outcome array; the last "
                                         "entry is their length")
    width = lay.players
    arrays["layer_shape"] = StoredArray(
        np.array([lay.shape(L) + (0,) * (width - len(lay.shape(L))) for L in range(lay.n_layers)], dtype=np.int64),
        "layer_shape[L]: the layer's axes, zero-padded. Layers L < raw_layers: the raw upper total of each seat "
        "(0..n); later layers: d_j = seat 0's total - seat j's (j = 1..players - 1) at index d_j + low[L, j - 1]")
    arrays["raw_layers"] = StoredArray(np.array([lay.players * lay.n_upper], dtype=np.int64),
                                       "layers indexed by raw upper totals (the upper section); the rest by "
                                       "score differences")
    arrays["low"] = StoredArray(
        np.array([lay.low(L) if not lay.is_raw(L) else (0,) * (width - 1) for L in range(lay.n_layers)],
                 dtype=np.int64), "low[L, j - 1]: the offset of d_j on layer L's axis (lower section; 0 above)")
    return arrays, stats


def family_name(rule_set: str, players: int) -> str:
    """``yahtzee-partyN-RULES`` with '+' as '-' (DVC stage names allow no other punctuation)."""
    return f"yahtzee-party{players}-{rule_set.replace('+', '-')}"


def families(section: Mapping[str, Any]) -> list[Family]:
    """One family per rule set and player count of ``yahtzee.duel`` (none when params have no ``duel``)."""
    if section.get("duel") is None:
        return []
    duel = settings(section)
    return [Family(name=family_name(name, players), section="yahtzee",
                   artifacts=lambda _sec, n=name, p=players: [party_spec(n, p)], compute=_compute)
            for name in duel["rule_sets"] for players in duel["players"]]
