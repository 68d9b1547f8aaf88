"""Two-player riichi bots (:mod:`policies.riichi2p.bots`): the registry and the dispatcher the
engine calls."""

from .bots import (  # noqa: F401
    BEST, RESTRICTED, P_BASELINE, P_GREEDY, P_RANDOM, P_SEARCH, POLICIES, SCRIPTED, decide)
