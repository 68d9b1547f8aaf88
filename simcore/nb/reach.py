"""Which games measure yaku reach (``Family.yaku_reach``): how often a hand was tenpai with a
wait that would score each yaku. Scoring every wait whenever a tenpai hand changes costs a
third of an engine's speed, so an engine measures it in one game of every :data:`REACH_EVERY`
(by game index: the games' deals are independent of their indices, so these are a random
sample, and the same whatever the workers). The harness counts reach over those games only;
its intervals, the game as the unit, are as wide as that sample makes them."""

from __future__ import annotations

import numba as nb
import numpy as np

REACH_EVERY = 8


@nb.njit(cache=True, inline="always")
def measures_reach(game) -> bool:
    """Does game ``game`` (its index) measure reach?"""
    return game % REACH_EVERY == 0


def reach_games(game_of_round) -> np.ndarray:
    """bool per record: its game measures reach (the harness's side of :func:`measures_reach`)."""
    return np.asarray(game_of_round) % REACH_EVERY == 0


from simcore.nb.unliteral import compile_once  # noqa: E402
compile_once(__name__)
