"""P-style's bots (:mod:`policies.ptrump.bots`): the registry and the dispatcher the engine
calls."""

from .bots import (  # noqa: F401
    BEST, RESTRICTED,
    MAX_PARAMS, P_BASELINE, P_GREEDY, P_RANDOM, P_SEARCH, POLICIES, SCRIPTED, decide,
)
