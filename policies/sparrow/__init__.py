"""Sparrow mahjong's bots (:mod:`policies.sparrow.bots`): the registry and the dispatcher the
engine calls."""

from .bots import P_GREEDY, P_RANDOM, POLICIES, decide  # noqa: F401
