"""Yahtzee routes: decide / explain / value / coach for every built rule set (decide and explain also play to
win: ``goal`` or ``beat``, from the play-to-win tables; ``opponent``, an expected-score player's sheet; or
``opponents``, the sheets of players who all play to win a forced-order game: the party tables), the sheet's
bookkeeping (scoring a roll, totals, bonuses, Joker) through ``lookup.yahtzee.Sheet`` so the rules live once, and
the exact law of the final score (``lookup.yahtzee.distribution``). Records, the cost of one decision and the
review of a game are every game's (``webapp.routes.games``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from lookup.errors import NotBuiltError
from lookup.store import artifact_exists, artifact_path
from lookup.yahtzee import RULE_SETS, Sheet, chance, decide, distribution, explain, value
from lookup.yahtzee.coach import coach
from lookup.yahtzee.duel import DuelDecision, win_probability
from lookup.yahtzee.party import load_party
from lookup.yahtzee.party_states import PARTY_PLAYERS, party_name
from lookup.yahtzee.rules import CATEGORIES, Rules, get_rules
from lookup.yahtzee.tables import built_value_table, distribution_name, load_tables
from lookup.yahtzee.towin import WinDecision, load_towin, towin_name
from webapp.common import StrictModel, artifacts_dir, body_schema, exact, json_fields, json_response

router = APIRouter(prefix="/api/yahtzee", tags=["yahtzee"])
Artifacts = Annotated[Path, Depends(artifacts_dir)]
SheetBody = dict[str, int | None] | list[int | None]


class SheetQuery(StrictModel):
    """sheet: box name -> points or null (plus ``yahtzee_bonus``), or a list in sheet order (one entry per box)."""

    sheet: SheetBody = {}


class TurnQuery(SheetQuery):
    """dice: pips in the player's order (the rule set's ``n_dice`` of them); rerolls: rerolls left (0, 1 or 2)."""

    dice: list[int]
    rerolls: int


class ObjectiveQuery(StrictModel):
    """goal: a final score to reach, or beat: an opponent's known final score, or opponent: the turn-start
    sheet of an opponent who plays for expected score (maximise P(win) + P(tie) / 2 against it); none =
    maximise the expected final score (the play-to-win tables of the rule set answer the other three)."""

    goal: int | None = None
    beat: int | None = None
    opponent: SheetBody | None = None


class DuelQuery(StrictModel):
    """opponents: the sheets of the other players of a forced-order game in which every player plays to win
    (one sheet: two players; two: three players, in turn order after the mover), instead of goal, beat or
    opponent."""

    opponents: list[SheetBody] | None = None


class WinTurnQuery(TurnQuery, ObjectiveQuery, DuelQuery):
    """A turn (dice, rerolls, sheet) and the objective."""


class ChanceQuery(SheetQuery, ObjectiveQuery, DuelQuery):
    """A turn-start sheet and the objective (goal, beat, opponent or opponents, exactly one)."""


class ScoreQuery(SheetQuery):
    dice: list[int]
    category: str


def _sheet_view(sh: Sheet) -> dict[str, object]:
    """The sheet as the page shows it: boxes, totals and bonuses, as the rule set counts them."""
    return {"sheet": sh.to_dict(), "upper_total": sh.upper_total, "upper_bonus": sh.upper_bonus,
            "yahtzee_bonus": sh.yahtzee_bonus, "total": sh.total, "finished": sh.finished,
            "upper_threshold": sh.rules.upper_threshold}


def _built(root: Path, name: str) -> bool:
    return artifact_exists(artifact_path(root, name))


def _rule_set(root: Path, r: Rules) -> dict[str, object]:
    """One rule set as the page draws its sheet: the number of dice (``n_dice``: 5, or 6 in Maxi Yatzy), the
    boxes in sheet order (the first ``upper_boxes`` are the upper section), the upper threshold and bonus
    (points), the Yahtzee bonus (points per further Yahtzee; 0 = none), the Joker rule, forced order; what is
    built here: a value table (``built``: the dense one or the layered one of Maxi Yatzy; the expected-score
    advice), the score distribution, and the play-to-win objectives (``goal``: reach a final score, ``win``:
    beat an opponent's final score, ``opponent``: beat an opponent who plays for expected score, from its
    sheet: the ``win`` and ``law`` tables); ``players``: the numbers of players (2, 3) whose forced-order game
    in which every player plays to win is built (the ``opponents`` objective, with one sheet fewer);
    ``unavailable``: each objective of the page not offered here, with why (``_unavailable``)."""
    return {"unavailable": _unavailable(root, r), "name": r.name, "description": r.description, "n_dice": r.n_dice,
            "built": built_value_table(r, root) is not None, "boxes": list(r.categories), "upper_boxes": r.n_faces,
            "upper_threshold": r.upper_threshold, "upper_bonus": r.upper_bonus,
            "yahtzee_bonus": r.yahtzee_bonus if r.yahtzee_index >= 0 else 0, "joker": r.joker,
            "forced_order": r.forced_order,
            "distribution": _built(root, distribution_name(r)),
            "objectives": [o for o in ("goal", "win") if _built(root, towin_name(r, o))]
            + (["opponent"] if all(_built(root, towin_name(r, o)) for o in ("win", "law")) else []),
            "players": [n for n in PARTY_PLAYERS if r.forced_order and _built(root, party_name(r, n))]}


def _unavailable(root: Path, r: Rules) -> dict[str, str]:
    """The page's objectives that ``r`` cannot be played for here (``expected``, ``goal``, ``beat``, ``opponent``,
    ``opponents`` two players, ``opponents3`` three), each with the reason: the library's own not-built message
    (``NotBuiltError.public`` and its build step ``how``: the command, the params.yaml change, the cost), or why the
    objective does not apply. Only a missing table's loader is called: it raises before reading anything."""
    tables = {"expected": (built_value_table(r, root) is not None, lambda: load_tables(r, root)),
              "goal": (_built(root, towin_name(r, "goal")), lambda: load_towin(r, "goal", root)),
              "beat": (_built(root, towin_name(r, "win")), lambda: load_towin(r, "win", root)),
              "opponent": (all(_built(root, towin_name(r, o)) for o in ("win", "law")),
                           lambda: [load_towin(r, o, root) for o in ("win", "law")])}
    if r.forced_order:
        for n, kind in zip(PARTY_PLAYERS, ("opponents", "opponents3"), strict=True):
            tables[kind] = (_built(root, party_name(r, n)), lambda n=n: load_party(r, n, root))
    out = {kind: "forced order only: a free-order game of players who all play to win is not solved"
           for kind in ("opponents", "opponents3") if not r.forced_order}
    for kind, (built, load) in tables.items():
        if not built:
            try:
                load()
                out[kind] = "not built on this server"  # (a table published between the two looks)
            except NotBuiltError as e:
                out[kind] = f"{e.public}; {e.how}" if e.how else e.public
            except ValueError as e:  # a rule set play does not take (saved rolls): the library says why
                out[kind] = str(e)
    return out


