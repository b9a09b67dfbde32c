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

import numpy as np

from lookup.chunked import ChunkedArray
from lookup.errors import not_built
from lookup.store import (
    ArtifactError,
    artifact_exists,
    artifact_path,
    artifact_stamp,
    default_artifacts_dir,
    play_arrays,
)
from lookup.yahtzee.rules import Rules
from lookup.yahtzee.states import layer_name

VALUES_SCHEMA, POLICY_SCHEMA = "yahtzee.values", "yahtzee.policy"
SCHEMA_VERSIONS = (1,)
POLICY_ARRAYS = ["state_index", "reroll", "category"]
DISTRIBUTION_SCHEMA = "yahtzee.distribution"
DISTRIBUTION_VERSIONS = (1,)
# The value table of a rule set too large for a policy table (Maxi Yatzy), by rows and layers:
# ``state_index``, ``layer_ptr`` and ``layer_NN[row - layer_ptr[NN], j]`` (pipeline.yahtzee.layered_values).
LAYERED_SCHEMA = "yahtzee.layered"
LAYERED_VERSIONS = (1,)
# The values of a rule set that saves unused rolls: ``value[row, s]``, ``state_index``, ``layer_ptr``
# (pipeline.yahtzee.saved). Play does not read it yet.
SAVED_SCHEMA = "yahtzee.saved_values"
SAVED_VERSIONS = (1,)


def values_name(rules: Rules) -> str:
    return f"yahtzee-{rules.name}-values"


def policy_name(rules: Rules) -> str:
    return f"yahtzee-{rules.name}-policy"


def distribution_name(rules: Rules) -> str:
    return f"yahtzee-{rules.name}-distribution"


def layered_name(rules: Rules) -> str:
    return f"yahtzee-{rules.name}-layered"


def saved_values_name(rules: Rules) -> str:
    return f"yahtzee-{rules.name}-saved-values"


# What a rule set's tables cost to build (docs/benchmarks.md, on the project's 2-core machine): a five-dice rule set's
# value and policy tables and its score law (family yahtzee-RULES), and for six dice (Maxi Yatzy) the layered value
# table (yahtzee-layered-RULES) and the law without a policy table (yahtzee-law-RULES).
TABLES_COST = "about a minute of CPU (hasbro 35 s, scandinavian 92 s)"
LAYERED_COST = "about 30 minutes, 4 GB of memory and 0.8 GB on disk on 2 cores"
LAW_COST = "about 35 minutes, 3 GB of memory and 20 GB of temporary files under $TMPDIR on 2 cores"


def layered_only(rules: Rules) -> bool:
    """Whether ``rules`` is too large for a policy table (six dice, Maxi Yatzy: 33 M rows x 2 x 462 rolls, 31 GB):
    its values are then the layered table and its score law the law built without a policy table."""
    return rules.n_dice > 5


def dashed(rules: Rules) -> str:
    """``rules``' name as the Dask-built families and the law's have it ('+' written '-':
    yahtzee-layered-scandinavian-forced, yahtzee-towin-..., yahtzee-party2-...); the family of the tables is
    ``yahtzee-RULES``."""
    return rules.name.replace("+", "-")


def built_value_table(rules: Rules, artifacts_dir: str | Path | None = None) -> str | None:
    """The name of the value table of ``rules`` that play reads in ``artifacts_dir``: the dense one
    (``values_name``) when it exists, else the layered one (``layered_name``, Maxi Yatzy), else None (not built).
    The order of ``load_tables``; existence only: ``load_tables`` verifies."""
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    return next((name for name in (values_name(rules), layered_name(rules))
                 if artifact_exists(artifact_path(root, name))), None)


@dataclass(frozen=True, eq=False)
class LayeredValues:
    """The value table of a layered artifact (``yahtzee-RULES-layered``), indexed as the dense one:
    ``values[filled_mask, upper, ybox]`` = expected remaining points from that turn start (NaN if unreachable).

    ``column(state, j)`` reads the state's other numbers (``COLUMNS``: the second moment of the remaining
    points under optimal play, P(upper bonus earned from here), P(Yahtzee box filled from here)).
    """

    state_index: ChunkedArray
    layer_ptr: tuple[int, ...]
    layers: tuple[ChunkedArray, ...]

    COLUMNS = ("value", "second_moment", "p_upper_bonus", "p_yahtzee")

    def column(self, state: tuple[int, int, int], j: int) -> float:
        mask, upper, ybox = (int(x) for x in state)
        if not (0 <= mask < self.state_index.shape[0] and 0 <= upper < self.state_index.shape[1] and 0 <= ybox <= 1):
            raise IndexError(f"state {state} outside the table's shape {self.state_index.shape}")
        # Flat element reads (rows-only chunks): the tuple form checks and converts more, per read, and a turn
        # of Maxi reads some 60 states.
        row = self.state_index.flat((mask * self.state_index.shape[1] + upper) * 2 + ybox)
        if row < 0:
            return float("nan")
        n = mask.bit_count()
        return float(self.layers[n].flat((row - self.layer_ptr[n]) * len(self.COLUMNS) + j))

    def __getitem__(self, state: tuple[int, int, int]) -> float:
        return self.column(state, 0)


