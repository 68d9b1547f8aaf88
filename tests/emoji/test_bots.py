"""Emoji bots: the strength ladder with duplicate seatings (one seat of ``a`` against three of
``b``, ``a`` in each seat in turn, on the same deals; the fair share is 1/4), and the riichi
parameter's effect."""

import numpy as np
import pytest

from simcore.emoji.engine import GF_WINNERS, RF_RIICHI
from simcore.emoji.scenario import LOADER
from simcore.emoji.simulate import Simulator


def _sim(seats):
    return Simulator(LOADER.from_dict({"game": "emoji",
                                       "players": [{"policy": p} for p in seats]}))


def _share(a, b, games, seed):
    won = 0.0
    for seat_a in range(4):
        seats = tuple(a if s == seat_a else b for s in range(4))
        w = _sim(seats).play(np.arange(games), seed).games[:, GF_WINNERS]
        n = sum((w >> s) & 1 for s in range(4))
        won += (((w >> seat_a) & 1) / np.maximum(n, 1)).sum()
    return won / (4 * games)


# Pinned seed 33, 4 x 150 games (observed at commit time: greedy/random 0.978, baseline/random
# 0.907, random/idle 0.725, greedy/baseline 0.442). The fair share is 0.25; each threshold sits
# at least 5 standard errors (se <= 0.021) below what was seen and well above 0.25.
@pytest.mark.parametrize("a, b, at_least", [
    ("greedy", "random", 0.88),
    ("baseline", "random", 0.80),
    ("random", "idle", 0.60),
    ("greedy", "baseline", 0.34),
])
def test_the_ladder_stays_ordered(a, b, at_least):
    share = _share(a, b, 150, seed=33)
    assert share >= at_least, f"{a} vs three {b}: share {share:.3f} < {at_least}"


def test_greedy_riichi_zero_never_declares():
    sim = _sim(["greedy"] * 4)
    sim.params[:, 0] = 0.0   # riichi probability 0
    r = sim.play(np.arange(60), 1).rounds
    assert (r[:, RF_RIICHI] == 0).all()
