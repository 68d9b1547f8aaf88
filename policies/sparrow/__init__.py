"""Sparrow mahjong's bots (:mod:`policies.sparrow.bots`): the registry and the dispatcher the
engine calls."""

from .bots import BEST, RESTRICTED, P_GREEDY, P_RANDOM, P_SEARCH, POLICIES, decide  # noqa: F401
