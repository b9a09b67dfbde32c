"""Value tables of rule sets that save unused rolls (Swedish Maxi Yatzy, ``maxi-se+saved2``; docs/yahtzee.md).

One family per rule set in ``yahtzee.saved.rule_sets`` (``yahtzee-saved-RULES``, '+' written '-'; none by
default), publishing ``yahtzee-RULES-saved-values`` (schema ``yahtzee.saved_values``):

* ``value[row, s]`` float64: the expected remaining points from the start of a turn in state ``row`` (the rows of
  ``lookup.yahtzee.states``: filled boxes, capped upper total, ybox) holding ``s`` saved rolls (0..cap), under
  optimal play, upper bonus counted in the turn it is earned; row 0, s = 0 is the start of a game;
* ``state_index[filled_mask, upper, ybox]`` int32: the row of each state (-1 unreachable), the same for every s;
* ``layer_ptr``: rows with n boxes filled are ``layer_ptr[n]:layer_ptr[n + 1]``.

No policy and no moments: the values alone, solved in memory (``pipeline.yahtzee.solver.saved_values``, the
solver's kernel with the extra rerolls). Play does not read these tables yet (``lookup.yahtzee.tables`` refuses a
rule set that saves rolls).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.yahtzee.rules import Rules, get_rules
from lookup.yahtzee.states import state_space
from lookup.yahtzee.tables import SAVED_SCHEMA, SAVED_VERSIONS, saved_values_name
from pipeline.family import Computed, Family, one_family_per_name
from pipeline.progress import progress, say
from pipeline.store import ArtifactSpec, StoredArray


def check_rules(rules: Rules) -> Rules:
    """``rules`` if they save unused rolls; ValueError otherwise (their values are the ``yahtzee-RULES`` or
    layered tables)."""
    if not rules.saved_rolls_cap:
        raise ValueError(f"yahtzee.saved.rule_sets lists rule sets that save unused rolls (such as maxi-se+saved2); "
                         f"{rules.name!r} saves none: its values are built by yahtzee.rule_sets or "
                         "yahtzee.layered.rule_sets")
    return rules


def settings(section: Mapping[str, Any]) -> list[str]:
    """``yahtzee.saved.rule_sets`` checked: a list (possibly empty) of rule sets that save unused rolls."""
    saved = section.get("saved")
    rule_sets = saved.get("rule_sets") if isinstance(saved, Mapping) else None
    if not isinstance(rule_sets, list):
        raise ValueError("yahtzee.saved.rule_sets must be a list of rule sets that save unused rolls "
                         "(maxi-se+saved2, maxi+saved2), maybe empty")
    for name in rule_sets:
        check_rules(get_rules(name))
    return rule_sets


def spec(name: str) -> ArtifactSpec:
    """The saved-rolls value table of rule set ``name``."""
    rules = check_rules(get_rules(name))
    return ArtifactSpec(name=saved_values_name(rules), schema=SAVED_SCHEMA, schema_version=max(SAVED_VERSIONS),
                        game="yahtzee", rules=rules.to_dict(), params={}, code=(__name__,))


def _compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    from pipeline.yahtzee.solver import saved_values

    rules = get_rules(spec.rules["name"])
    space = state_space(rules)
    with progress(f"solving Yahtzee with saved rolls ({rules.name})", rules.n_boxes) as advance:
        vals = saved_values(rules, progress=lambda done, total: advance())
    start = [float(v) for v in vals[:, 0]]
    say(f"  start value {start[0]!r} (with s = 0..{rules.saved_rolls_cap} saved rolls: {start})")
    by_row = np.ascontiguousarray(vals.T)  # a state's values for every s in one chunk row
    del vals
    return {
        "value": StoredArray(by_row, "value[row, s]: expected remaining points from the start of a turn in state "
                             "row holding s saved rolls, under optimal play (upper bonus counted when earned); "
                             "row 0, s = 0 is the start of a game"),
        "state_index": StoredArray(np.asarray(space.state_index, dtype=np.int32), "row of each state (filled_mask, "
                                   "upper, ybox) in value; -1 = unreachable (the same row for every s)"),
        "layer_ptr": StoredArray(np.asarray(space.layer_ptr, dtype=np.int64),
                                 "rows with n filled boxes are layer_ptr[n]:layer_ptr[n + 1]"),
    }, {"rows": int(space.n_rows), "saved_rolls_cap": rules.saved_rolls_cap, "start_value": start[0],
        "start_value_by_saved_rolls": start}


def families(section: Mapping[str, Any]) -> list[Family]:
    """One family per rule set in ``yahtzee.saved.rule_sets`` (none when params have no ``saved``)."""
    if section.get("saved") is None:
        return []
    return one_family_per_name(settings(section), "yahtzee-saved", "yahtzee", lambda name: [spec(name)], _compute)
