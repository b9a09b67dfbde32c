"""The Yahtzee strategy lab: players (tables, esperance, decision_une, perturbation, your own), the compiled
game engine and its seeded dice streams, matches, tournaments (local or Dask), statistics, Perturbation's
tuned weights, and the tournament report.

May import ``lookup``, ``pipeline.family``, ``pipeline.progress``, ``pipeline.store`` and the solver
``pipeline.yahtzee``; the solver never imports the lab, and nothing here imports ``pipeline.registry``.
"""
