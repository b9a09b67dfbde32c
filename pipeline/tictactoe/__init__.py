"""Tic-tac-toe producers: the exact tables of every reachable position (minimax and best response to each
opponent model), the report (exact match-ups of every player against every model) and the CLI.

May import ``lookup`` (``lookup.tictactoe``, ``lookup.opponents``), ``pipeline.declaration`` (its
``game.py``), ``pipeline.family``, ``pipeline.store``, ``pipeline.reports``, ``pipeline.cli_options`` and
``pipeline.progress``; never another game.
"""
