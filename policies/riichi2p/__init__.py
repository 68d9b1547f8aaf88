"""Two-player riichi bots (:mod:`policies.riichi2p.bots`): the registry and the dispatcher the
engine calls."""

from .bots import BEST, RESTRICTED, P_BASELINE, P_GREEDY, P_RANDOM, POLICIES, SCRIPTED, decide  # noqa: F401
