"""The Yahtzee artifacts of one rule set, opened for play (read chunk by chunk, ``lookup.chunked``).

``yahtzee-RULES-values.zarr`` (schema ``yahtzee.values``) holds ``value[filled_mask, upper, ybox]``;
``yahtzee-RULES-policy.zarr`` (schema ``yahtzee.policy``) holds ``state_index``, ``reroll`` and
``category`` (layouts in ``pipeline.yahtzee.solver`` and ``docs/artifacts.md``);
``yahtzee-RULES-distribution.zarr`` (schema ``yahtzee.distribution``) holds ``pmf[score]``, the exact law
of the final score under the policy tables (read by ``lookup.yahtzee.distribution``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from lookup.chunked import ChunkedArray
from lookup.errors import NotBuiltError
from lookup.store import (
    ArtifactError,
    artifact_path,
    artifact_stamp,
    default_artifacts_dir,
    play_arrays,
)
from lookup.yahtzee.rules import Rules

VALUES_SCHEMA, POLICY_SCHEMA = "yahtzee.values", "yahtzee.policy"
SCHEMA_VERSIONS = (1,)
POLICY_ARRAYS = ["state_index", "reroll", "category"]
DISTRIBUTION_SCHEMA = "yahtzee.distribution"
DISTRIBUTION_VERSIONS = (1,)


def values_name(rules: Rules) -> str:
    return f"yahtzee-{rules.name}-values"


def policy_name(rules: Rules) -> str:
    return f"yahtzee-{rules.name}-policy"


def distribution_name(rules: Rules) -> str:
    return f"yahtzee-{rules.name}-distribution"


@dataclass(frozen=True, eq=False)
class YahtzeeTables:
    """What play needs for one rule set. ``policy`` is None when only the value table is built.

    value[filled_mask, upper, ybox]: expected remaining points from a turn start (NaN if unreachable).
    policy: {"state_index", "reroll", "category"}.
    Both are ``lookup.chunked.ChunkedArray``: an element index reads that element's chunk (checked the
    first time this process uses it); ``np.asarray`` gives the whole checked array.
    stats: exact statistics of optimal play stored with the value table.
    """

    rules: Rules
    value: ChunkedArray
    policy: dict[str, ChunkedArray] | None
    stats: dict[str, Any]


# Seconds between checks that the artifacts were not republished: a decision must not pay for path
# resolution and stat calls every time (they cost many times the rest of a decision; figures in
# docs/benchmarks.md, "Yahtzee decisions").
RECHECK_S = 1.0
_recent: dict[tuple[str, str | None], tuple[float, YahtzeeTables]] = {}


def load_tables(rules: Rules, artifacts_dir: str | Path | None = None) -> YahtzeeTables:
    """The verified tables of ``rules``; ValueError naming the file when they are not built or differ."""
    # Rechecked every RECHECK_S: the stamps (artifact, manifest, trust mode) then say whether to reopen.
    key = (rules.name, None if artifacts_dir is None else str(artifacts_dir))
    hit = _recent.get(key)
    now = time.monotonic()
    if hit is not None and now - hit[0] < RECHECK_S and hit[1].rules is rules:
        return hit[1]
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    values = artifact_path(root, values_name(rules))
    policy = artifact_path(root, policy_name(rules))
    tables = _load(rules, values, artifact_stamp(values), policy, artifact_stamp(policy))
    _recent[key] = (now, tables)
    return tables


@lru_cache(maxsize=8)
def _load(rules: Rules, values: Path, values_stamp: int, policy: Path, policy_stamp: int) -> YahtzeeTables:
    # The stamps make a republished artifact (or manifest) a new cache entry.
    if not values_stamp:
        raise NotBuiltError(
            f"{values}: the {rules.name!r} Yahtzee tables are not built; add {rules.name!r} to "
            f"yahtzee.rule_sets in params.yaml and run `make run` (or `dicetables build yahtzee-{rules.name}`)",
            f"rule set {rules.name!r} is not built on this server")
    identity = dict(versions=SCHEMA_VERSIONS, rules=rules.to_dict())
    meta, arrays = play_arrays(values, ["value"], schema=VALUES_SCHEMA, **identity)
    pol = None
    if policy_stamp:
        pmeta, pol = play_arrays(policy, POLICY_ARRAYS, schema=POLICY_SCHEMA, **identity)
        if pmeta["params"].get("values_fingerprint") != meta["fingerprint"]:
            raise ArtifactError(f"{policy}: computed from another value table than {values}; rebuild both")
        # decide() computes flat indices from the rules: the layouts must be the ones they imply.
        rows, n_rolls = pol["category"].shape[0], rules.encoding.n_rolls
        layouts = {"state_index": (1 << rules.n_boxes, rules.upper_threshold + 1, 2),
                   "reroll": (rows, 2, n_rolls), "category": (rows, n_rolls)}
        for name, shape in layouts.items():
            if pol[name].shape != shape:
                raise ArtifactError(f"{policy}: array {name!r} has shape {pol[name].shape}, the rules imply {shape}")
    return YahtzeeTables(rules=rules, value=arrays["value"], policy=pol, stats=meta.get("stats", {}))
