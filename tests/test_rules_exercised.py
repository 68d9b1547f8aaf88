"""With strong seats (value vs greedy) on ``new_edition``, the rules that calls and draw-three make
reachable do fire (issue 9, item 8): Pon and Chi happen, kibidango, tabi (4 sets) and onigashima
(5 sets) occur in wins, draw-three is used, and ``exhaustive_draw.call_set_points`` changes the
outcome of at least one game (two scenarios differing only in that option, same seed).

Pinned seed, 600 games per run (two runs take about 5 s once compiled). Seen when written (4,357
rounds, 4,124 wins): 3,687 Pons, 3,121 Chis, 9,429 three-card draws, kibidango in 219 wins, tabi 245,
onigashima 46; call_set_points 1 -> 0 changes the record of 72 of the 600 games. The assertions only
ask for one occurrence of each.
"""

import numpy as np
import pytest

from policies.players import parse_players, with_players
from simcore.momojan import scenario
from simcore.momojan.engine import (
    OUT_DRAW, RF_CHI0, RF_CHI1, RF_DRAW3_0, RF_DRAW3_1, RF_OUTCOME, RF_PON0, RF_PON1, RF_SET_BONUS,
    RF_SETS, RF_YAKU_BITS,
)
from simcore.momojan.rules_array import Y_KIBIDANGO
from simcore.momojan.simulate import Simulator

GAMES, SEED = 600, 21


def _scenario(call_set_points=None):
    data = scenario.load("new_edition").to_dict()
    if call_set_points is not None:
        data["exhaustive_draw"]["call_set_points"] = call_set_points
    sc = scenario.from_dict(data, name="new_edition")
    return with_players(sc, parse_players("value,greedy"))


@pytest.fixture(scope="module")
def batch():
    return Simulator(_scenario()).play(np.arange(GAMES), seed=SEED)


def test_calls_and_draw_three_happen(batch):
    r = batch.rounds
    assert r[:, RF_PON0].sum() + r[:, RF_PON1].sum() > 0
    assert r[:, RF_CHI0].sum() + r[:, RF_CHI1].sum() > 0
    assert r[:, RF_DRAW3_0].sum() + r[:, RF_DRAW3_1].sum() > 0


def test_kibidango_and_set_count_bonuses_occur_in_wins(batch):
    r = batch.rounds
    wins = r[r[:, RF_OUTCOME] != OUT_DRAW]
    assert ((wins[:, RF_YAKU_BITS] >> Y_KIBIDANGO) & 1).sum() > 0
    bonus = wins[:, RF_SET_BONUS] > 0
    assert (bonus & (wins[:, RF_SETS] == 4)).sum() > 0   # tabi
    assert (bonus & (wins[:, RF_SETS] == 5)).sum() > 0   # onigashima


def test_call_set_points_change_an_outcome(batch):
    other = Simulator(_scenario(call_set_points=0)).play(np.arange(GAMES), seed=SEED)
    assert not np.array_equal(batch.games, other.games)
