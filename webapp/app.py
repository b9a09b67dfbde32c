"""The ASGI app: the game routers under /api, the page under /, the API's documentation under /docs (served
whole by the app: no CDN), every error as ``application/problem+json`` (``webapp.problems``), every request
within ``webapp.limits``."""

from __future__ import annotations

import importlib
import importlib.resources
import pkgutil
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from webapp.common import STATIC
from webapp.limits import RequestLimits
from webapp.problems import HANDLERS, bad_input

FAVICON = STATIC / "favicon.svg"
# Swagger UI's script and style sheet, from the pinned package fastapi-offline (the `serve` extra), which ships
# them for this purpose: /docs works with no network (FastAPI's default page loads them from a CDN).
DOCS_ASSETS = Path(str(importlib.resources.files("fastapi_offline") / "static"))
DOCS_ASSETS_URL = "/docs-assets"
SWITCH_INTERVAL = 0.001  # seconds a thread keeps the GIL when another wants it (Python's default: 0.005)


def game_modules() -> list[str]:
    """Every game's routes: the modules of ``webapp.routes``, each holding an APIRouter called ``router``."""
    from webapp import routes

    return [f"webapp.routes.{m.name}" for m in sorted(pkgutil.iter_modules(routes.__path__), key=lambda m: m.name)
            if not m.ispkg]


class HotRoutes:
    """ASGI middleware: ``POST /api/yahtzee/{rules}/decide`` goes straight to its route function, skipping
    FastAPI's route matching and dependency solving (about half of the route's cost in process, docs/web.md
    "Load"). The FastAPI route is the same function: it is what OpenAPI documents."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.decide = importlib.import_module("webapp.routes.yahtzee").decide_route

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            parts = scope["path"].split("/")
            if len(parts) == 5 and parts[4] == "decide" and parts[2] == "yahtzee" and parts[1] == "api" and parts[3]:
                request = Request(scope, receive)
                try:
                    response = await self.decide(parts[3], request)
                except ValueError as exc:
                    response = await bad_input(request, exc)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(artifacts_dir: str | Path | None = None) -> FastAPI:
    """The app over ``artifacts_dir`` (default: $DICETABLES_ARTIFACTS or the project's artifacts/). A bad
    ``$DICETABLES_*`` is a ValueError here, at start (``lookup.environment``), not an error on every request."""
    import sys

    from lookup.environment import check_environment
    from lookup.store import default_artifacts_dir

    check_environment()

    # A CPU-bound route in the threadpool (coach ~60 ms) holds the GIL for the whole switch interval (5 ms by
    # default) each time the event loop asks for it; 1 ms keeps a decide beside it within a few ms.
    sys.setswitchinterval(SWITCH_INTERVAL)

    # /docs is served below (docs_url=None: FastAPI's own page loads Swagger UI from a CDN); no ReDoc page.
    app = FastAPI(docs_url=None, redoc_url=None, title="dicetables", version="1",
                  description="Exact strategy tables for dice games: "
                  "what to do now, and what each option is worth. Every error is application/problem+json "
                  "(type, title, status, detail: one string); bad input is HTTP 422 with the library's "
                  "message; bodies are JSON of at most 64 KiB (docs/web.md).")
    app.state.artifacts_dir = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    for exc_class, handler in HANDLERS.items():
        app.add_exception_handler(exc_class, handler)
    # The last added is the outermost: the limits apply before anything, the hot route included.
    app.add_middleware(HotRoutes)
    app.add_middleware(RequestLimits)
    for name in game_modules():
        app.include_router(importlib.import_module(name).router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount(DOCS_ASSETS_URL, StaticFiles(directory=DOCS_ASSETS), name="docs-assets")

    @app.get("/", include_in_schema=False)
    async def index() -> RedirectResponse:
        return RedirectResponse("/static/index.html")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        """Swagger UI over /openapi.json, every asset from this server (no validator badge: it calls out)."""
        return get_swagger_ui_html(openapi_url=app.openapi_url or "/openapi.json", title="dicetables API",
                                   swagger_js_url=f"{DOCS_ASSETS_URL}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{DOCS_ASSETS_URL}/swagger-ui.css",
                                   swagger_favicon_url="/static/favicon.svg",
                                   swagger_ui_parameters={"validatorUrl": None})

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        """The page's icon where browsers look for it by default (an SVG; the page links it by name too)."""
        return FileResponse(FAVICON, media_type="image/svg+xml")

    return app
