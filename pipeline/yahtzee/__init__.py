"""The Yahtzee solver: numba kernels, the exact solve (values, policy, exact statistics of optimal play), the
exact law of the final score under a policy (``distribution``),
its table families (``stage.families``) and the ``dicetables yahtzee`` advice commands. The game's report
(the strategy tournament) belongs to the strategy lab, ``pipeline.yahtzee_lab``.

May import ``lookup``, ``pipeline.declaration`` (its ``game.py``), ``pipeline.family``, ``pipeline.progress``,
``pipeline.store`` and ``pipeline.cli_options``; never the strategy lab, another game, nor
``pipeline.registry``.
"""
