"""The poker table families: ``poker-evaluator`` (the evaluator tables), ``poker-preflop`` (preflop
equities of the 169 classes; reads the evaluator artifact) and, when ``poker.multiway.max_opponents`` asks
for it, ``poker-multiway`` (exact counts against 1..9 random hands; reads the evaluator artifact)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lookup.poker.rules import RULES
from lookup.poker.tables import (
    EVALUATOR,
    EVALUATOR_SCHEMA,
    EVALUATOR_VERSIONS,
    MULTIWAY,
    MULTIWAY_SCHEMA,
    MULTIWAY_VERSIONS,
    PREFLOP,
    PREFLOP_SCHEMA,
    PREFLOP_VERSIONS,
)
from pipeline.family import Computed, Family
from pipeline.store import ArtifactSpec, StoredArray


def _evaluator_spec(section: Mapping[str, Any]) -> ArtifactSpec:
    return ArtifactSpec(name=EVALUATOR, schema=EVALUATOR_SCHEMA, schema_version=max(EVALUATOR_VERSIONS),
                        game="poker", rules=RULES, params={}, code=(__name__,))


def compute_evaluator(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    """The rank-multiset automaton, its values and the flush table (pipeline/poker/ranking.py)."""
    from pipeline.poker.ranking import flush_table, rank_automaton, value_order

    rank_next, rank_value = rank_automaton()
    flush_value = flush_table()
    arrays = {
        "rank_next": StoredArray(rank_next, "rank_next[s, r]: state reached from rank multiset s by adding a card "
                                 "of rank r (0..12 = 2..A); -1 = impossible (a fifth card of a rank or an "
                                 "eighth card); state 0 = no card", fill=-2),
        "rank_value": StoredArray(rank_value, "rank_value[s]: value (category << 12 | order, larger is better) "
                                  "of the best five cards of multiset s ignoring suits; 0 below five cards",
                                  fill=65535),
        "flush_value": StoredArray(flush_value, "flush_value[m]: value of the best flush or straight flush of "
                                   "one suit whose ranks are the bits of m; 0 below five bits", fill=65535),
    }
    stats = {"states": int(len(rank_next)), "distinct_values": int(len(value_order(rank_value, flush_value)))}
    return arrays, stats


def _preflop_spec(section: Mapping[str, Any]) -> ArtifactSpec:
    from pipeline.poker.preflop import preflop_params

    # The evaluator's fingerprint is part of the params: new evaluator tables make new preflop tables.
    params = {**preflop_params(section), "evaluator": _evaluator_spec(section).fingerprint()}
    return ArtifactSpec(name=PREFLOP, schema=PREFLOP_SCHEMA, schema_version=max(PREFLOP_VERSIONS), game="poker",
                        rules=RULES, params=params, code=(__name__,), hdf5=True)


def compute_preflop(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    """Build (or reuse) the evaluator first, then the preflop tables (pipeline/poker/preflop.py)."""
    from pipeline.family import build_family
    from pipeline.poker.preflop import compute_preflop as compute

    build_family(families(section)[0], {"poker": section}, artifacts_dir)
    return compute(spec, section, artifacts_dir)


def _multiway_spec(section: Mapping[str, Any]) -> ArtifactSpec:
    from pipeline.poker.multiway import multiway_params

    cfg = multiway_params(section)
    # Where and in how many tasks the counts run changes no byte: not in the fingerprint.
    params = {"max_opponents": cfg["max_opponents"], "hands": cfg["hands"],
              "evaluator": _evaluator_spec(section).fingerprint()}
    return ArtifactSpec(name=MULTIWAY, schema=MULTIWAY_SCHEMA, schema_version=max(MULTIWAY_VERSIONS), game="poker",
                        rules=RULES, params=params, code=(__name__,))


def compute_multiway(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    """Build (or reuse) the evaluator first, then the multi-way counts (pipeline/poker/multiway.py)."""
    from pipeline.family import build_family
    from pipeline.poker.multiway import compute_multiway as compute

    build_family(families(section)[0], {"poker": section}, artifacts_dir)
    return compute(spec, section, artifacts_dir)


def families(section: Mapping[str, Any]) -> list[Family]:
    """The evaluator family, the preflop family (which reads the evaluator artifact), and the multi-way family
    when ``poker.multiway.max_opponents`` >= 1 (none by default: it takes the better part of an hour)."""
    from pipeline.poker.multiway import multiway_params

    found = [Family(name=EVALUATOR, section="poker",
                    artifacts=lambda sec: [_evaluator_spec(sec)], compute=compute_evaluator),
             Family(name=PREFLOP, section="poker", artifacts=lambda sec: [_preflop_spec(sec)],
                    compute=compute_preflop, upstream=(f"{EVALUATOR}.zarr",))]
    if multiway_params(section)["max_opponents"] >= 1:
        found.append(Family(name=MULTIWAY, section="poker",
                            artifacts=lambda sec: [_multiway_spec(sec)], compute=compute_multiway,
                            upstream=(f"{EVALUATOR}.zarr",)))
    return found

