"""momojan-sim: simulation core.

Game-independent pieces (hash tables, RNG, statistics, the CLI) live at this level; everything that
knows MOMOJAN's cards and rules lives in :mod:`simcore.momojan`, so another small-deck variant can
sit beside it as its own sub-package.
"""
