"""Dominoes producers: the compiled engine (``kernels``: ``lookup.dominoes.engine`` under ``numba.njit``,
every game of a pairing in parallel), the experiment artifact (``stage.families``: every player against
every model, both seats, seeded), the report and the ``dicetables dominoes`` commands.

May import ``lookup``, ``pipeline.declaration`` (its ``game.py``), ``pipeline.family``, ``pipeline.progress``,
``pipeline.store``, ``pipeline.reports`` and ``pipeline.cli_options``; never another game nor
``pipeline.registry``.
"""