@dataclass(frozen=True, eq=False)
class YahtzeeTables:
    """What play needs for one rule set. ``policy`` is None when only the value table is built.

    value[filled_mask, upper, ybox]: expected remaining points from a turn start (NaN if unreachable); a
        ``LayeredValues`` for a rule set built as a layered table (Maxi Yatzy: no policy table).
    policy: {"state_index", "reroll", "category"}.
    Both are ``lookup.chunked.ChunkedArray``: an element index reads that element's chunk (checked the
    first time this process uses it); ``np.asarray`` gives the whole checked array.
    stats: exact statistics of optimal play stored with the value table.
    """

    rules: Rules
    value: ChunkedArray | LayeredValues
    policy: dict[str, ChunkedArray] | None
    stats: dict[str, Any]


# Seconds between checks that the artifacts were not republished: a decision must not pay for path
# resolution and stat calls every time (they cost many times the rest of a decision; figures in
# docs/benchmarks.md, "Yahtzee decisions").
RECHECK_S = 1.0
_recent: dict[tuple[str, str | None], tuple[float, YahtzeeTables]] = {}


def load_tables(rules: Rules, artifacts_dir: str | Path | None = None) -> YahtzeeTables:
    """The verified tables of ``rules``; ValueError naming the file when they are not built or differ, or
    naming the rule when ``rules`` save unused rolls (no table play can read exists for them yet)."""
    if rules.saved_rolls_cap:
        raise ValueError(f"rule set {rules.name!r} saves unused rolls (at most {rules.saved_rolls_cap}): a turn then "
                         "has 2 + s rerolls and the state holds s, the rolls saved, which decide, explain and value "
                         "do not take yet; its values are the table "
                         f"{saved_values_name(rules)} (docs/yahtzee.md, \"Saved rolls\")")
    # Rechecked every RECHECK_S: the stamps (artifact, manifest, trust mode) then say whether to reopen.
    key = (rules.name, None if artifacts_dir is None else str(artifacts_dir))
    hit = _recent.get(key)
    now = time.monotonic()
    if hit is not None and now - hit[0] < RECHECK_S and hit[1].rules is rules:
        return hit[1]
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    values = artifact_path(root, values_name(rules))
    policy = artifact_path(root, policy_name(rules))
    values_stamp = artifact_stamp(values)
    layered = artifact_path(root, layered_name(rules))
    layered_stamp = 0 if values_stamp else artifact_stamp(layered)
    if layered_stamp:
        tables = _load_layered(rules, layered, layered_stamp)
    else:
        tables = _load(rules, values, values_stamp, policy, artifact_stamp(policy))
    _recent[key] = (now, tables)
    return tables


@lru_cache(maxsize=8)
def _load(rules: Rules, values: Path, values_stamp: int, policy: Path, policy_stamp: int) -> YahtzeeTables:
    # The stamps make a republished artifact (or manifest) a new cache entry.
    if not values_stamp:
        public = f"rule set {rules.name!r} is not built on this server"
        if layered_only(rules):  # six dice: the layered table, the one play reads without a policy table
            raise not_built(f"{values.with_name(layered_name(rules) + '.zarr')}: the {rules.name!r} Yahtzee table "
                            "(six dice: a layered value table) is not built", public,
                            params=f"{rules.name!r} in yahtzee.layered.rule_sets",
                            build=f"yahtzee-layered-{dashed(rules)}", cost=LAYERED_COST)
        raise not_built(f"{values}: the {rules.name!r} Yahtzee tables (values and policy) are not built", public,
                        params=f"{rules.name!r} in yahtzee.rule_sets", build=f"yahtzee-{rules.name}",
                        cost=TABLES_COST)
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


@lru_cache(maxsize=8)
def _load_layered(rules: Rules, path: Path, stamp: int) -> YahtzeeTables:
    # The stamp makes a republished artifact a new cache entry.
    names = ["state_index", "layer_ptr"] + [layer_name(n) for n in range(rules.n_boxes + 1)]
    meta, arrays = play_arrays(path, names, schema=LAYERED_SCHEMA, versions=LAYERED_VERSIONS, rules=rules.to_dict())
    layout = (1 << rules.n_boxes, rules.upper_threshold + 1, 2)
    if arrays["state_index"].shape != layout:
        raise ArtifactError(f"{path}: array 'state_index' has shape {arrays['state_index'].shape}, the rules imply "
                            f"{layout}")
    ptr = tuple(int(x) for x in np.asarray(arrays["layer_ptr"]))
    layers = tuple(arrays[layer_name(n)] for n in range(rules.n_boxes + 1))
    for n, layer in enumerate(layers):
        if len(ptr) != rules.n_boxes + 2 or layer.shape != (ptr[n + 1] - ptr[n], len(LayeredValues.COLUMNS)):
            raise ArtifactError(f"{path}: array {layer_name(n)!r} has shape {layer.shape}, layer_ptr implies "
                                f"{(ptr[n + 1] - ptr[n], len(LayeredValues.COLUMNS))}")
    values = LayeredValues(arrays["state_index"], ptr, layers)
    return YahtzeeTables(rules=rules, value=values, policy=None, stats=meta.get("stats", {}))