@router.get("/rules")
async def rule_sets(root: Artifacts) -> list[dict[str, object]]:
    """Every rule set: its description, its sheet (boxes, upper bonus, Yahtzee bonus, Joker, forced order) and
    which of its tables are built here."""
    return [_rule_set(root, r) for r in RULE_SETS.values()]


@router.get("/categories")
async def categories() -> list[str]:
    """The 13 boxes of the American sheet (hasbro and its variants), in sheet order; every rule set's own
    boxes: ``GET /api/yahtzee/rules``."""
    return list(CATEGORIES)


class DecideAnswer(BaseModel):
    """reroll: per input die, true = reroll it (null at 0 rerolls); keep: faces kept, sorted (null at 0);
    category: box to score (null while rerolls are left); expected_final: expected final score of the game
    under optimal play (points on the sheet plus expected remaining points). Playing to win (goal or beat
    given), instead of expected_final: objective ("goal" or "win"), target (the goal or the opponent's score),
    needed (target minus the sheet's total) and probability (of reaching the goal / of winning, ties half,
    under the best play from here). Against an expected-score opponent (opponent given): objective
    "opponent", target the opponent's points now, needed its lead, probability P(win) + P(tie) / 2. Against
    players who all play to win (opponents given): objective "opponents", players (2 or 3), seat (0: the mover
    plays first at this box, 1 second, 2 third) and probability (the mover's share: P(win) + P(tie) / 2 with
    two players; a tie of m winners counts 1/m)."""

    rules: str
    dice: list[int]
    rerolls: int
    reroll: list[bool] | None
    keep: list[int] | None
    category: str | None
    expected_final: float | None = None
    objective: str | None = None
    target: int | None = None
    needed: int | None = None
    probability: float | None = None
    players: int | None = None
    seat: int | None = None
    text: str


