"""One module per game: an ``APIRouter`` called ``router`` (prefix ``/api/<game>``) over ``lookup.<game>``.

``webapp.app`` includes every module here (found with ``pkgutil``); the game's declaration
(``pipeline/<game>/game.py``) names its module (``web="webapp.routes.<game>"``); tests/web check the two agree.
"""
