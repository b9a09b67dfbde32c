"""The Farkle table families (``lookup.farkle.tables`` says what the arrays hold):

* ``farkle-points``: the solitaire table, expected points of a turn from each turn total and dice to roll, for
  1 to 6 dice (artifact ``farkle-facebook-points``);
* ``farkle-facebook``: the two-player tables of every size in ``farkle.games`` (artifact ``farkle-facebook``),
  solved and written by ``pipeline.farkle.build``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from lookup.farkle.rules import DEFAULT_RULES, FACES, Rules, Size, best_keeps, check_size, get_rules, roll_outcomes
from lookup.farkle.tables import (
    POINTS_SCHEMA,
    POINTS_VERSIONS,
    SCHEMA,
    SCHEMA_VERSIONS,
    artifact_name,
    points_array,
    points_name,
)
from pipeline.family import Computed, Family, nonempty_list
from pipeline.store import ArtifactSpec, StoredArray


def games_of(section: Mapping[str, Any]) -> list[Size]:
    """The sizes ``farkle.games`` asks for ([target, floor, dice] each); ValueError naming the key otherwise."""
    rules = get_rules(DEFAULT_RULES)

    def size(entry: Any) -> Size:
        if not isinstance(entry, list) or len(entry) != 3:
            raise ValueError(f"farkle.games entries must be [target, floor, dice], got {entry!r}")
        return check_size(*entry, rules)

    sizes = [size(e) for e in nonempty_list(section, "games", "farkle.games", "games [target, floor, dice]")]
    if len(set(sizes)) != len(sizes):
        raise ValueError(f"farkle.games lists a game twice: {[list(s) for s in sizes]}")
    return sizes


def _spec(section: Mapping[str, Any]) -> ArtifactSpec:
    rules = get_rules(DEFAULT_RULES)
    return ArtifactSpec(name=artifact_name(rules), schema=SCHEMA, schema_version=max(SCHEMA_VERSIONS),
                        game="farkle", rules=rules.to_dict(), params={"games": [list(s) for s in games_of(section)]},
                        code=(__name__,))


def _points_spec() -> ArtifactSpec:
    rules = get_rules(DEFAULT_RULES)
    return ArtifactSpec(name=points_name(rules), schema=POINTS_SCHEMA, schema_version=max(POINTS_VERSIONS),
                        game="farkle", rules=rules.to_dict(), params={"dice": list(range(1, FACES + 1))},
                        code=(__name__,))


def banking_threshold(rules: Rules, dice: int) -> int:
    """The turn total (units) from which banking is best whatever the dice (docs/farkle.md, "Expected points of
    a turn"): the least t >= min_bank with t * pF(n) >= G(n) for every n <= ``dice``, G(n) the expected points of
    the best keep of a roll of n dice (0 on a farkle). From there any roll loses points on average."""
    unit, t = rules.unit, rules.min_bank // rules.unit
    for n in range(1, dice + 1):
        farkle, gain = Fraction(0), Fraction(0)
        for roll, p in roll_outcomes(n):
            best = best_keeps(roll, rules)
            if best:
                gain += p * max(k.points for k in best.values()) / unit
            else:
                farkle += p
        t = max(t, -(-gain // farkle))
    return int(t)


def points_compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    """E[t, n] for 1 .. 6 dice, in points, for every turn total below the banking threshold."""
    from pipeline.farkle import kernels

    rules = get_rules(spec.rules["name"])
    arrays, stats = {}, {}
    for dice in spec.params["dice"]:
        table = kernels.roll_table(rules, dice)
        rows = banking_threshold(rules, dice)
        E = kernels.points_table(rows, rules.min_bank // rules.unit, dice, *table.arrays()) * rules.unit
        E[0, :dice] = np.nan  # a turn starts with all the dice
        arrays[points_array(dice)] = StoredArray(E, f"[t, n]: the expected points a turn banks from a turn total of "
                                                    f"t * {rules.unit} with n dice to roll ({dice} dice in all), "
                                                    f"playing for points; t >= {rows}: t * {rules.unit} (bank)")
        stats[f"start_{dice}"] = float(E[0, dice])
        stats[f"bank_from_{dice}"] = rows * rules.unit
    return arrays, stats


def _publish(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path, fingerprint: str) -> list[Path]:
    from pipeline.farkle.build import publish

    return publish(spec, section, artifacts_dir, fingerprint)


def _no_compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    raise AssertionError("the two-player tables are written in place (Family.publish)")


def families(section: Mapping[str, Any]) -> list[Family]:
    """``farkle-points`` and ``farkle-facebook`` (the two-player tables of ``farkle.games``)."""
    return [Family(name="farkle-points", section="farkle", artifacts=lambda _s: [_points_spec()],
                   compute=points_compute),
            Family(name=f"farkle-{DEFAULT_RULES}", section="farkle", artifacts=lambda s: [_spec(s)],
                   compute=_no_compute, publish=_publish)]
