"""Yahtzee routes: decide / explain / value / coach for every built rule set, the sheet's bookkeeping
(scoring a roll, totals, bonuses, Joker) through ``lookup.yahtzee.Sheet`` so the rules live once, and the review
of a whole game record (``lookup.yahtzee.review``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from lookup.yahtzee import CATEGORIES, RULE_SETS, Sheet, decide, explain, get_rules, review, value
from lookup.yahtzee.coach import coach
from lookup.yahtzee.record import parse_record_text
from lookup.yahtzee.tables import values_name
from webapp.common import StrictModel, artifacts_dir, body_schema, exact, json_fields, json_response

router = APIRouter(prefix="/api/yahtzee", tags=["yahtzee"])
Artifacts = Annotated[Path, Depends(artifacts_dir)]
SheetBody = dict[str, int | None] | list[int | None]


class SheetQuery(StrictModel):
    """sheet: box name -> points or null (plus ``yahtzee_bonus``), or a 13-list in sheet order."""

    sheet: SheetBody = {}


class TurnQuery(SheetQuery):
    """dice: pips in the player's order; rerolls: rerolls left (0, 1 or 2)."""

    dice: list[int]
    rerolls: int


class ScoreQuery(SheetQuery):
    dice: list[int]
    category: str


def _sheet_view(sh: Sheet) -> dict[str, object]:
    """The sheet as the page shows it: boxes, totals and bonuses, as the rule set counts them."""
    return {"sheet": sh.to_dict(), "upper_total": sh.upper_total, "upper_bonus": sh.upper_bonus,
            "yahtzee_bonus": sh.yahtzee_bonus, "total": sh.total, "finished": sh.finished,
            "upper_threshold": sh.rules.upper_threshold}


@router.get("/rules")
async def rule_sets(root: Artifacts) -> list[dict[str, object]]:
    """Every rule set, its description, and whether its value table is built here."""
    return [{"name": name, "description": r.description, "built": (root / f"{values_name(r)}.zarr").exists()}
            for name, r in RULE_SETS.items()]


@router.get("/categories")
async def categories() -> list[str]:
    """The boxes in sheet order."""
    return list(CATEGORIES)


class DecideAnswer(BaseModel):
    """reroll: per input die, true = reroll it (null at 0 rerolls); keep: faces kept, sorted (null at 0);
    category: box to score (null while rerolls are left); expected_final: expected final score of the game
    under optimal play (points on the sheet plus expected remaining points)."""

    rules: str
    dice: list[int]
    rerolls: int
    reroll: list[bool] | None
    keep: list[int] | None
    category: str | None
    expected_final: float
    text: str


_NO_SHEET: dict[str, int | None] = {}
# Rule sets whose tables this process has loaded (a decide succeeded): their decide runs on the event loop.
# Only names that worked are added, so the set stays as small as the list of rule sets.
_WARM: set[str] = set()


@router.post("/{rules}/decide", response_model=DecideAnswer, openapi_extra=body_schema(TurnQuery))
async def decide_route(rules: str, request: Request) -> Response:
    """The optimal move: which dice to reroll (input order) or which box to score, and the expected final
    score of the game under optimal play. The hot route: body read by ``json_fields``, answer by orjson."""
    dice, rerolls, sheet = await json_fields(request, ("dice", "rerolls"), {"sheet": _NO_SHEET})
    root = request.app.state.artifacts_dir
    if rules in _WARM:  # ~10 us to ~1 ms (a new sheet state): cheaper inline than a thread hop
        d = decide(dice, rerolls, sheet, rules, artifacts_dir=root)
    else:  # the first decide of a rule set loads its tables (~0.2 s): off the event loop
        d = await run_in_threadpool(decide, dice, rerolls, sheet, rules, artifacts_dir=root)
        _WARM.add(rules)
    return json_response(d.as_dict())


@router.post("/{rules}/explain")
def explain_route(rules: str, q: TurnQuery, root: Artifacts) -> list[dict[str, object]]:
    """Every legal option, best first: expected final score and regret (points below the best)."""
    # Encoded here, in the threadpool (orjson): FastAPI would encode the list on the event loop.
    return json_response([o.as_dict() for o in explain(q.dice, q.rerolls, q.sheet, rules,  # type: ignore[return-value]
                                                       artifacts_dir=root)])


@router.post("/{rules}/value")
def value_route(rules: str, q: SheetQuery, root: Artifacts) -> dict[str, float]:
    """Expected final score under optimal play from the start of the next turn on this sheet."""
    return {"value": value(q.sheet, rules, artifacts_dir=root)}


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


class TurnRecord(StrictModel):
    """One turn: the dice after each roll (1 to 3 rolls, all the dice), the faces kept before each reroll, the box."""

    rolls: list[list[int]]
    keeps: list[list[int]] = []
    box: str


class GameRecordBody(StrictModel):
    """A game record (docs/yahtzee.md, "Game records"); only documents the body: ``lookup.yahtzee.record``
    checks it, naming the turn and step of anything wrong."""

    version: int = 1
    rules: str = "hasbro"
    sheet: SheetBody = {}
    goal: int | None = None
    beat: int | None = None
    seed: int | None = None
    turns: list[TurnRecord]


_RECORD_SCHEMA = body_schema(GameRecordBody)


@router.post("/review", openapi_extra=_RECORD_SCHEMA)
async def review_route(request: Request, top: Annotated[int, Query(ge=0, le=100)] = 5) -> Response:
    """The review of a game record (the body, at most 64 KiB): every decision's cost against optimal play in
    expected final points (and in probability when the record plays to a goal or against an opponent's score
    and that table is built), the total, luck, and the ``top`` costliest decisions (``Review.as_dict``)."""
    # The body is bounded before it is read (webapp.limits: MAX_BODY, 64 KiB, = RECORD_LIMIT); parse_record_text
    # checks the record's own limit again for callers outside the web app.
    record = parse_record_text(await request.body(), what="the request body")
    # A review reads a dozen turns from the tables (a few hundred ms at worst): off the event loop.
    result = await run_in_threadpool(review, record, artifacts_dir=request.app.state.artifacts_dir)
    return json_response(result.as_dict(top))
