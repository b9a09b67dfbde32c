"""Producers of the 151 tables: numba kernels, the exact solitaire and two-player solves, the notebook's
strategies evaluated exactly, simulation checks, the table families (``stage.families``), the report and
the ``dicetables g151`` commands.

May import ``lookup``, ``pipeline.declaration`` (its ``game.py``), ``pipeline.family``, ``pipeline.progress``,
``pipeline.store``, ``pipeline.reports`` and ``pipeline.cli_options``; never another game nor
``pipeline.registry``.
"""
