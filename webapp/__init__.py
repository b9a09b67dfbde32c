"""The web app (``dicetables serve``): a JSON API with OpenAPI, and the advisor page, over ``lookup``.

The app is one more caller of ``lookup``: it imports ``lookup`` and the server packages only, never
``pipeline`` (tests/test_imports.py). Each game's routes live in one small module, ``webapp.routes.<game>``,
exposing an ``APIRouter`` called ``router``; ``webapp.app`` finds them itself, so adding a game's routes is that
module (and ``web=`` in the game's declaration). The page is plain HTML/JS/CSS under ``static/`` (no CDN, no
build step).
"""
