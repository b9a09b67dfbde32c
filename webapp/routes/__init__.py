"""The API's routers, one ``APIRouter`` called ``router`` per module: ``games`` (``/api/games``), the routes every
registered game gets from the protocol, and one module per game with routes of its own beyond them (prefix
``/api/<game>``, over ``lookup.<game>``).

``webapp.app`` includes every module here (found with ``pkgutil``); a game's declaration (``pipeline/<game>/game.py``)
names its own module (``web="webapp.routes.<game>"``); tests/web check the two agree.
"""
