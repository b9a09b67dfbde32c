"""What every game's routes share: the artifacts directory of the running app, strict request models, and
the plain JSON request/response path of the hot routes."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import orjson
from fastapi import Request, Response
from pydantic import BaseModel, ConfigDict

STATIC = Path(__file__).parent / "static"  # the page: index.html, its style sheets and its modules (js/)


class StrictModel(BaseModel):
    """A request body: JSON integers stay integers (no "3" or 3.0 or true for an int), unknown keys refused."""

    model_config = ConfigDict(strict=True, extra="forbid")


def artifacts_dir(request: Request) -> Path:
    """The artifacts directory the app was started on (a FastAPI dependency)."""
    return request.app.state.artifacts_dir


def exact(p: Fraction) -> dict[str, object]:
    """An exact probability as JSON: the fraction as text and its nearest float."""
    return {"exact": f"{p.numerator}/{p.denominator}", "p": float(p)}


def body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``openapi_extra`` of a route that reads its body itself: the model's schema as its documented request
    body, so /docs shows the same contract as a pydantic-validated route. Nested models are written in place:
    pydantic refers to them as ``#/$defs/NAME``, which inside the OpenAPI document points nowhere."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return inline(defs[ref.removeprefix("#/$defs/")])
            return {k: inline(v) for k, v in node.items()}
        return [inline(v) for v in node] if isinstance(node, list) else node

    return {"requestBody": {"required": True, "content": {"application/json": {"schema": inline(schema)}}}}


async def json_fields(request: Request, required: tuple[str, ...], defaults: Mapping[str, Any]) -> list[Any]:
    """The values of ``required`` then of ``defaults``' keys from a JSON object body, in that order.

    The hot routes skip pydantic (about 10 times the cost of the answer, docs/web.md "Load"); the types are
    then checked by the library itself (lookup.validate: a JSON int must be an int), and this checks the
    shape: an object, no unknown key, no missing one. ValueError (HTTP 422) otherwise.
    """
    try:
        body = orjson.loads(await request.body())
    except orjson.JSONDecodeError as exc:
        raise ValueError(f"the request body is not JSON: {exc}") from None
    if type(body) is not dict:
        raise ValueError(f"the request body must be a JSON object, got {type(body).__name__}")
    for key in body:
        if key not in defaults and key not in required:
            raise ValueError(f"unknown field {key!r}; expected {', '.join((*required, *defaults))}")
    try:
        values = [body[key] for key in required]
    except KeyError as exc:
        raise ValueError(f"missing field {exc.args[0]!r}") from None
    return values + [body.get(key, default) for key, default in defaults.items()]


def json_response(content: Any) -> Response:
    """``content`` encoded by orjson (the hot routes: no response model, no jsonable_encoder pass)."""
    return Response(orjson.dumps(content), media_type="application/json")
