"""The table of forced-order play to win among three players: one family per rule set of
``yahtzee.duel.rule_sets`` when ``yahtzee.duel.players`` lists 3 (docs/yahtzee.md, "Three players, forced
order"); ``duel_build`` registers it.

``yahtzee-party3-RULES`` ('+' written '-') publishes ``yahtzee-RULES-party3`` (schema ``yahtzee.party``): one flat
float64 array per outcome (``win_0``, ``tie_01``, ..., ``tie_012``: the winner set), every layer of
``pipeline.yahtzee.party.solve_party`` one after the other (layer L from ``layer_offset[L]``, C order over
the layer's axes), and the axes that make them readable without this code: ``layer_shape``, ``raw_layers``
(the number of upper-section layers, indexed by raw upper totals) and ``low`` (each lower-section layer's
difference offsets). The stats hold the headline numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.yahtzee.party_states import (
    PARTY_SCHEMA,
    PARTY_SCHEMA_VERSIONS,
    outcome_names,
    party_layout,
    party_name,
    share_weights,
)
from lookup.yahtzee.rules import get_rules
from pipeline.family import Computed, Family
from pipeline.progress import say
from pipeline.store import ArtifactSpec, StoredArray

PLAYERS = 3


def party_spec(name: str, players: int = PLAYERS) -> ArtifactSpec:
    rules = get_rules(name)
    return ArtifactSpec(name=party_name(rules, players), schema=PARTY_SCHEMA,
                        schema_version=max(PARTY_SCHEMA_VERSIONS), game="yahtzee", rules=rules.to_dict(),
                        params={"players": players}, code=(__name__,))


def _compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    from pipeline.yahtzee.party import solve_party

    rules = get_rules(spec.rules["name"])
    players = int(spec.params["players"])
    sol = solve_party(rules, None, players)
    lay = sol.layout
    start, shares = sol.start(), sol.shares()
    say(f"  {spec.name}: {sol.n_states()} joint states in {sol.seconds:.1f} s; from the start {start}; "
        f"shares {shares}")
    stats = {"states": sol.n_states(), "seconds": round(sol.seconds, 1), "outcomes": start,
             "shares": dict(zip((f"seat_{j}" for j in range(players)), shares, strict=True)),
             "tie_for_first": sum(p for name, p in start.items() if name.startswith("tie_"))}
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


def family_name(rule_set: str, players: int = PLAYERS) -> str:
    """``yahtzee-partyN-RULES`` with '+' as '-' (DVC stage names allow no other punctuation)."""
    return f"yahtzee-party{players}-{rule_set.replace('+', '-')}"


def family(rule_set: str, players: int = PLAYERS) -> Family:
    party_layout(get_rules(rule_set), None, players)  # ValueError naming a rule set it does not cover
    return Family(name=family_name(rule_set, players), section="yahtzee",
                  artifacts=lambda _sec, n=rule_set, p=players: [party_spec(n, p)], compute=_compute)
