"""Every error of the API in one shape: ``application/problem+json`` (RFC 9457) with ``type``, ``title``,
``status`` and ``detail``, ``detail`` always one string of at most ``DETAIL_LIMIT`` characters.

What a detail may say: the library's message for bad input (it names the argument and shows at most a
short cut of the value, ``lookup.validate.shown``); for a table that is not built, the library's public
wording (``NotBuiltError.public``: no server path, no build instruction); for a damaged or unreadable
table, a fixed sentence (the library's message, which names files, goes to the server log only). The
route that failed, the request body and server paths are never echoed whole.
"""

from __future__ import annotations

import json
import logging
from http import HTTPStatus
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.responses import Response

from lookup.errors import ArtifactError, NotBuiltError
from lookup.words import counted

MEDIA_TYPE = "application/problem+json"
DETAIL_LIMIT = 300  # characters of a detail; anything longer is cut (a message that quotes input stays short)
LOC_LIMIT = 40  # characters of one part of a validation error's location (a sheet key is user input)
ERRORS_SHOWN = 3  # validation errors worded in a detail; the count of the others is said
UNREADABLE = "the tables this answer needs cannot be read on this server"
FASTAPI_BODY_ERROR = "There was an error parsing the body"  # FastAPI's 400 for a body json.loads refuses

log = logging.getLogger("dicetables.web")


def cut(text: str, limit: int = DETAIL_LIMIT) -> str:
    """``text`` when short, else its first ``limit`` characters and a mark that it was cut."""
    return text if len(text) <= limit else f"{text[:limit]}... (cut)"


def problem(status: int, detail: str, headers: dict[str, str] | None = None) -> Response:
    """The one error response: ``{"type", "title", "status", "detail"}`` as ``application/problem+json``.

    ``type`` is ``about:blank`` (RFC 9457: the status says what kind of problem it is) and ``title`` the
    status's reason phrase; ``detail`` is cut to ``DETAIL_LIMIT`` characters. Encoded with the standard
    library's json (ASCII only: no surrogate a client sent can break the encoding).
    """
    body = {"type": "about:blank", "title": HTTPStatus(status).phrase, "status": status, "detail": cut(str(detail))}
    return Response(json.dumps(body), status_code=status, media_type=MEDIA_TYPE, headers=headers)


def public_message(exc: ValueError) -> str:
    """What the web answers for a library ``ValueError``: its message for bad input, ``public`` for a table
    that is not built, a fixed sentence for any other artifact problem (logged with its message)."""
    if isinstance(exc, NotBuiltError):
        return exc.public
    if isinstance(exc, ArtifactError):
        log.error("artifact problem: %s", exc)
        return UNREADABLE
    return str(exc)


async def bad_input(request: Request, exc: Exception) -> Response:
    """A library ValueError -> 422 with ``public_message``."""
    assert isinstance(exc, ValueError)
    return problem(422, public_message(exc))


def _loc(loc: tuple[Any, ...]) -> str:
    """A pydantic error location as ``body.sheet.ones``, each part cut short (dict keys are user input)."""
    return ".".join(cut(str(part), LOC_LIMIT) for part in loc)


async def invalid_request(request: Request, exc: Exception) -> Response:
    """Pydantic's refusal of a request -> 422 with its errors worded in one string (location: message);
    the refused values themselves are not repeated."""
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    words = [f"{_loc(e.get('loc', ()))}: {e.get('msg', 'invalid')}" for e in errors[:ERRORS_SHOWN]]
    if len(errors) > ERRORS_SHOWN:
        words.append(f"and {counted(len(errors) - ERRORS_SHOWN, 'more error')}")
    return problem(422, "; ".join(words) or "invalid request")


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's and FastAPI's HTTPException (404, 405, a body json.loads refuses) in the problem shape."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 400 and exc.detail == FASTAPI_BODY_ERROR:
        # A body the standard json module refuses outright (an integer of more than 4,300 digits): not JSON
        # this API reads, the same 422 as any other unreadable body.
        return problem(422, "the request body is not JSON this API can read")
    detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
    return problem(exc.status_code, detail, headers=getattr(exc, "headers", None))


async def too_deep(request: Request, exc: Exception) -> Response:
    """A body nested deeper than the JSON parser recurses (``[[[[...``): bad input, not a crash."""
    return problem(422, "the request body nests arrays or objects too deeply")


async def internal_error(request: Request, exc: Exception) -> Response:
    """Anything else: 500 in the same shape, with nothing of the exception (it goes to the server log)."""
    log.exception("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem(500, "internal error")


HANDLERS: dict[type[Exception] | int, Any] = {
    ValueError: bad_input, RequestValidationError: invalid_request, HTTPException: http_error,
    RecursionError: too_deep, Exception: internal_error,
}
