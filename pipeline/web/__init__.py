"""`dicetables serve`: a local web app (JSON API with OpenAPI, and the advisor page) over ``lookup``.

The app is one more caller of ``lookup``: it never imports a kernel or a solver. Each game's routes live
in one small module (``pipeline.web.<game>``) that exposes an ``APIRouter`` called ``router``; adding a
game is that module plus one entry in ``pipeline.web.app.GAME_MODULES``. The page is plain HTML/JS/CSS
under ``static/`` (no CDN, no build step).
"""
