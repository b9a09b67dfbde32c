"""A whole Yahtzee game in the terminal with hints (`dicetables yahtzee play`).

The rules live in ``lookup.yahtzee``: the advice is ``decide`` / ``explain``, the sheet's bookkeeping
(allowed boxes, Joker, upper bonus, Yahtzee bonus, forced order) is ``Sheet``; this module only asks,
rolls and prints. Dice are rolled by ``random.Random(seed)``: each roll draws the new faces in die order
with ``randint(1, 6)``, so a seeded game is reproducible.

The game is recorded as it is played (``lookup.yahtzee.record``, docs/yahtzee.md "Game records"): after each
move that differs from optimal play the cost is said at once (``lookup.yahtzee.judge``), the game ends with its
review (``lookup.yahtzee.review``), and ``record`` (a path) receives the record after every turn.
"""

from __future__ import annotations

import os
import random
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import click

from lookup.yahtzee import Sheet, decide, explain, get_rules, judge, parse_record, review, value
from lookup.yahtzee.game_review import ReviewedDecision, points_text


class BadMove(ValueError):
    """A move typed at a prompt that cannot be played (message says why)."""


class TerminalGame:
    """One game from ``sheet`` to the last box. ``enter_dice``: the player types every roll; ``auto``:
    every hint is followed without asking; ``interactive``: a bad move is asked again instead of ending
    the game (a pipe gives no second chance: the next line was written for another prompt)."""

    def __init__(self, rules: str, sheet: Any, *, seed: int | None, enter_dice: bool, auto: bool, top: int,
                 artifacts_dir: Path, interactive: bool, record: Path | None = None) -> None:
        self.rules = get_rules(rules)
        self.sheet = Sheet.parse(sheet, self.rules)
        self.rng = random.Random(seed)
        self.enter_dice, self.auto, self.top = enter_dice, auto, top
        self.root, self.interactive = artifacts_dir, interactive
        if record is not None and (record.is_dir() or not record.parent.is_dir()):
            # Said now, not after a whole game whose record could then not be written.
            raise ValueError(f"--record {record}: not a file in an existing directory")
        self.record_path = record
        start = {k: v for k, v in self.sheet.to_dict().items() if v is not None}
        self.record: dict[str, Any] = {"rules": self.rules.name, "sheet": start, "seed": seed, "turns": []}

    # --- input ---
    def _ask(self, prompt: str, parse: Any, *, always: bool = False) -> Any:
        """``parse(answer)`` of the player's answer ('' follows the hint; with ``auto`` nothing is asked
        unless ``always``); BadMove asks again at a terminal and ends the game otherwise."""
        while True:
            try:
                answer = "" if self.auto and not always else click.prompt(prompt, default="", show_default=False)
            except click.Abort:  # end of the input (a pipe) or Ctrl-C / Ctrl-D at a terminal
                raise ValueError(f"no answer to {prompt.strip()!r}: the input ended before the game did") from None
            try:
                return parse(answer.strip())
            except BadMove as exc:
                if not self.interactive:
                    raise ValueError(f"{exc} (answer {answer.strip()!r} to {prompt.strip()!r})") from None
                click.echo(f"  {exc}")

    def _roll(self, n: int) -> list[int]:
        if not self.enter_dice:
            return [self.rng.randint(1, self.rules.n_faces) for _ in range(n)]

        def parse(answer: str) -> list[int]:
            faces = answer.replace(",", " ").split()
            if len(faces) != n or not all(f.isdecimal() and 1 <= int(f) <= self.rules.n_faces for f in faces):
                raise BadMove(f"give {n} faces from 1 to {self.rules.n_faces}, e.g. {' '.join(['3'] * n)}")
            return [int(f) for f in faces]

        return self._ask(f"  faces of the {n} dice rolled", parse, always=True)

    # --- output ---
    def _options(self, dice: list[int], rerolls: int) -> None:
        options = explain(dice, rerolls, self.sheet, self.rules, artifacts_dir=self.root)
        for o in options[:self.top]:
            click.echo(f"      {o.action:<30} expected final {o.expected_final:9.4f}   regret {o.regret:8.4f}")
        if len(options) > self.top > 0:
            click.echo(f"      ... {len(options) - self.top} more")

    def _sheet_lines(self) -> None:
        sh, r = self.sheet, self.rules
        filled = ", ".join(f"{c} {p}" for c, p in zip(r.categories, sh.boxes, strict=True) if p is not None)
        click.echo(f"  sheet: {filled or '(empty)'}")
        click.echo(f"  upper {sh.upper_total}/{r.upper_threshold} (bonus {sh.upper_bonus}), Yahtzee bonus "
                   f"{sh.yahtzee_bonus}, total {sh.total}")

    # --- the game ---
    def run(self) -> None:
        start = value(self.sheet, self.rules, artifacts_dir=self.root)
        click.echo(f"{self.rules.name}: {self.rules.description}")
        click.echo(f"expected final score under optimal play from here: {start:.4f}")
        turn = sum(b is not None for b in self.sheet.boxes)
        while not self.sheet.finished:
            turn += 1
            click.echo(f"\nturn {turn}/{self.rules.n_boxes}, total {self.sheet.total}")
            self._turn()
            self._sheet_lines()
            self._save()
        click.echo(f"\ngame over: final score {self.sheet.total} (expected {start:.4f} at the start under "
                   f"optimal play)")
        for line in review(self.record, artifacts_dir=self.root).summary():
            click.echo(line)
        if self.record_path is not None:
            click.echo(f"game record: {self.record_path} (review it with `dicetables yahtzee review "
                       f"{self.record_path}`)")

    def _save(self) -> None:
        """The record so far, written to ``record_path`` through a temporary sibling renamed over it: an
        interrupted game leaves the last whole turn's record, never half a file."""
        if self.record_path is None:
            return
        text = parse_record(self.record).to_json()
        tmp = self.record_path.with_name(f".tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}-{self.record_path.name}")
        try:
            tmp.write_text(text)
            os.replace(tmp, self.record_path)
        finally:
            tmp.unlink(missing_ok=True)

    @staticmethod
    def _said(decision: ReviewedDecision) -> None:
        """After a move: what it cost against optimal play, when it cost anything."""
        if decision.points.cost > 0:
            click.echo(f"  that cost {points_text(decision.points.cost)} expected points: best was "
                       f"{decision.points.best_action}")

    def _turn(self) -> None:
        dice = self._roll(self.rules.n_dice)
        rolls, keeps = [list(dice)], []
        for rerolls in (2, 1):
            click.echo(f"  roll: {' '.join(map(str, dice))}   ({rerolls} reroll{'s' if rerolls > 1 else ''} left)")
            advice = decide(dice, rerolls, self.sheet, self.rules, artifacts_dir=self.root)
            click.echo(f"  hint: {advice}")
            self._options(dice, rerolls)
            keep = self._ask("  keep (faces; Enter = hint, all = stop, none = reroll all)",
                             lambda answer, d=dice, a=advice: self._keep(answer, d, a))
            self._said(judge(dice, rerolls, self.sheet, self.rules, keep=keep, artifacts_dir=self.root))
            if len(keep) == len(dice):
                break
            dice = sorted(keep) + self._roll(len(dice) - len(keep))
            keeps.append(sorted(keep))
            rolls.append(list(dice))
        click.echo(f"  final dice: {' '.join(map(str, dice))}")
        advice = decide(dice, 0, self.sheet, self.rules, artifacts_dir=self.root)
        click.echo(f"  hint: {advice}")
        self._options(dice, 0)
        allowed = self.sheet.allowed(dice)

        def parse(answer: str) -> str:
            box = answer or advice.category
            if box not in allowed:
                rule = "forced order" if self.rules.forced_order else "Joker rule"
                raise BadMove(f"box {box!r} is filled, unknown or not allowed ({rule}); allowed: "
                              + ", ".join(f"{c} ({p})" for c, p in allowed.items()))
            return box

        box = self._ask("  box (name; Enter = hint)", parse)
        self._said(judge(dice, 0, self.sheet, self.rules, box=box, artifacts_dir=self.root))
        self.record["turns"].append({"rolls": rolls, "keeps": keeps, "box": box})
        earned = self.sheet.score(box, dice)  # box points plus any upper or Yahtzee bonus this move earned
        points = allowed[box]
        extra = f" (+{earned - points} bonus)" if earned > points else ""
        click.echo(f"  scored {points} in {box}{extra}")

    @staticmethod
    def _keep(answer: str, dice: list[int], advice: Any) -> list[int]:
        """The faces kept: the hint's for '', all of them for 'all', none for 'none', else the faces typed
        (each must be among the dice, as often as typed)."""
        if answer == "":
            return list(advice.keep)
        if answer == "all":
            return list(dice)
        if answer == "none":
            return []
        words = answer.replace(",", " ").split()
        if not all(w.isdecimal() for w in words):
            raise BadMove("type the faces to keep, e.g. 3 3 5, or all / none")
        keep = [int(w) for w in words]
        if Counter(keep) - Counter(dice):
            raise BadMove(f"cannot keep {' '.join(words)}: the dice are {' '.join(map(str, dice))}")
        return keep