def _win_move(d: WinDecision | DuelDecision) -> dict[str, object]:
    """The fields of ``DecideAnswer`` every decision played to win has: the move, its probability, its text."""
    return {"rules": d.rules, "dice": list(d.dice), "rerolls": d.rerolls,
            "reroll": None if d.reroll is None else list(d.reroll), "keep": None if d.keep is None else list(d.keep),
            "category": d.category, "probability": d.probability, "text": str(d)}


def _win_decision(d: WinDecision) -> dict[str, object]:
    """A ``lookup.yahtzee.towin.WinDecision`` in the JSON form of ``DecideAnswer``."""
    return {**_win_move(d), "objective": d.objective, "target": d.target, "needed": d.needed}


def _duel_decision(d: DuelDecision, players: int) -> dict[str, object]:
    """A ``lookup.yahtzee.DuelDecision`` among ``players`` players in the JSON form of ``DecideAnswer``."""
    return {**_win_move(d), "objective": "opponents", "players": players, "seat": d.seat}


_NO_SHEET: dict[str, int | None] = {}
# Rule sets whose tables this process has loaded (a decide succeeded): their decide runs on the event loop.
# Only names that worked are added, so the set stays as small as the list of rule sets.
_WARM: set[str] = set()


@router.post("/{rules}/decide", response_model=DecideAnswer, openapi_extra=body_schema(WinTurnQuery))
async def decide_route(rules: str, request: Request) -> Response:
    """The optimal move: which dice to reroll (input order) or which box to score, and the expected final
    score of the game under optimal play; with ``goal`` or ``beat``, the move of the best probability of
    reaching the goal / of winning, and that probability; with ``opponent`` or ``opponents``, of winning the
    game against them. The hot route: body read by ``json_fields``, answer by orjson."""
    dice, rerolls, sheet, goal, beat, opponent, opponents = await json_fields(
        request, ("dice", "rerolls"),
        {"sheet": _NO_SHEET, "goal": None, "beat": None, "opponent": None, "opponents": None})
    root = request.app.state.artifacts_dir
    if opponents is not None:  # every player plays to win (the library checks the sheets and the objective)
        d = await run_in_threadpool(decide, dice, rerolls, sheet, rules, goal=goal, beat=beat, opponent=opponent,
                                    opponents=opponents, artifacts_dir=root)
        return json_response(_duel_decision(d, len(opponents) + 1))
    if goal is not None or beat is not None or opponent is not None:  # play to win: table reads, off the loop
        d = await run_in_threadpool(decide, dice, rerolls, sheet, rules, goal=goal, beat=beat, opponent=opponent,
                                    artifacts_dir=root)
        return json_response(_win_decision(d))
    if rules in _WARM:  # ~10 us to ~1 ms (a new sheet state): cheaper inline than a thread hop
        d = decide(dice, rerolls, sheet, rules, artifacts_dir=root)
    else:  # the first decide of a rule set loads its tables (~0.2 s): off the event loop
        d = await run_in_threadpool(decide, dice, rerolls, sheet, rules, artifacts_dir=root)
        _WARM.add(rules)
    return json_response(d.as_dict())


@router.post("/{rules}/explain")
def explain_route(rules: str, q: WinTurnQuery, root: Artifacts) -> list[dict[str, object]]:
    """Every legal option, best first: expected final score and regret (points below the best); with ``goal``
    or ``beat``: probability (of reaching the goal / of winning, ties half) and regret (probability below the
    best) instead of expected_final; with ``opponent``: P(win) + P(tie) / 2 against that expected-score player;
    with ``opponents``: the mover's share of the game when every player plays to win."""
    options = explain(q.dice, q.rerolls, q.sheet, rules, goal=q.goal, beat=q.beat, opponent=q.opponent,
                      opponents=q.opponents, artifacts_dir=root)
    if q.goal is None and q.beat is None and q.opponent is None and q.opponents is None:
        answer = [o.as_dict() for o in options]
    else:
        answer = [{"action": o.action, "keep": None if o.keep is None else list(o.keep), "category": o.category,
                   "probability": o.probability, "regret": o.regret} for o in options]
    # Encoded here, in the threadpool (orjson): FastAPI would encode the list on the event loop.
    return json_response(answer)  # type: ignore[return-value]


