"""What every game's routes share: the artifacts directory of the running app, and strict request models."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from fastapi import Request
from pydantic import BaseModel, ConfigDict


class StrictModel(BaseModel):
    """A request body: JSON integers stay integers (no "3" or 3.0 or true for an int), unknown keys refused."""

    model_config = ConfigDict(strict=True, extra="forbid")


def artifacts_dir(request: Request) -> Path:
    """The artifacts directory the app was started on (a FastAPI dependency)."""
    return request.app.state.artifacts_dir


def exact(p: Fraction) -> dict[str, object]:
    """An exact probability as JSON: the fraction as text and its nearest float."""
    return {"exact": f"{p.numerator}/{p.denominator}", "p": float(p)}
