"""The Yahtzee table families: one per rule set listed in params (``yahtzee.rule_sets``).

Each family publishes the value table (Zarr + HDF5, with the exact statistics of optimal play in its
metadata) and the policy tables (Zarr), both from one solve, and the exact law of the final score under
that policy (Zarr + HDF5, ``pipeline.yahtzee.distribution``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lookup.yahtzee.rules import RULE_SETS, get_rules
from lookup.yahtzee.tables import (
    DISTRIBUTION_SCHEMA,
    DISTRIBUTION_VERSIONS,
    POLICY_SCHEMA,
    SCHEMA_VERSIONS,
    VALUES_SCHEMA,
    distribution_name,
    policy_name,
    values_name,
)
from pipeline.family import Computed, Family, nonempty_list
from pipeline.progress import progress, say
from pipeline.store import ArtifactSpec, StoredArray
from pipeline.yahtzee import layered_values, optimal_law, saved, towin_build

# 255 marks the rows of finished games in ``category``; a missing chunk must read as something else.
CATEGORY_FILL = 254
_last_solution: dict[str, Any] = {}


def rule_set_names(section: Mapping[str, Any]) -> list[str]:
    """The rule sets params ask for; ValueError naming an unknown one."""
    return nonempty_list(section, "rule_sets", "yahtzee.rule_sets", f"rule sets ({', '.join(RULE_SETS)})",
                         _playable)


def _playable(name: str) -> None:
    """ValueError unless ``name`` is a rule set whose value and policy tables can be built (not one that saves
    unused rolls: its values are ``pipeline.yahtzee.saved``'s)."""
    rules = get_rules(name)
    if rules.saved_rolls_cap:
        raise ValueError(f"yahtzee.rule_sets: rule set {name!r} saves unused rolls; it goes in "
                         "yahtzee.saved.rule_sets (values only)")


def table_specs(name: str) -> list[ArtifactSpec]:
    """The (values, policy) specs of rule set ``name``: the tables play reads."""
    rules = get_rules(name)
    common = dict(schema_version=max(SCHEMA_VERSIONS), game="yahtzee", rules=rules.to_dict(), code=(__name__,))
    values = ArtifactSpec(name=values_name(rules), schema=VALUES_SCHEMA, params={}, hdf5=True, **common)
    policy = ArtifactSpec(name=policy_name(rules), schema=POLICY_SCHEMA,
                          params={"values_fingerprint": values.fingerprint()}, **common)
    return [values, policy]


def family_specs(name: str) -> list[ArtifactSpec]:
    """What the family of rule set ``name`` publishes: its tables and the law of the final score."""
    values, policy = table_specs(name)
    distribution = ArtifactSpec(name=distribution_name(get_rules(name)), schema=DISTRIBUTION_SCHEMA,
                                schema_version=max(DISTRIBUTION_VERSIONS), game="yahtzee", rules=values.rules,
                                params={"policy_fingerprint": policy.fingerprint()}, code=(__name__,), hdf5=True)
    return [values, policy, distribution]


def _solution(name: str):
    """One solve (values + policy) per rule set and process, shared by its three artifacts."""
    from pipeline.yahtzee.solver import solve

    if name not in _last_solution:
        _last_solution.clear()
        with progress(f"solving Yahtzee ({name})", 14) as advance:
            _last_solution[name] = solve(name, policy=True, progress=lambda done, total: advance())
    return _last_solution[name]


def _compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    from pipeline.yahtzee.solver import exact_statistics

    name = spec.rules["name"]
    sol = _solution(name)
    if spec.schema == DISTRIBUTION_SCHEMA:
        _last_solution.clear()
        return _distribution(name, sol)
    if spec.schema == VALUES_SCHEMA:
        value = sol.value
        # Timings are reported, not stored: equal inputs must give byte-identical artifacts.
        say("  " + ", ".join(f"{k} {v:.2f}" for k, v in sol.timings.items()))
        stats = {"start_value": sol.start_value, **exact_statistics(name, sol)}
        return {"value": StoredArray(
            value, "value[filled_mask, upper, ybox]: expected remaining points from the start of a turn "
            "under optimal play (upper bonus counted when earned); NaN = unreachable state"
            )}, stats
    rows = sol.reroll.shape[0]
    return {
        "state_index": StoredArray(sol.state_index, "row of each state (filled_mask, upper, ybox) in the "
                                   "policy arrays; -1 = unreachable"),
        "reroll": StoredArray(sol.reroll, "reroll[row, rerolls_left - 1, roll]: dice to reroll, a bit mask "
                              "over the sorted dice (bit i = i-th smallest)"),
        "category": StoredArray(sol.category, "category[row, roll]: box to score the final roll in (sheet "
                                "order); 255 in finished-game rows", fill=CATEGORY_FILL),
    }, {"rows": rows}


def _distribution(name: str, sol: Any) -> Computed:
    from lookup.yahtzee.score_law import score_statistics
    from pipeline.yahtzee.distribution import score_distribution

    law = score_distribution(name, sol.state_index, sol.reroll, sol.category)
    say("  distribution " + ", ".join(f"{k} {v:.2f}" for k, v in law.timings.items())
        + f", peak {law.peak_bytes / 2**20:.0f} MiB")
    stats = {**score_statistics(law.pmf), "p_upper_bonus": law.p_upper_bonus}
    return {"pmf": StoredArray(law.pmf, "pmf[score]: probability that the final score of a game played by the "
                               "policy tables (optimal expected score) is exactly score points (real score: "
                               "upper bonus and Yahtzee bonuses included); exact, not simulated")}, stats


def families(section: Mapping[str, Any]) -> list[Family]:
    """One family per rule set in ``yahtzee.rule_sets``, then the play-to-win families (``towin_build``), the
    layered value tables (``layered_values``), the saved-rolls value tables (``saved``) and the laws of the
    final score built without a policy table (``optimal_law``)."""
    return [Family(name=f"yahtzee-{name}", section="yahtzee",
                   artifacts=lambda _section, n=name: family_specs(n), compute=_compute)
            for name in rule_set_names(section)] + towin_build.families(section) + layered_values.families(section) \
        + saved.families(section) + optimal_law.families(section)
