"""Texas hold'em producers: the evaluator tables (``ranking``), the numba enumeration engine (``kernels``,
``engine``), the preflop tables (``preflop``), their families (``stage.families``), the report and the
``dicetables poker`` commands.

May import ``lookup``, ``pipeline.declaration`` (its ``game.py``), ``pipeline.family``, ``pipeline.progress``,
``pipeline.store``, ``pipeline.reports`` and ``pipeline.cli_options``; never another game nor
``pipeline.registry``.
"""
