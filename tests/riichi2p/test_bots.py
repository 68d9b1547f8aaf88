"""riichi2p bots: the strength ladder with duplicate seatings (each bot in each seat in turn, on
the same deals; the fair share is 1/2) and the greedy parameters' effects."""

import numpy as np
import pytest

from simcore.riichi2p.engine import GF_WINNERS, RF_CALLS, RF_RIICHI
from simcore.riichi2p.scenario import LOADER
from simcore.riichi2p.simulate import Simulator


def _sim(seats):
    return Simulator(LOADER.from_dict({"game": "riichi2p",
                                       "players": [{"policy": p} for p in seats]}))


def _share(a, b, games, seed):
    won = 0.0
    for seat_a in range(2):
        seats = tuple(a if s == seat_a else b for s in range(2))
        w = _sim(seats).play(np.arange(games), seed).games[:, GF_WINNERS]
        n = ((w >> 0) & 1) + ((w >> 1) & 1)
        won += (((w >> seat_a) & 1) / np.maximum(n, 1)).sum()
    return won / (2 * games)


# Pinned seed 33, 2 x 150 games (observed at commit time with 2 x 300: greedy/random 1.00,
# baseline/random 1.00, greedy/baseline 0.88). Each threshold sits at least 5 standard errors
# (se <= 0.02 at 2 x 150) below what was seen and well above the fair 0.5.
@pytest.mark.parametrize("a, b, at_least", [
    ("greedy", "random", 0.9),
    ("baseline", "random", 0.9),
    ("greedy", "baseline", 0.7),
])
def test_the_ladder_stays_ordered(a, b, at_least):
    share = _share(a, b, 150, seed=33)
    assert share >= at_least, f"{a} vs {b}: share {share:.3f} < {at_least}"


def test_greedy_parameters_change_play():
    sim = _sim(["greedy"] * 2)
    base = sim.play(np.arange(20), 1).rounds
    sim.params[:, 0] = 0.0            # riichi probability 0
    r = sim.play(np.arange(20), 1).rounds
    assert (r[:, RF_RIICHI] == 0).all() and base[:, RF_RIICHI].any()
    sim = _sim(["greedy"] * 2)
    sim.params[:, 1] = 0              # calls: only pon of value tiles
    r = sim.play(np.arange(20), 1).rounds
    assert r[:, RF_CALLS].mean() < base[:, RF_CALLS].mean()


def test_greedy_declares_kyuushu_so_the_option_matters():
    from simcore.riichi2p.engine import OUT_KYUUSHU, RF_OUTCOME
    on = _sim(["greedy"] * 2).play(np.arange(150), 2).rounds
    off = Simulator(LOADER.from_dict({"game": "riichi2p", "kyuushu": False,
                                      "players": [{"policy": "greedy"}] * 2})).play(
        np.arange(150), 2).rounds
    assert (on[:, RF_OUTCOME] == OUT_KYUUSHU).sum() > 0
    assert (off[:, RF_OUTCOME] == OUT_KYUUSHU).sum() == 0


def test_folding_against_riichi_deals_in_less():
    """``fold``: 1 folds whenever the opponent is in riichi, 99 never; folding must cost fewer
    rons (pinned seed, 150 games each)."""
    from simcore.riichi2p.engine import OUT_RON, RF_OUTCOME
    rons = {}
    for fold in (1, 99):
        sim = _sim(["greedy"] * 2)
        sim.params[:, 2] = fold
        r = sim.play(np.arange(150), 3).rounds
        rons[fold] = (r[:, RF_OUTCOME] == OUT_RON).mean()
    assert rons[1] < rons[99] - 0.02, rons
