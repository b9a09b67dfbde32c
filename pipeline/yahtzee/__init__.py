"""The Yahtzee solver: numba kernels, the exact solve (values, policy, exact statistics of optimal play),
its table families (``stage.families``) and the ``dicetables yahtzee`` advice commands.

May import ``lookup``, ``pipeline.family``, ``pipeline.progress``, ``pipeline.store`` and
``pipeline.cli_options``; never the strategy lab (``pipeline.yahtzee_lab``) nor ``pipeline.registry``.
"""
