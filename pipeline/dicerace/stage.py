"""The dice-race table families: the roll probabilities, and the strategy tables of every game in
``dicerace.grid`` (sequential, one-shot, simultaneous, exact match-ups; four artifacts, each holding
all the games, so the file count does not grow with the grid)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.dicerace.rules import rules_dict
from lookup.dicerace.tables import (
    MATCHUPS_NAME,
    MATCHUPS_SCHEMA,
    ONESHOT_NAME,
    ONESHOT_SCHEMA,
    PROBABILITIES_NAME,
    PROBABILITIES_SCHEMA,
    PROBABILITIES_VERSIONS,
    SEQUENTIAL_NAME,
    SEQUENTIAL_SCHEMA,
    SEQUENTIAL_VERSIONS,
    SIMULTANEOUS_NAME,
    SIMULTANEOUS_SCHEMA,
    SIMULTANEOUS_VERSIONS,
    STRATEGY_VERSIONS,
    grid_key,
)
from pipeline.family import Computed, Family, nonempty_list
from pipeline.progress import progress
from pipeline.store import ArtifactSpec, StoredArray


def _probability_specs(section: Mapping[str, Any]) -> list[ArtifactSpec]:
    max_dice = section.get("max_dice")
    if isinstance(max_dice, bool) or not isinstance(max_dice, int) or not 1 <= max_dice <= 200:
        raise ValueError(f"dicerace.max_dice must be an integer in 1..200, got {max_dice!r}")
    return [ArtifactSpec(name=PROBABILITIES_NAME, schema=PROBABILITIES_SCHEMA,
                         schema_version=max(PROBABILITIES_VERSIONS), game="dicerace", rules=rules_dict(),
                         params={"max_dice": max_dice}, code=(__name__,), hdf5=True)]


def _compute_probabilities(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
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
    return Family(name="dicerace-probabilities", section="dicerace", artifacts=_probability_specs,
                  compute=_compute_probabilities)


# --- strategy tables: sequential, one-shot, simultaneous, exact match-ups ------------------------------

# The policies of the match-up tables, in their order along the first two axes.
SEQUENTIAL_POLICIES = ("optimal", "blind", "random")
SIMULTANEOUS_POLICIES = ("optimal", "oneshot", "blind", "random")
_solved: dict[tuple[str, int, int], Any] = {}


def strategy_grid(section: Mapping[str, Any]) -> list[tuple[int, int]]:
    """The (dice, target) games of ``dicerace.grid``; ValueError naming a bad entry."""
    from pipeline.dicerace.kernels import MAX_DICE

    grid = nonempty_list(section, "grid", "dicerace.grid", "[dice, target] pairs")
    out = []
    for entry in grid:
        if (not isinstance(entry, list | tuple) or len(entry) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in entry)
                or not 1 <= entry[0] <= MAX_DICE or not 1 <= entry[1] <= 5000):
            raise ValueError(f"dicerace.grid entry {entry!r}: expected [dice, target] with dice in "
                             f"1..{MAX_DICE} and target in 1..5000")
        if tuple(entry) not in out:
            out.append((int(entry[0]), int(entry[1])))
    return out


def _strategy_specs(section: Mapping[str, Any]) -> list[ArtifactSpec]:
    grid = strategy_grid(section)
    common = dict(schema_version=max(STRATEGY_VERSIONS), game="dicerace", rules=rules_dict(), code=(__name__,))
    grid_params = {"grid": [list(g) for g in grid]}
    sequential = ArtifactSpec(name=SEQUENTIAL_NAME, schema=SEQUENTIAL_SCHEMA, params=grid_params,
                              hdf5=True, **{**common, "schema_version": max(SEQUENTIAL_VERSIONS)})
    oneshot = ArtifactSpec(name=ONESHOT_NAME, schema=ONESHOT_SCHEMA,
                           params={"dice": sorted({d for d, _ in grid})}, **common)
    simultaneous = ArtifactSpec(name=SIMULTANEOUS_NAME, schema=SIMULTANEOUS_SCHEMA, params=grid_params, hdf5=True,
                                **{**common, "schema_version": max(SIMULTANEOUS_VERSIONS)})
    matchups = ArtifactSpec(name=MATCHUPS_NAME, schema=MATCHUPS_SCHEMA, params={
        **grid_params, "sequential_fingerprint": sequential.fingerprint(),
        "oneshot_fingerprint": oneshot.fingerprint(), "simultaneous_fingerprint": simultaneous.fingerprint()},
        **common)
    return [sequential, oneshot, simultaneous, matchups]


def solved(kind: str, dice: int, target: int = 0) -> Any:
    """The solution of one game, computed once per process ("sequential", "simultaneous", "oneshot")."""
    from pipeline.dicerace.oneshot import solve_oneshot
    from pipeline.dicerace.sequential import solve_sequential
    from pipeline.dicerace.simultaneous import solve_simultaneous

    key = (kind, dice, target)
    if key not in _solved:
        if kind == "sequential":
            _solved[key] = solve_sequential(dice, target)
        elif kind == "oneshot":
            _solved[key] = solve_oneshot(dice)
        else:
            with progress(f"simultaneous game D={dice} N={target}", target) as advance:
                _solved[key] = solve_simultaneous(dice, target, progress=advance)
    return _solved[key]


def _compute_strategies(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    grid = [tuple(g) for g in spec.params.get("grid", [])]
    if spec.schema == ONESHOT_SCHEMA:
        return _oneshot_arrays(spec.params["dice"])
    if spec.schema == MATCHUPS_SCHEMA:
        return _matchup_arrays(grid)
    arrays: dict[str, StoredArray] = {}
    stats: dict[str, Any] = {}
    with progress(f"{spec.name}: {len(grid)} games", len(grid)) as advance:
        for dice, target in grid:
            key = grid_key(dice, target)
            if spec.schema == SEQUENTIAL_SCHEMA:
                sol = solved("sequential", dice, target)
                arrays.update(_sequential_arrays(key, sol))
                stats[key] = {"start_value": float(sol.value[0, 0]), "relative_tolerance": sol.tolerance,
                              "tied_states": int(np.count_nonzero(sol.optimal & (sol.optimal - 1)))}
            else:
                sol = solved("simultaneous", dice, target)
                arrays.update(_simultaneous_arrays(key, sol))
                stats[key] = {**sol.stats, "tolerance": sol.tolerance}
            advance()
    return arrays, stats


def _sequential_arrays(key: str, sol: Any) -> dict[str, StoredArray]:
    return {
        f"{key}_value": StoredArray(sol.value, "value[i, j]: EG(i, j) = P(win) - P(loss) of the player about "
                                    "to move with score i against j, optimal play by both"),
        f"{key}_win": StoredArray(sol.win, "win[i, j]: P(win) of the player about to move with score i "
                                  "against j, optimal play by both; relative error below stats' tolerance"),
        f"{key}_lose": StoredArray(sol.lose, "lose[i, j]: P(loss) of that player (1 - win exactly, but precise "
                                   "near 0); relative error below stats' tolerance"),
        f"{key}_optimal": StoredArray(sol.optimal, "optimal[i, j]: bit d-1 set for every optimal number of "
                                      "dice d at (i, j): exactly the exact optimal set (docs/dicerace.md)"),
    }


def _simultaneous_arrays(key: str, sol: Any) -> dict[str, StoredArray]:
    view = "at (i, j) for the player with score i against j"
    mixed = sol.mixed  # zero rows when every optimal strategy is pure
    return {
        f"{key}_value": StoredArray(sol.value, f"value[i, j]: EG1(i, j) = P(win) - P(loss) {view}, optimal play"),
        f"{key}_pure": StoredArray(sol.pure, f"pure[i, j]: optimal number of dice {view} when the stored "
                                   "strategy is pure (the smallest optimal one), else 0", fill=255),
        f"{key}_mixed_row": StoredArray(sol.mixed_row, f"mixed_row[i, j]: row of mixed holding the strategy "
                                        f"{view} when it is mixed, else -1"),
        f"{key}_mixed": StoredArray(mixed, "mixed[r, d - 1]: probability of rolling d dice in mixed strategy r",
                                    chunks=mixed.shape),
        f"{key}_flags": StoredArray(sol.flags, f"flags[i, j] {view}: 1 = stored strategy mixed, 2 = optimal "
                                    "strategy not unique, 4 = no pure saddle point (those of the exact game, "
                                    "certified; stats' uncertified_states counts the exceptions)", fill=255),
    }


def _oneshot_arrays(dice_list: list[int]) -> Computed:
    arrays: dict[str, StoredArray] = {}
    stats: dict[str, Any] = {}
    for dice in dice_list:
        sol = solved("oneshot", dice)
        arrays[f"d{dice}_matrix"] = StoredArray(sol.matrix, "matrix[d1 - 1, d2 - 1]: EG1(d1, d2) of the one-shot "
                                                "game (one roll each, higher total wins), exact fraction rounded")
        arrays[f"d{dice}_strategy"] = StoredArray(sol.strategy, "strategy[d - 1]: an optimal mixed strategy "
                                                  "(either player; the game is symmetric)")
        stats[f"d{dice}_value"] = sol.value
        if dice <= 6:
            stats[f"d{dice}_exact"] = [[str(x) for x in row] for row in sol.exact]
    return arrays, stats


def _matchup_arrays(grid: list[tuple[int, int]]) -> Computed:
    from pipeline.dicerace import policies
    from pipeline.dicerace.matchups import sequential_match, simultaneous_match

    arrays: dict[str, StoredArray] = {}
    stats: dict[str, Any] = {"sequential_policies": list(SEQUENTIAL_POLICIES),
                             "simultaneous_policies": list(SIMULTANEOUS_POLICIES)}
    with progress(f"{MATCHUPS_NAME}: {len(grid)} games", len(grid)) as advance:
        for dice, target in grid:
            key = grid_key(dice, target)
            base = {"blind": policies.blind(dice), "random": policies.uniform(dice)}
            seq = {**base, "optimal": policies.sequential_optimal(solved("sequential", dice, target))}
            sim = {**base, "optimal": policies.simultaneous_optimal(solved("simultaneous", dice, target)),
                   "oneshot": policies.oneshot_optimal(solved("oneshot", dice))}
            table = np.zeros((len(SEQUENTIAL_POLICIES), len(SEQUENTIAL_POLICIES), 2, 3))
            for a, name_a in enumerate(SEQUENTIAL_POLICIES):
                for b, name_b in enumerate(SEQUENTIAL_POLICIES):
                    res = sequential_match(seq[name_a], seq[name_b], target)
                    for first, which in enumerate(("a_first", "b_first")):
                        o = res[which]
                        table[a, b, first] = (o.win, o.draw, o.loss)
            arrays[f"{key}_sequential"] = StoredArray(table, "sequential[a, b, first, outcome]: exact probability "
                                                      "that policy a, against policy b, wins / draws / loses "
                                                      "(outcome 0 / 1 / 2); first 0 = a moves first, 1 = b does")
            table = np.zeros((len(SIMULTANEOUS_POLICIES), len(SIMULTANEOUS_POLICIES), 3))
            for a, name_a in enumerate(SIMULTANEOUS_POLICIES):
                for b, name_b in enumerate(SIMULTANEOUS_POLICIES):
                    o = simultaneous_match(sim[name_a], sim[name_b], target)
                    table[a, b] = (o.win, o.draw, o.loss)
            arrays[f"{key}_simultaneous"] = StoredArray(table, "simultaneous[a, b, outcome]: exact probability "
                                                        "that policy a, against policy b, wins / draws / loses")
            stats[f"{key}_blind_dice"] = policies.blind(dice).choice.item()
            advance()
    return arrays, stats


def strategies_family() -> Family:
    return Family(name="dicerace-strategies", section="dicerace", artifacts=_strategy_specs,
                  compute=_compute_strategies)


def families(section: Mapping[str, Any]) -> list[Family]:
    """The roll probabilities, and the strategy tables when ``dicerace.grid`` is given."""
    return [probabilities_family()] + ([strategies_family()] if section.get("grid") is not None else [])
