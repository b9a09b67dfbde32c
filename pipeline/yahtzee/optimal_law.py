"""The exact law of the final score of rule sets without a policy table (Maxi Yatzy), built only on request.

One family per rule set in ``yahtzee.law.rule_sets`` (``yahtzee-law-RULES``, '+' written '-'; none by default),
publishing ``yahtzee-RULES-distribution`` (schema ``yahtzee.distribution``, as the 5-dice rule sets' family
does): ``pmf[x]`` = P(final score = x points) of a game played by the optimal (expected-score) policy, exact;
its statistics (mean, sd, quantiles, P(score >= t)), P(upper bonus), P(Yahtzee box filled) and the solver's
start value in its metadata. ``lookup.yahtzee.distribution(RULES)`` reads it.

Built by ``pipeline.yahtzee.distribution.optimal_score_law``: the values solved in memory, the policy of one
block of rows at a time, the layers of laws in files under the system's temporary directory ($TMPDIR) when they
do not fit in memory (Maxi: ~20 GB on disk at the peak; docs/yahtzee.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lookup.yahtzee.rules import get_rules
from lookup.yahtzee.tables import DISTRIBUTION_SCHEMA, DISTRIBUTION_VERSIONS, distribution_name
from pipeline.family import Computed, Family, one_family_per_name
from pipeline.progress import say
from pipeline.store import ArtifactSpec, StoredArray


def settings(section: Mapping[str, Any]) -> list[str]:
    """``yahtzee.law.rule_sets`` checked: a list (possibly empty) of rule sets whose optimisation counts their
    upper bonus, that save no rolls, and that are not in ``yahtzee.rule_sets`` (whose family publishes the same
    artifact from its policy table)."""
    from pipeline.yahtzee.distribution import law_rules

    law = section.get("law")
    rule_sets = law.get("rule_sets") if isinstance(law, Mapping) else None
    if not isinstance(rule_sets, list):
        raise ValueError("yahtzee.law.rule_sets must be a list of rule sets (maxi, maxi-se), maybe empty")
    dense = set(section.get("rule_sets") or [])
    for name in rule_sets:
        try:
            law_rules(name)
        except ValueError as exc:
            raise ValueError(f"yahtzee.law.rule_sets: {exc}") from None
        if name in dense:
            raise ValueError(f"yahtzee.law.rule_sets: {name!r} is also in yahtzee.rule_sets, whose family "
                             "publishes its distribution; list it in one of them")
    return rule_sets


def spec(name: str) -> ArtifactSpec:
    """The law of the final score of rule set ``name``."""
    rules = get_rules(name)
    return ArtifactSpec(name=distribution_name(rules), schema=DISTRIBUTION_SCHEMA,
                        schema_version=max(DISTRIBUTION_VERSIONS), game="yahtzee", rules=rules.to_dict(), params={},
                        code=(__name__,), hdf5=True)


def _compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    from lookup.yahtzee.score_law import score_statistics
    from pipeline.yahtzee.distribution import optimal_score_law

    law = optimal_score_law(spec.rules["name"], log=lambda line: say("  " + line))
    # Timings and where the laws were held are reported, not stored: equal inputs give byte-identical artifacts.
    say("  " + ", ".join(f"{k} {v:.1f}" for k, v in law.timings.items())
        + f", peak {law.peak_bytes / 1e9:.2f} GB of laws ({law.storage})")
    stats = {**score_statistics(law.pmf), "p_upper_bonus": law.p_upper_bonus, "p_yahtzee": law.p_yahtzee,
             "start_value": law.start_value}
    return {"pmf": StoredArray(law.pmf, "pmf[score]: probability that the final score of a game played by the "
                               "optimal (expected-score) policy is exactly score points (real score: upper bonus "
                               "included); exact, not simulated")}, stats


def families(section: Mapping[str, Any]) -> list[Family]:
    """One family per rule set in ``yahtzee.law.rule_sets`` (none when params have no ``law``)."""
    if section.get("law") is None:
        return []
    return one_family_per_name(settings(section), "yahtzee-law", "yahtzee", lambda name: [spec(name)], _compute)
