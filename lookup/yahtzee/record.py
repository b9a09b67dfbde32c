"""A Yahtzee game record: every roll, keep and box of a game, as JSON (format: docs/yahtzee.md, "Game records").

    {"version": 1, "rules": "hasbro",
     "turns": [{"rolls": [[1, 3, 3, 5, 6], [3, 3, 2, 4, 5]], "keeps": [[3, 5, 6]], "box": "small_straight"}, ...]}

``parse_record`` checks everything a game could get wrong, turn by turn, by replaying it on a ``Sheet`` (so the
rules of which box may take which dice, Joker and forced order included, are the sheet's, not written again
here); each failure is a ``ValueError`` that names the turn and the step ("turn 3, keep 1: ..."). It needs no
table: a record is valid or not whatever is built.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lookup.files import parse_json_bounded, read_json_bounded
from lookup.validate import integer, integer_sequence
from lookup.yahtzee.rules import DEFAULT_RULES, Rules, get_rules
from lookup.yahtzee.sheet import BONUS_KEY, Sheet, category_index, parse_dice
from lookup.yahtzee.towin import MAX_TARGET

__all__ = ["RECORD_LIMIT", "RECORD_VERSION", "GameRecord", "RecordedTurn", "load_record", "parse_record"]

RECORD_VERSION = 1
# A whole Scandinavian game written with generous spacing is under 8 KiB: 64 KiB leaves room for notes-free
# indentation and refuses anything that is not a game record before it costs memory (the web route too).
RECORD_LIMIT = 64 << 10
RECORD_DEPTH = 8  # object > turns > turn > rolls > roll: 5 levels; deeper is not a record
ROLLS_PER_TURN = 3  # one roll and two rerolls, every rule set
_KEYS = ("version", "rules", "sheet", "goal", "beat", "seed", "turns")
_TURN_KEYS = ("rolls", "keeps", "box")


@dataclass(frozen=True)
class RecordedTurn:
    """One turn. rolls: the dice on the table after each roll (1 to 3 rolls; pips, the player's order, all
    ``n_dice`` dice: the kept ones and the rerolled ones); keeps: the faces kept before each reroll (sorted;
    one fewer than the rolls: stopping early is recorded by having no further roll); box: where the last
    roll was scored (a box name of the rule set)."""

    rolls: tuple[tuple[int, ...], ...]
    keeps: tuple[tuple[int, ...], ...]
    box: str

    def to_dict(self) -> dict[str, Any]:
        return {"rolls": [list(r) for r in self.rolls], "keeps": [list(k) for k in self.keeps], "box": self.box}


@dataclass(frozen=True)
class GameRecord:
    """A validated game record (``parse_record``).

    sheet: the sheet the record starts from (its filled boxes -> points, plus ``yahtzee_bonus`` when earned;
    empty for a whole game); goal / beat: the final score the player played to reach, or the opponent's final
    score to beat (at most one; None: the game was played for points); seed: the seed that rolled the dice,
    when a program rolled them (information only).
    """

    rules: Rules
    sheet: dict[str, int | None]
    turns: tuple[RecordedTurn, ...]
    goal: int | None = None
    beat: int | None = None
    seed: int | None = None

    def start(self) -> Sheet:
        """A new ``Sheet`` at the record's start (the caller may score on it)."""
        return Sheet.parse(self.sheet, self.rules)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (docs/yahtzee.md, "Game records"); ``parse_record`` of it gives this record back."""
        out: dict[str, Any] = {"version": RECORD_VERSION, "rules": self.rules.name}
        if self.sheet:
            out["sheet"] = dict(self.sheet)
        for key in ("goal", "beat", "seed"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        out["turns"] = [t.to_dict() for t in self.turns]
        return out

    def to_json(self) -> str:
        """The JSON text of ``to_dict``, one turn per line (readable, and a diff shows the turn that changed)."""
        out = self.to_dict()
        turns = out.pop("turns")
        head = json.dumps(out)[:-1]
        lines = ",\n".join(f"  {json.dumps(t)}" for t in turns)
        return f'{head}, "turns": [\n{lines}\n]}}\n' if turns else f'{head}, "turns": []}}\n'


def parse_record(record: Any, rules: str | Rules | None = None) -> GameRecord:
    """``record`` (the parsed JSON: a mapping, or a ``GameRecord``) checked and replayed.

    ``rules``: the rule set when the record names none (default hasbro); a record that names another one is
    refused. ValueError naming the turn and the step for anything a real game could not produce: a roll of the
    wrong number of dice or faces, a keep that is not among the dice rolled (or not on the table after the
    reroll), more than two rerolls, an unknown box, a box filled already or not allowed for those dice (Joker,
    forced order), more turns than open boxes.
    """
    if isinstance(record, GameRecord):
        if rules is not None and get_rules(rules) != record.rules:
            raise ValueError(f"the record is a {record.rules.name!r} game, not {get_rules(rules).name!r}")
        return record
    if not isinstance(record, Mapping):
        raise ValueError(f"a game record must be a JSON object, got {type(record).__name__}")
    unknown = [k for k in record if k not in _KEYS]
    if unknown:
        raise ValueError(f"unknown key {str(unknown[0])[:40]!r} in the game record; keys: {', '.join(_KEYS)}")
    version = record.get("version", RECORD_VERSION)
    if version != RECORD_VERSION or type(version) is not int:
        raise ValueError(f"version {repr(version)[:20]}: this reader knows version {RECORD_VERSION} of the "
                         "record format")
    rule_set = _rules(record.get("rules"), rules)
    try:
        sheet = Sheet.parse(record.get("sheet", {}), rule_set)
    except ValueError as exc:
        raise ValueError(f"sheet: {exc}") from None
    goal, beat = (None if record.get(k) is None else integer(record[k], k, -MAX_TARGET, MAX_TARGET)
                  for k in ("goal", "beat"))
    if goal is not None and beat is not None:
        raise ValueError("give at most one of goal (a final score to reach) and beat (an opponent's final score)")
    seed = None if record.get("seed") is None else integer(record["seed"], "seed", -(1 << 63), (1 << 64) - 1)
    start = {k: v for k, v in sheet.to_dict().items() if v is not None and (v or k != BONUS_KEY)}
    turns = record.get("turns")
    if not isinstance(turns, list):
        raise ValueError(f"turns must be a list (one entry per turn), got {type(turns).__name__}")
    parsed = tuple(_turn(n, turn, sheet) for n, turn in enumerate(turns, start=1))
    return GameRecord(rule_set, start, parsed, goal, beat, seed)


def load_record(path: str | Path, rules: str | Rules | None = None) -> GameRecord:
    """The game record in the JSON file ``path`` (a regular file of at most ``RECORD_LIMIT`` bytes: a FIFO, a
    device or a huge file is refused before it is read), checked by ``parse_record``."""
    try:
        data = read_json_bounded(path, RECORD_LIMIT, f"record {path}", follow_symlinks=True, depth=RECORD_DEPTH)
    except FileNotFoundError:
        raise ValueError(f"record {path}: file not found") from None
    except OSError as exc:  # no permission: named, not a traceback
        raise ValueError(f"record {path}: cannot be read ({exc.strerror})") from None
    return parse_record(data, rules)


def parse_record_text(data: bytes | str, rules: str | Rules | None = None, what: str = "record") -> GameRecord:
    """A record from JSON text (standard input, a request body): at most ``RECORD_LIMIT`` bytes, nesting bounded."""
    if len(data) > RECORD_LIMIT:
        raise ValueError(f"{what}: more than the {RECORD_LIMIT} bytes a game record may take; refused")
    return parse_record(parse_json_bounded(data, what, RECORD_DEPTH), rules)


def _rules(named: Any, given: str | Rules | None) -> Rules:
    if named is None:
        return get_rules(given if given is not None else DEFAULT_RULES)
    if type(named) is not str:
        raise ValueError(f"rules must be the name of a rule set, got {type(named).__name__}")
    out = get_rules(named)
    if given is not None and get_rules(given) != out:
        raise ValueError(f"the record is a {out.name!r} game, not {get_rules(given).name!r}")
    return out


def _turn(n: int, turn: Any, sheet: Sheet) -> RecordedTurn:
    """Turn ``n`` checked, and scored on ``sheet`` (in place)."""
    rules = sheet.rules
    if sheet.finished:
        raise ValueError(f"turn {n}: every box is filled after turn {n - 1}: the record has more turns than "
                         "the sheet has boxes")
    if not isinstance(turn, Mapping):
        raise ValueError(f"turn {n}: must be an object with rolls, keeps and box, got {type(turn).__name__}")
    unknown = [k for k in turn if k not in _TURN_KEYS]
    if unknown:
        raise ValueError(f"turn {n}: unknown key {str(unknown[0])[:40]!r}; keys: {', '.join(_TURN_KEYS)}")
    rolls, keeps = turn.get("rolls"), turn.get("keeps", [])
    if not isinstance(rolls, list) or not 1 <= len(rolls) <= ROLLS_PER_TURN:
        got = f"{len(rolls)} rolls" if isinstance(rolls, list) else type(rolls).__name__
        raise ValueError(f"turn {n}: rolls must be a list of 1 to {ROLLS_PER_TURN} rolls (one roll and at most "
                         f"{ROLLS_PER_TURN - 1} rerolls), got {got}")
    if not isinstance(keeps, list) or len(keeps) != len(rolls) - 1:
        got = f"{len(keeps)} keeps" if isinstance(keeps, list) else type(keeps).__name__
        raise ValueError(f"turn {n}: keeps must be a list with one keep per reroll ({len(rolls) - 1} for "
                         f"{len(rolls)} rolls), got {got}")
    dice = []
    for i, roll in enumerate(rolls, start=1):
        try:
            dice.append(parse_dice(roll, rules))
        except ValueError as exc:
            raise ValueError(f"turn {n}, roll {i}: {exc}") from None
    kept = []
    for i, keep in enumerate(keeps, start=1):
        where = f"turn {n}, keep {i}"
        if not isinstance(keep, list):
            raise ValueError(f"{where}: must be a list of the faces kept, got {type(keep).__name__}")
        if len(keep) >= rules.n_dice:
            raise ValueError(f"{where}: keeps all {rules.n_dice} dice, yet roll {i + 1} follows (a player who "
                             "keeps every die stops rolling: end the rolls there)")
        try:
            faces = integer_sequence(keep, "kept dice", len(keep), 1, rules.n_faces)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        for j, what in ((i, "rolled"), (i + 1, "on the table after the reroll")):
            if Counter(faces) - Counter(dice[j - 1]):
                raise ValueError(f"{where}: keeps {sorted(faces)}, not among the dice {what} "
                                 f"(roll {j}: {list(dice[j - 1])})")
        kept.append(tuple(sorted(faces)))
    box = turn.get("box")
    if type(box) is not str:
        raise ValueError(f"turn {n}, box: must be a box name, got {type(box).__name__}")
    try:
        name = rules.categories[category_index(box[:40], rules)]
        sheet.score(name, dice[-1])  # the sheet's rules: filled, Joker, forced order
    except ValueError as exc:
        raise ValueError(f"turn {n}, box: {exc}") from None
    return RecordedTurn(tuple(dice), tuple(kept), name)
