"""The dice-race table families."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lookup.dicerace.rules import rules_dict
from lookup.dicerace.tables import PROBABILITIES_NAME, PROBABILITIES_SCHEMA, PROBABILITIES_VERSIONS
from pipeline.stages import Computed, Family
from pipeline.store import ArtifactSpec, StoredArray

PROBABILITIES_CODE = ("lookup/dicerace/rules.py", "pipeline/dicerace/probabilities.py")


def _probability_specs(section: Mapping[str, Any]) -> list[ArtifactSpec]:
    max_dice = section.get("max_dice")
    if isinstance(max_dice, bool) or not isinstance(max_dice, int) or not 1 <= max_dice <= 200:
        raise ValueError(f"dicerace.max_dice must be an integer in 1..200, got {max_dice!r}")
    return [ArtifactSpec(name=PROBABILITIES_NAME, schema=PROBABILITIES_SCHEMA,
                         schema_version=max(PROBABILITIES_VERSIONS), game="dicerace", rules=rules_dict(),
                         params={"max_dice": max_dice}, code=PROBABILITIES_CODE, hdf5=True)]


def _compute_probabilities(spec: ArtifactSpec, section: Mapping[str, Any]) -> Computed:
    from pipeline.dicerace.probabilities import float_tables

    p, q = float_tables(spec.params["max_dice"])
    arrays = {
        "P": StoredArray(p, "P[d, k]: probability that d dice score k points (1 if any die shows 1, "
                            "else the sum); row 0 is the empty roll", chunks=p.shape),
        "Q": StoredArray(q, "Q[d, k]: probability that d dice sum to k given no die shows 1",
                         chunks=q.shape),
    }
    expected = [round(float(sum(k * p[d, k] for k in range(p.shape[1]))), 6) for d in range(1, p.shape[0])]
    return arrays, {"expected_points_d1_up": expected}


def probabilities_family() -> Family:
    return Family(name="dicerace-probabilities", section="dicerace", code=PROBABILITIES_CODE,
                  artifacts=_probability_specs, compute=_compute_probabilities)
