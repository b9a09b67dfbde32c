"""The ASGI app: the game routers under /api, the page under /, and bad input as HTTP 422."""

from __future__ import annotations

import importlib
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

# One entry per game: a module holding an APIRouter called ``router`` (prefix /api/<game>).
GAME_MODULES = ("pipeline.web.yahtzee", "pipeline.web.dicerace", "pipeline.web.g151")
STATIC = Path(__file__).parent / "static"


async def _bad_input(request: Request, exc: Exception) -> JSONResponse:
    """The library's ValueError (bad input, missing or damaged table) -> 422 with its very message."""
    return JSONResponse(status_code=422, content={"detail": str(exc)})


def create_app(artifacts_dir: str | Path | None = None) -> FastAPI:
    """The app over ``artifacts_dir`` (default: $DICETABLES_ARTIFACTS or the project's artifacts/)."""
    from lookup.store import default_artifacts_dir

    app = FastAPI(title="dicetables", version="1", description="Exact strategy tables for dice games: "
                  "what to do now, and what each option is worth. Bad input gives HTTP 422 with the "
                  "library's message.")
    app.state.artifacts_dir = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    app.add_exception_handler(ValueError, _bad_input)
    for name in GAME_MODULES:
        app.include_router(importlib.import_module(name).router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> RedirectResponse:
        return RedirectResponse("/static/index.html")

    return app