@router.post("/{rules}/value")
def value_route(rules: str, q: SheetQuery, root: Artifacts) -> dict[str, float]:
    """Expected final score under optimal play from the start of the next turn on this sheet."""
    return {"value": value(q.sheet, rules, artifacts_dir=root)}


@router.post("/{rules}/chance")
def chance_route(rules: str, q: ChanceQuery, root: Artifacts) -> dict[str, float]:
    """The best probability, from the start of the next turn on this sheet, of a final score >= ``goal`` (or
    of beating ``beat``, ties half; or P(win) + P(tie) / 2 against the expected-score ``opponent``): the
    play-to-win tables. With ``opponents`` (every player plays to win, forced order; the mover is the player
    of ``sheet``): probability = the mover's share (P(win) + P(tie) / 2 with two players; a tie of m winners
    counts 1/m), and win, tie, lose = ``lookup.yahtzee.win_probability`` (P(sole winner), P(tied for the
    highest total), P(lost))."""
    if q.opponents is not None:
        share = chance(q.sheet, rules, goal=q.goal, beat=q.beat, opponent=q.opponent, opponents=q.opponents,
                       artifacts_dir=root)
        win, tie, lose = win_probability(q.sheet, rules, opponents=q.opponents, artifacts_dir=root)
        return {"probability": share, "win": win, "tie": tie, "lose": lose}
    return {"probability": chance(q.sheet, rules, goal=q.goal, beat=q.beat, opponent=q.opponent,
                                  artifacts_dir=root)}


@router.get("/{rules}/distribution")
def distribution_route(rules: str, root: Artifacts) -> Response:
    """The exact law of the final score of a game from its start under optimal (expected-score) play:
    ``pmf[x]`` = P(final score = x points) for x = 0..len-1 (trailing zeros cut), mean and sd (points),
    median and quartiles (the smallest x with P(score <= x) >= q), p_upper_bonus (probability the upper bonus
    is earned)."""
    law = distribution(get_rules(rules), artifacts_dir=root)  # a law not built: the library's NotBuiltError
    nonzero = law.pmf.nonzero()[0]
    end = int(nonzero[-1]) + 1 if len(nonzero) else 0
    return json_response({"rules": law.rules.name, "pmf": law.pmf[:end].tolist(), "mean": law.mean,
                          "sd": law.sd, "median": law.median, "quartiles": list(law.quartiles),
                          "p_upper_bonus": law.p_upper_bonus})


@router.post("/{rules}/coach")
def coach_route(rules: str, q: TurnQuery, root: Artifacts) -> list[dict[str, object]]:
    """For each keep (1 or 2 rerolls left): exact probability of ending the turn with each box made
    (the final dice score > 0 there) and of optimal play scoring it there."""
    # Encoded here, in the threadpool (orjson): FastAPI's encoder took ~4 ms of the event loop per answer.
    return json_response([{"keep": list(k.keep), "expected_final": k.expected_final,  # type: ignore[return-value]
                           "regret": k.regret, "made": {c: exact(p) for c, p in k.made.items()},
                           "scored": {c: exact(p) for c, p in k.scored.items()}}
                          for k in coach(q.dice, q.rerolls, q.sheet, rules, artifacts_dir=root)])


@router.post("/{rules}/sheet")
def sheet_route(rules: str, q: SheetQuery) -> dict[str, object]:
    """The validated sheet with its totals, upper bonus and Yahtzee bonus."""
    return _sheet_view(Sheet.parse(q.sheet, get_rules(rules)))


@router.post("/{rules}/allowed")
def allowed_route(rules: str, q: TurnQuery) -> dict[str, int]:
    """Boxes the final dice may go in (Joker rules applied), with their points."""
    return Sheet.parse(q.sheet, get_rules(rules)).allowed(q.dice)


@router.post("/{rules}/score")
def score_route(rules: str, q: ScoreQuery) -> dict[str, object]:
    """Score the dice in a box: the new sheet (bonuses and Joker applied) and the points earned."""
    sh = Sheet.parse(q.sheet, get_rules(rules))
    points = sh.score(q.category, q.dice)
    return {"points": points, **_sheet_view(sh)}
