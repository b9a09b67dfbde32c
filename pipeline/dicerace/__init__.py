"""Producers of the dice-race tables: roll probabilities, the sequential, one-shot and simultaneous games
(numba kernels, LP), exact match-ups, simulation, the table families (``stage.families``), the report and
the ``dicetables dicerace`` commands.

May import ``lookup``, ``pipeline.declaration`` (its ``game.py``), ``pipeline.family``, ``pipeline.progress``,
``pipeline.store``, ``pipeline.reports`` and ``pipeline.cli_options``; never another game nor
``pipeline.registry``.
"""
