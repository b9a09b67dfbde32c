"""Texas hold'em producers: the evaluator tables (``ranking``), the numba enumeration engine (``kernels``,
``engine``), the preflop tables (``preflop``), their stage (``stage``), report and CLI.

Imports lookup (rules, cards, tables) and the pipeline's store and families; never the other way round.
"""
