"""The Yahtzee strategy lab: players (tables, esperance, decision_une, perturbation, your own), the compiled
game engine and its seeded dice streams, matches, tournaments (local or Dask), statistics of simulated games,
Perturbation's tuned weights (``stage.families``), the game's report (the tournament) and the lab's commands
(``cli``, standing in ``dicetables yahtzee``).

May import ``lookup``, the solver ``pipeline.yahtzee``, ``pipeline.declaration`` (its ``game.py``),
``pipeline.family``, ``pipeline.progress``, ``pipeline.store``, ``pipeline.reports`` and
``pipeline.cli_options``; the solver never imports the lab, and nothing here imports ``pipeline.registry``.
"""
