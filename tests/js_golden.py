"""The golden file of the JavaScript advisor (clients/js, docs/js.md): random situations and Python's answers to them,
written from an artifacts directory, which the Node test (clients/js/test/golden.test.mjs) answers again with the
JavaScript advisor and compares, answer for answer.

One gzip-compressed JSON line per situation after a header line ``{"golden": 1, "artifacts": DIR, "counts": {...},
"fingerprints": {...}}`` (``counts``: situations per table; ``fingerprints``: of the artifacts answered from). A
situation is

- Yahtzee (``"t": "yahtzee"``): ``rules``, ``dice``, ``rerolls``, ``sheet`` (a mapping, sometimes with other spellings
  of the box names and a ``yahtzee_bonus``, or a list in sheet order), and Python's answers: ``decide``
  (``lookup.yahtzee.decide(...).as_dict()``), ``explain`` (``[o.as_dict() for o in lookup.yahtzee.explain(...)]``),
  ``value`` (``lookup.yahtzee.value(sheet)``); or ``error`` (the ValueError's words) when Python refuses the
  question, and ``value_error`` when it refuses the sheet's value. Sheets come from games played so far by one of
  three players (uniform random boxes, the box of most points, the tables' own play), so that late, bonus-earning
  and Joker positions are common; one question in 32 is damaged on purpose (a face of 7, six dice, 3 rerolls, a box
  of impossible points, an unknown box, a finished sheet, a Yahtzee bonus that cannot be, boxes out of a forced
  order ...), so that the advisors must refuse alike.
- Dice race (``"t": "dicerace"``): ``dice``, ``target``, ``mode``, ``my``, ``other``, and for the simultaneous game
  ``seed`` and ``u``, the first ``random()`` of ``numpy.random.default_rng(seed)`` (the number ``decide(..., rng=seed)``
  draws its sample with); Python's ``decide`` and ``strategy``, or ``error``. Half the simultaneous situations are
  states whose stored strategy is mixed.

    python -m tests.js_golden --artifacts artifacts --out /tmp/golden.jsonl.gz [--n 100000] [--rules hasbro,seed]

``--n`` (default ``$DICETABLES_JS_PARITY``, else 1,000) situations per table: per Yahtzee rule set, and per dice-race
game and mode (every (dice, target) of the built grid, sequential and simultaneous).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from lookup.store import read_meta
from lookup.yahtzee import decide, explain, get_rules, value
from lookup.yahtzee.rules import RULE_SETS
from lookup.yahtzee.sheet import BONUS_KEY, Sheet

# make test: 1,000 situations a table (make test-full: 20,000; the recorded parity runs: 100,000, docs/js.md).
DEFAULT_N = 1000
PARITY_ENV = "DICETABLES_JS_PARITY"
DAMAGED = 32  # one question in DAMAGED is damaged on purpose


def default_n() -> int:
    return int(os.environ.get(PARITY_ENV, DEFAULT_N))


def yahtzee_rule_sets(root: Path) -> list[str]:
    """The rule sets whose expected-score tables (dense values or layered) are built in ``root`` and that this
    Python knows (``RULE_SETS``), without saved rolls."""
    found = []
    for path in sorted(root.glob("yahtzee-*.zarr")):
        try:
            meta = read_meta(path)
        except (OSError, ValueError, KeyError):
            continue
        if meta.get("schema") in ("yahtzee.values", "yahtzee.layered"):
            name = meta["rules"]["name"]
            if name in RULE_SETS and not RULE_SETS[name].saved_rolls_cap and name not in found:
                found.append(name)
    return found


def dicerace_games(root: Path) -> list[tuple[int, int, str]]:
    """(dice, target, mode) of every game whose strategy table is built in ``root``."""
    games = []
    for mode in ("sequential", "simultaneous"):
        path = root / f"dicerace-{mode}.zarr"
        if path.is_dir():
            games += [(int(d), int(n), mode) for d, n in read_meta(path)["params"]["grid"]]
    return games


# --- Yahtzee -----------------------------------------------------------------------------------------------------

def _roll(rng: np.random.Generator, n_dice: int) -> list[int]:
    if rng.random() < 0.08:  # all alike: the Joker rules and Yahtzee bonuses
        return [int(rng.integers(1, 7))] * n_dice
    return [int(x) for x in rng.integers(1, 7, n_dice)]


def _play_turn(sheet: Sheet, rng: np.random.Generator, style: str, artifacts: Path) -> None:
    rules = sheet.rules
    dice = _roll(rng, rules.n_dice)
    if style == "tables":  # the advisor's own play: realistic late positions
        for rerolls in (2, 1):
            d = decide(dice, rerolls, sheet, rules, artifacts_dir=artifacts)
            dice = [int(rng.integers(1, 7)) if r else p for p, r in zip(dice, d.reroll, strict=True)]
        box = decide(dice, 0, sheet, rules, artifacts_dir=artifacts).category
    else:
        options = sheet.allowed(dice)
        if style == "greedy":
            best = max(options.values())
            names = [n for n, p in options.items() if p == best]
        else:
            names = list(options)
        box = names[int(rng.integers(len(names)))]
    sheet.score(box, dice)


def _sheet_form(sheet: Sheet, rng: np.random.Generator) -> Any:
    """The sheet as a question states it: a list in sheet order (no Yahtzee bonus then), or a mapping (the empty
    boxes sometimes listed as null, a box name sometimes spelled otherwise, the bonus when earned)."""
    rules = sheet.rules
    if sheet.yahtzee_bonus == 0 and rng.random() < 0.4:
        return list(sheet.boxes)
    out: dict[str, Any] = {}
    for name, points in zip(rules.categories, sheet.boxes, strict=True):
        if points is None and rng.random() < 0.7:
            continue
        if rng.random() < 0.1:
            name = name.replace("_", " ").title() if rng.random() < 0.5 else name.replace("_", "-").upper()
        out[name] = points
    if sheet.yahtzee_bonus or rng.random() < 0.1:
        out[BONUS_KEY] = sheet.yahtzee_bonus
    return out


def _damaged(rules_name: str, dice: list[int], rerolls: int, sheet: Any, rng: np.random.Generator
             ) -> tuple[list[int], int, Any]:
    """The question with one thing wrong (most of them refused by Python; the record holds what it answered)."""
    rules = get_rules(rules_name)
    kind = int(rng.integers(9))
    if kind == 0:
        dice = [*dice[:-1], int(rng.choice([0, 7]))]
    elif kind == 1:
        dice = [*dice, 3] if rng.random() < 0.5 else dice[:-1]
    elif kind == 2:
        rerolls = int(rng.choice([-1, 3]))
    elif kind == 3:  # points no roll can score in the box
        sheet = {rules.categories[0]: 7}
    elif kind == 4:
        sheet = {"not_a_box": 3}
    elif kind == 5:  # every box filled with 0: finished
        sheet = [0] * rules.n_boxes
    elif kind == 6:  # a bonus that cannot be
        yi = rules.yahtzee_index
        sheet = {rules.categories[yi]: rules.yahtzee_points, BONUS_KEY: int(rng.choice([50, 100, 300]))} \
            if yi >= 0 else {BONUS_KEY: 100}
    elif kind == 7:  # the last box filled alone (out of order when the order is forced)
        sheet = {rules.categories[-1]: 0}
    else:
        sheet = [None] * (rules.n_boxes - 1)
    return dice, rerolls, sheet


def yahtzee_records(rules_name: str, artifacts: Path, n: int, rng: np.random.Generator) -> Iterator[dict[str, Any]]:
    rules = get_rules(rules_name)
    for i in range(n):
        style = ("random", "greedy", "tables")[i % 3]
        sheet = Sheet.empty(rules)
        for _ in range(int(rng.integers(0, rules.n_boxes))):
            _play_turn(sheet, rng, style, artifacts)
        dice, rerolls, form = _roll(rng, rules.n_dice), int(rng.integers(0, 3)), _sheet_form(sheet, rng)
        if rng.integers(DAMAGED) == 0:
            dice, rerolls, form = _damaged(rules_name, dice, rerolls, form, rng)
        rec: dict[str, Any] = {"t": "yahtzee", "rules": rules.name, "dice": dice, "rerolls": rerolls, "sheet": form}
        kw = {"artifacts_dir": artifacts}
        try:
            rec["decide"] = decide(dice, rerolls, form, rules, **kw).as_dict()
            rec["explain"] = [o.as_dict() for o in explain(dice, rerolls, form, rules, **kw)]
        except ValueError as exc:
            rec = {k: v for k, v in rec.items() if k not in ("decide", "explain")}
            rec["error"] = str(exc)
        try:
            rec["value"] = value(form, rules, **kw)
        except ValueError as exc:
            rec["value_error"] = str(exc)
        yield rec


# --- Dice race ---------------------------------------------------------------------------------------------------

def dicerace_records(dice: int, target: int, mode: str, artifacts: Path, n: int, rng: np.random.Generator,
                     built: list[tuple[int, int, str]]) -> Iterator[dict[str, Any]]:
    from lookup.dicerace import decide as race_decide
    from lookup.dicerace import simultaneous_table, strategy

    mixed = np.empty((0, 2), dtype=np.int64)
    if mode == "simultaneous":
        mixed = np.argwhere(np.asarray(simultaneous_table(dice, target, artifacts_dir=artifacts).pure) == 0)
    for _ in range(n):
        if len(mixed) and rng.random() < 0.5:
            my, other = (int(x) for x in mixed[int(rng.integers(len(mixed)))])
        else:
            my, other = int(rng.integers(target)), int(rng.integers(target))
        game = {"dice": dice, "target": target, "mode": mode}
        if rng.integers(DAMAGED) == 0:  # a question to refuse: a score out of range, a game not built, no mode
            kind = int(rng.integers(4))
            if kind == 0:
                my = target if rng.random() < 0.5 else -1
            elif kind == 1:
                other = target + int(rng.integers(5))
            elif kind == 2:
                game["dice"] = next(d for d in range(dice + 1, dice + 100) if (d, target, mode) not in built)
            else:
                game["mode"] = "parallel"
        rec: dict[str, Any] = {"t": "dicerace", **game, "my": my, "other": other}
        kw: dict[str, Any] = {**game, "artifacts_dir": artifacts}
        if game["mode"] == "simultaneous":
            seed = int(rng.integers(0, 2**63 - 1))
            rec["seed"], rec["u"] = seed, float(np.random.default_rng(seed).random())
            kw["rng"] = seed
        try:
            rec["decide"] = race_decide(my, other, **kw)
            kw.pop("rng", None)
            rec["strategy"] = {str(d): p for d, p in strategy(my, other, **kw).items()}
        except ValueError as exc:
            rec = {k: v for k, v in rec.items() if k not in ("decide", "strategy")}
            rec["error"] = str(exc)
        yield rec


# --- the file ------------------------------------------------------------------------------------------------------

def fingerprints(root: Path, rule_sets: list[str], dicerace: bool) -> dict[str, str]:
    """The fingerprint of every artifact the answers were read from (the Node test holds the directory it checks
    against to them: answers from other tables would differ)."""
    names = [f"yahtzee-{r}-{kind}" for r in rule_sets for kind in ("values", "layered", "policy")]
    names += ["dicerace-sequential", "dicerace-simultaneous"] if dicerace else []
    return {name: read_meta(root / f"{name}.zarr")["fingerprint"] for name in names
            if (root / f"{name}.zarr").is_dir()}


def write_golden(artifacts: str | Path, out: str | Path, n: int | None = None, *, seed: int = 0,
                 rule_sets: list[str] | None = None, dicerace: bool = True, label: str | None = None
                 ) -> dict[str, int]:
    """Write the golden file ``out`` for the artifacts directory ``artifacts``: ``n`` situations per table (default
    ``$DICETABLES_JS_PARITY`` or 1,000) of the Yahtzee ``rule_sets`` (default: every one built) and, with
    ``dicerace``, of every built dice-race game in both modes. The header names the directory (``label``, default
    its absolute path; a relative one is taken from the repository's root) and the fingerprints of the artifacts
    read. Returns the situations per table (also in the header)."""
    artifacts = Path(artifacts).resolve()
    n = default_n() if n is None else n
    rng = np.random.default_rng(seed)
    names = yahtzee_rule_sets(artifacts) if rule_sets is None else rule_sets
    games = dicerace_games(artifacts) if dicerace else []
    tables: list[tuple[str, Iterator[dict[str, Any]]]] = []
    for name in names:
        tables.append((f"yahtzee:{name}", yahtzee_records(name, artifacts, n, rng)))
    for dice, target, mode in games:
        tables.append((f"dicerace:d{dice}_n{target}:{mode}",
                       dicerace_records(dice, target, mode, artifacts, n, rng, games)))
    counts = {name: n for name, _ in tables}  # every table has its n situations: written as they come
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=6) as f:
        head = {"golden": 1, "artifacts": label or str(artifacts), "n": n, "seed": seed, "counts": counts,
                "fingerprints": fingerprints(artifacts, names, bool(games))}
        f.write(json.dumps(head) + "\n")
        for name, recs in tables:
            written = 0
            for rec in recs:
                f.write(json.dumps({"table": name, **rec}, separators=(",", ":")) + "\n")
                written += 1
            assert written == counts[name], (name, written)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--artifacts", required=True, help="the artifacts directory")
    parser.add_argument("--out", required=True, help="the golden file to write (.jsonl.gz)")
    parser.add_argument("--n", type=int, default=None, help=f"situations per table (default ${PARITY_ENV} or "
                        f"{DEFAULT_N})")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default=None, help="Yahtzee rule sets, comma-separated (default: every one built)")
    parser.add_argument("--no-dicerace", action="store_true", help="no dice-race situations")
    parser.add_argument("--label", default=None, help="the directory as the header names it (default: its absolute "
                        "path; the committed sample says 'artifacts', the repository's)")
    args = parser.parse_args(argv)
    counts = write_golden(args.artifacts, args.out, args.n, seed=args.seed,
                          rule_sets=args.rules.split(",") if args.rules else None, dicerace=not args.no_dicerace,
                          label=args.label)
    for name, count in counts.items():
        print(f"{name}: {count} situations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
