"""Emoji mahjong's bots (:mod:`policies.emoji.bots`): the registry and the dispatcher the
engine calls."""

from .bots import P_BASELINE, P_GREEDY, P_IDLE, P_RANDOM, POLICIES, SCRIPTED, decide  # noqa: F401
