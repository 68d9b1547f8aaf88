"""Emoji mahjong's bots (:mod:`policies.emoji.bots`): the registry and the dispatcher the
engine calls."""

from .bots import BEST, RESTRICTED, P_BASELINE, P_GREEDY, P_IDLE, P_RANDOM, P_SEARCH, POLICIES, SCRIPTED, decide  # noqa: F401
